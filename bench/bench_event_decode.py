"""Events decoded a second and run configs parsed and validated a second: this tree against a git revision.

    python bench/bench_event_decode.py [--baseline 6542af0] [--rounds 7] [--epochs 20]

The events are a run's events.jsonl as the engine writes it (engine.core.events.encode): a run_started, its
start-up logs, then per epoch 1,000 batch_end (a few with a NaN loss, written as "nan"), a step_anatomy every
200 steps, an epoch_end with validation, a checkpoint_saved, and a run_finished at the end; batch_end is
99 % of the lines, as in a real run's file. Each decoder decodes every line (a str, as the followers hand it
over). The config is resources/examples/mirrored-2-virtual-cpus.json through RunConfig.from_json (parse,
type check, validate), as the command line does, and with check=False (parse and type check only), as the
window reads a saved config back (settings, a past run).

The baseline is engine/core/events.py and engine/core/config.py as they are at --baseline (git show), loaded
beside this tree's modules; with pydantic importable, a third decoder validates the same lines with
pydantic's TypeAdapter (strict, JSON mode), for the choice of library. Variants alternate within each round,
each round in another order; figures are per second of this process's CPU time, medians over rounds, and
every decoder must give the same events.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core import config as new_config  # noqa: E402
from engine.core import events as ev  # noqa: E402
from engine.core.messages import msg  # noqa: E402

CONFIG = ROOT / "resources" / "examples" / "mirrored-2-virtual-cpus.json"
STEPS_PER_EPOCH = 1000
ANATOMY_EVERY = 200
NAN_EVERY = 250  # a diverging step now and then: the decoder's slower path for "nan"


def baseline_module(rev: str, path: str, name: str) -> types.ModuleType:
    """The module at `path` as it is at git revision `rev`, imported under `name`."""
    source = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    module = types.ModuleType(name)
    module.__file__ = str(ROOT / path)
    sys.modules[name] = module  # dataclasses look their module up while the classes are made
    exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)
    return module


def run_lines(epochs: int) -> list[str]:
    """A run's events.jsonl, line by line."""
    t = 1_796_000_000.0
    events: list[Any] = [
        ev.RunStarted(
            strategy="mirrored",
            num_replicas=2,
            devices=["/cpu:0", "/cpu:1"],
            global_batch_size=256,
            per_replica_batch_size=128,
            loop="custom",
            epochs=epochs,
            steps_per_epoch=STEPS_PER_EPOCH,
            steps_per_execution=0,
            run_dir="/tmp/runs/20261204-mirrored",
            time=t,
        ),
        ev.Log(level="info", message=msg("data: {source}; shard policy: {policy}", source="synthetic", policy="data")),
        ev.Log(level="info", message="model: mlp, 296,449 parameters; outputs logits", time=t),
    ]
    step = 0
    for epoch in range(1, epochs + 1):
        for s in range(1, STEPS_PER_EPOCH + 1):
            step += 1
            t += 0.0213
            loss = float("nan") if step % NAN_EVERY == 0 else 0.6931 / (1 + step / 997)
            events.append(
                ev.BatchEnd(
                    epoch=epoch,
                    step=s,
                    global_step=step,
                    loss=loss,
                    accuracy=0.5 + 0.4 * step / (step + 1013),
                    examples_per_sec=12012.7 + (step % 37) * 3.1,
                    steps=2,
                    time=t,
                )
            )
            if step % ANATOMY_EVERY == 0:
                events.append(
                    ev.StepAnatomy(
                        epoch=epoch,
                        global_step=step,
                        steps=ANATOMY_EVERY,
                        step_ms=10.61,
                        input_ms=0.42,
                        compute_ms=8.93,
                        sync_ms=0.87,
                        rest_ms=0.39,
                        time=t,
                    )
                )
        events.append(
            ev.EpochEnd(
                epoch=epoch,
                loss=0.31,
                accuracy=0.88,
                seconds=21.3,
                examples_per_sec=12020.4,
                val_loss=0.33,
                val_accuracy=0.87,
                time=t,
            )
        )
        events.append(ev.CheckpointSaved(path=f"/tmp/runs/x/checkpoints/ckpt-{epoch}", epoch=epoch, step=0, time=t))
    events.append(ev.RunFinished(status="completed", epochs_completed=epochs, run_dir="/tmp/runs/x", time=t))
    return [ev.encode(e) for e in events]


