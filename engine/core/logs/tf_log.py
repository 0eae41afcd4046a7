"""TensorFlow's start-up chatter on stderr, recognised and folded into one plain line per topic.

A CPU-only machine greets every run with `failed call to cuInit` and absl warnings that read like failures, some
before TensorFlow's logging starts (TF_CPP_MIN_LOG_LEVEL cannot silence them). Each known line (captured from
TensorFlow 2.21) folds into its topic's line, keeping the raw lines; an unknown native line shows as
"TensorFlow warning: <message>". TF-free and Qt-free: the window's log and `tfdd train` fold alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.core.messages import Message, msg

# absl's prefix: level, MMDD (0000 before absl::InitializeLog), time, thread id; then file:line]
_NATIVE = re.compile(r"^(?P<level>[IWEF])\d{4} \d\d:\d\d:\d+\.\d+\s+\d+ (?P<where>[\w.]+:\d+)\] (?P<text>.*)$")
_SOURCE_TAG = re.compile(r"^\[(?P<source>[\w.-]+)\] (?P<line>.*)$")
NATIVE_LEVELS = {"I": "info", "W": "warning", "E": "error", "F": "fatal"}


def source_tag(source: str) -> str:
    """How a log marks a cluster task's lines, e.g. "[worker-1]" (what _SOURCE_TAG reads back); the window's
    per-worker filter looks for it."""
    return f"[{source}]"


def line_prefix(source: str) -> str:
    """A line's tag and a space, or nothing for a line of no named source."""
    return f"{source_tag(source)} " if source else ""


@dataclass(frozen=True)
class Topic:
    """What a group of lines means, in words a beginner can act on."""

    key: str
    text: str
    level: str = "info"  # info, warning or error: how the folded line is shown


TOPICS = {
    t.key: t
    for t in (
        Topic("startup", msg("started (logger and CPU-feature notes; nothing to do)")),
        Topic("no_gpu", msg("No CUDA driver: training on the CPU (an error only if you expected a GPU)")),
        Topic(
            "onednn",
            msg(
                "oneDNN custom operations are on: results may differ in the last digits "
                "(TF_ENABLE_ONEDNN_OPTS=0 turns them off)"
            ),
        ),
        Topic("cluster", msg("Joining the cluster")),
        Topic("input", msg("Input pipeline notes (harmless: NumPy data is fed through Python)")),
        Topic(
            "sigterm",
            msg("SIGTERM noted: a multi-worker TensorFlow worker only logs it and keeps running"),
            "warning",
        ),
        Topic(
            "slow_reduce",
            msg("A slower all-reduce path is used (does the strategy name a device that does not exist?)"),
            "warning",
        ),
    )
}


@dataclass(frozen=True)
class Pattern:
    """One kind of line: its regex, the lines that may continue it, its topic and (optionally) the
    detail it adds to the topic's line (a format string over the regex's named groups). A state
    detail (waiting, not joined, all joined) outranks a mere progress note on the topic's line."""

    id: str
    regex: re.Pattern[str]
    topic: str
    detail: str = ""  # a msg() template over the regex's named groups
    continuation: re.Pattern[str] | None = None
    continuation_detail: str = ""  # a msg() template over {line}, for each continuation line
    state: bool = False


def _native(where: str, text: str) -> str:
    return rf"^[IWEF]\d{{4}} \d\d:\d\d:\d+\.\d+\s+\d+ {where}\.cc:\d+\] {text}$"


_TASK = r"/job:\w+/replica:\d+/task:\d+"


def _p(
    id: str,
    regex: str,
    topic: str,
    detail: str = "",
    continuation: str = "",
    continuation_detail: str = "",
    state: bool = False,
) -> Pattern:
    compiled = re.compile(continuation) if continuation else None
    return Pattern(id, re.compile(regex), topic, detail, compiled, continuation_detail, state)


PATTERNS: tuple[Pattern, ...] = (
    _p(
        "absl_preinit",
        r"^WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR$",
        "startup",
    ),
    _p(
        "no_cuda_driver",
        _native("cudart_stub", r"Could not find cuda drivers on your machine, GPU will not be used\."),
        "no_gpu",
    ),
    _p(
        "cpu_feature_guard",
        _native(
            "cpu_feature_guard",
            r"This TensorFlow binary is optimized to use available CPU instructions in "
            r"performance-critical operations\.",
        ),
        "startup",
        continuation=r"^To enable the following instructions: .*, in other operations, rebuild TensorFlow with the "
        r"appropriate compiler flags\.$",
    ),
    _p("onednn_on", _native("port", r"oneDNN custom operations are on\..*TF_ENABLE_ONEDNN_OPTS=0`\."), "onednn"),
    _p("cuinit_failed", _native("cuda_platform", r"failed call to cuInit: .*"), "no_gpu"),
    _p(
        "coord_service_init",
        _native("coordination_service", r"Initializing CoordinationService"),
        "cluster",
        msg("this worker coordinates the cluster"),
    ),
    _p(
        "grpc_server_started",
        _native("grpc_server_lib", r"Started server with target: grpc://(?P<addr>\S+)"),
        "cluster",
        msg("listening on {addr} (on every interface)"),
    ),
    _p(
        "task_connected",
        r"^[IWEF]\d{4} \d\d:\d\d:\d+\.\d+\s+\d+ coordination_service\.h:\d+\] "
        rf"(?P<task>{_TASK}) has connected to coordination service\. Incarnation: \d+$",
        "cluster",
        msg("{task} joined"),
    ),
    _p(
        "waiting_for_tasks",
        _native("coordination_service", r"Waiting for (?P<missing>\d+)/(?P<total>\d+) tasks to connect\."),
        "cluster",
        msg("waiting for {missing} of {total} workers"),
        state=True,
    ),
    _p(
        "stragglers",
        _native("coordination_service", r"Example stragglers:"),
        "cluster",
        continuation=rf"^{_TASK}$",
        continuation_detail=msg("not joined yet: {line}"),
        state=True,
    ),
    _p(
        "agent_connected",
        _native("coordination_service_agent", r"Coordination agent has successfully connected\."),
        "cluster",
        msg("this worker reached the coordinator"),
    ),
    _p(
        "barrier_passed",
        _native("coordination_service", r"Barrier\(.*\) has passed with status: OK"),
        "cluster",
        msg("all workers connected; training can start"),
        state=True,
    ),
    _p(
        "malloc_trim_patch",
        _native("generator_dataset_op", r"Memory patch applied: M_TRIM_THRESHOLD=\d+ kb was set\."),
        "input",
    ),
    _p(
        "generator_not_optimized",
        _native(
            "dataset",
            r"Input of GeneratorDatasetOp::Dataset will not be optimized because the dataset does not implement "
            r"the AsGraphDefInternal\(\) method needed to apply optimizations\.",
        ),
        "input",
    ),
    _p("sigterm_caught", _native("preemption_notifier", r"SIGTERM caught at \S+"), "sigterm"),
    _p(
        "py_batch_reduce",
        r"^WARNING:tensorflow:Efficient batch_reduce is not supported if destinations are different\.$",
        "slow_reduce",
    ),
)


def recognise(line: str) -> Pattern | None:
    """The pattern a line matches, if any."""
    if not line or line[0] not in "IWEF":  # every pattern starts with a level letter (or WARNING)
        return None
    for pattern in PATTERNS:
        if pattern.regex.match(line):
            return pattern
    return None


def without_chatter(lines: Iterable[str]) -> list[str]:
    """The lines that are not TensorFlow's routine chatter: where the reason a process failed is."""
    return [line for entry in fold_all(lines) if not entry.topic for line in entry.raw_lines()]