def pydantic_decoder(fallback: Callable[[str], Any]) -> Callable[[str], Any] | None:
    """pydantic's TypeAdapter: one for the type, then one per event class (strict: no "1" for an int).

    Strict pydantic takes no "nan" for a float: those lines (1 in NAN_EVERY) go to `fallback`."""
    if importlib.util.find_spec("pydantic") is None:
        return None
    from pydantic import TypeAdapter, ValidationError, create_model

    tag = create_model("Tag", type=(str, ""))  # other keys ignored
    adapters = {name: TypeAdapter(cls) for name, cls in ev.EVENT_TYPES.items()}

    def decode(line: str) -> Any:
        try:
            return adapters[tag.model_validate_json(line).type].validate_json(line, strict=True)
        except ValidationError:
            return fallback(line)

    return decode


def rate(work: Callable[[], int]) -> float:
    """Items a second of this process's CPU time in one call of `work` (which returns how many items it did):
    CPU time, not wall time, so the other work of a shared host does not count."""
    t0 = time.process_time()
    n = work()
    return n / (time.process_time() - t0)


def same(a: Any, b: Any) -> bool:
    """Two events (of possibly different modules' classes) with the same fields, NaN equal to NaN."""
    da, db = dataclasses.asdict(a), dataclasses.asdict(b)
    return type(a).__name__ == type(b).__name__ and all(
        va == db[k] or (va != va and db[k] != db[k]) for k, va in da.items()
    )


def decoding(lines: list[str], decode: Callable[[str], Any]) -> Callable[[], int]:
    def work() -> int:
        for line in lines:
            decode(line)
        return len(lines)

    return work


def parsing(text: str, run_config: type, times: int, check: bool) -> Callable[[], int]:
    def work() -> int:
        for _ in range(times):
            run_config.from_json(text, check=check)
        return times

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="6542af0", help="git revision of the hand-made checkers")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args()

    old_events = baseline_module(args.baseline, "engine/core/events.py", "baseline_events")
    old_config = baseline_module(args.baseline, "engine/core/config.py", "baseline_config")
    lines = run_lines(args.epochs)
    decoders: dict[str, Callable[[str], Any]] = {
        f"hand-made ({args.baseline})": old_events.decode,
        "this tree": ev.decode,
    }
    if (candidate := pydantic_decoder(old_events.decode)) is not None:
        decoders["pydantic TypeAdapter"] = candidate
    reference = [old_events.decode(line) for line in lines]
    for name, decode in decoders.items():
        assert all(same(r, decode(line)) for r, line in zip(reference, lines, strict=True)), name
    text = CONFIG.read_text(encoding="utf-8")
    configs = {f"hand-made ({args.baseline})": old_config.RunConfig, "this tree": new_config.RunConfig}
    work = {f"events: {k}": decoding(lines, d) for k, d in decoders.items()}
    work |= {f"configs: {k}": parsing(text, c, 2000, True) for k, c in configs.items()}
    work |= {f"configs, types only: {k}": parsing(text, c, 4000, False) for k, c in configs.items()}

    rates: dict[str, list[float]] = {k: [] for k in work}
    order = list(work)
    for r in range(args.rounds):
        for name in order if r % 2 == 0 else reversed(order):
            rates[name].append(rate(work[name]))
    batch = sum('"batch_end"' in line for line in lines) / len(lines)
    print(f"{len(lines):,} event lines ({batch:.1%} batch_end), {args.rounds} rounds, medians")
    base = {"events": statistics.median(rates[f"events: hand-made ({args.baseline})"])}
    base["configs"] = statistics.median(rates[f"configs: hand-made ({args.baseline})"])
    base["configs, types only"] = statistics.median(rates[f"configs, types only: hand-made ({args.baseline})"])
    print(f"{'variant':<52} {'per second':>12} {'÷ hand-made':>12}")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"{name:<52} {median:>12,.0f} {median / base[name.split(':')[0]]:>12.2f}")


if __name__ == "__main__":
    main()