@dataclass(eq=False)
class Entry:
    """One line of a folded log: a plain line, or a topic's line standing for the raw lines it folds."""

    text: str
    level: str = "info"
    raw: list[str] = field(default_factory=list)  # empty: `text` is the raw line itself
    topic: str = ""
    source: str = ""
    details: list[tuple[bool, str]] = field(default_factory=list)  # (is a state, text), in order

    @property
    def folded(self) -> bool:
        return bool(self.raw)

    def raw_lines(self) -> list[str]:
        """The lines as the process wrote them."""
        return list(self.raw) if self.raw else [self.text]


@dataclass
class Folded:
    """What one `LogFolder.feed` changed: entries added, and earlier entries that gained lines."""

    new: list[Entry] = field(default_factory=list)
    grown: list[Entry] = field(default_factory=list)


class LogFolder:
    """Folds a stream of lines: each topic becomes one line per source (a cluster worker's lines
    carry a "[worker-1] " tag), later lines of the topic join it wherever they come."""

    def __init__(self) -> None:
        self._topics: dict[tuple[str, str], Entry] = {}
        self._continuing: dict[str, tuple[Entry, Pattern]] = {}

    def feed(self, lines: Iterable[str]) -> Folded:
        out = Folded()
        for line in lines:
            self._feed_one(line.rstrip("\r\n"), out)
        return out

    def _feed_one(self, line: str, out: Folded) -> None:
        source, bare = "", line
        tagged = _SOURCE_TAG.match(line)
        if tagged:
            source, bare = tagged["source"], tagged["line"]
        continuing = self._continuing.pop(source, None)
        if continuing is not None and continuing[1].continuation and continuing[1].continuation.match(bare):
            entry, pattern = continuing
            entry.raw.append(line)
            if pattern.continuation_detail:
                entry.details.append((pattern.state, Message(pattern.continuation_detail, {"line": bare})))
            self._continuing[source] = continuing
            _note(out, entry)
            return
        pattern = recognise(bare)
        if pattern is None:
            out.new.append(_plain(line, bare, source))
            return
        key = (source, pattern.topic)
        entry = self._topics.get(key)
        if entry is None:
            topic = TOPICS[pattern.topic]
            entry = Entry(text="", level=topic.level, topic=topic.key, source=source)
            self._topics[key] = entry
            out.new.append(entry)
        else:
            _note(out, entry)
        entry.raw.append(line)
        if pattern.detail:
            match = pattern.regex.match(bare)
            assert match is not None
            entry.details.append((pattern.state, Message(pattern.detail, match.groupdict())))
        entry.text = _topic_line(entry)
        if pattern.continuation is not None:
            self._continuing[source] = (entry, pattern)


def _note(out: Folded, entry: Entry) -> None:
    entry.text = _topic_line(entry)
    if entry not in out.new and entry not in out.grown:
        out.grown.append(entry)


def _topic_line(entry: Entry) -> Message:
    topic = TOPICS[entry.topic]
    states = [text for state, text in entry.details if state]
    notes = states or [text for _, text in entry.details]
    detail = msg(": {note}", note=notes[-1]) if notes else ""
    return msg(
        "{tag}TensorFlow: {topic}{detail}",
        tag=line_prefix(entry.source),
        topic=topic.text,
        detail=detail,
    )


def _plain(line: str, bare: str, source: str) -> Entry:
    """A line no pattern knows; a native TensorFlow line is put in words, its raw line kept."""
    native = _NATIVE.match(bare)
    if native is None:
        return Entry(text=line, level=_level_of(bare), source=source)
    level = NATIVE_LEVELS[native["level"]]
    return Entry(
        text=f"{line_prefix(source)}TensorFlow {level}: {native['text']} ({native['where']})",
        level="error" if level == "fatal" else level,
        raw=[line],
        source=source,
    )


def _level_of(line: str) -> str:
    head = line[:40].lower()
    if any(word in head for word in ("error", "traceback", "fatal", "failed")):
        return "error"
    if "warning" in head:
        return "warning"
    return "info"


def fold_all(lines: Iterable[str]) -> list[Entry]:
    """Every entry of a finished stream, in order (a run's stderr.log, a test)."""
    folder = LogFolder()
    return folder.feed(lines).new
