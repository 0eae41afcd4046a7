"""The machines a cluster's tasks start on over SSH: one row per host, parsed and checked here.

A row (the Cluster tab's host column, a hosts file's line, or `--hosts` between commas):

    [user@]host[:port] [python=PATH] [venv=DIR] [folder=DIR]

`host` may be an alias of ~/.ssh/config (ssh resolves it as in a terminal); `python` runs the task (default
python3), `venv` is activated first, `folder` holds the run folders (default ~/tfdd-runs). No TensorFlow, no SSH.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.core.messages import msg
from engine.core.problems import ConfigError, Problem
from engine.core.tfconfig import Task

DEFAULT_PYTHON = "python3"
DEFAULT_FOLDER = "tfdd-runs"  # relative: in the login's home on the host
_OPTIONS = ("python", "venv", "folder")
_OPTION_WORDS = ", ".join(f"{o}=..." for o in _OPTIONS)
# user@ and a host name, IPv4 address or alias; a [bracketed] IPv6 address; an optional :port
_TARGET = re.compile(
    r"^(?:(?P<user>[A-Za-z0-9._][A-Za-z0-9._-]*)@)?(?P<host>[A-Za-z0-9_.%-]+|\[[0-9A-Fa-f:.%]+\])(?::(?P<port>\d+))?$"
)


@dataclass(frozen=True)
class Host:
    """One machine tasks start on: how ssh reaches it, which Python runs there, where runs go."""

    target: str  # what ssh is given: user@host, host or an alias (an IPv6 address without brackets)
    port: int | None = None  # None: ssh's own (the config's Port, else 22)
    python: str = DEFAULT_PYTHON
    venv: str = ""
    folder: str = DEFAULT_FOLDER

    @property
    def name(self) -> str:
        """How messages name the host: its target, and its port when one is given."""
        target = f"[{self.target}]" if ":" in self.target else self.target
        return f"{target}:{self.port}" if self.port else target

    @property
    def address_host(self) -> str:
        """The machine as the host part of a task's address: without user@, an IPv6 address in brackets."""
        host = self.target.rpartition("@")[2]
        return f"[{host}]" if ":" in host else host

    def row(self) -> str:
        """The row this host parses from (options that are not the default only)."""
        options = [f"python={self.python}"] if self.python != DEFAULT_PYTHON else []
        options += [f"venv={self.venv}"] if self.venv else []
        options += [f"folder={self.folder}"] if self.folder != DEFAULT_FOLDER else []
        return " ".join([self.name, *options])


def parse_host(row: str, where: str = "host") -> Host:
    """One row; ConfigError naming `where` (e.g. "hosts.txt line 3") and what to write instead."""
    words = row.split()
    if not words:
        raise ConfigError([Problem(where, row, msg("empty: write [user@]host[:port]"))])
    match = _TARGET.match(words[0])
    if match is None or words[0].startswith("-"):
        raise ConfigError(
            [Problem(where, words[0], msg("not a host: write [user@]host[:port] (a name, an address or an ssh alias)"))]
        )
    port = int(match["port"]) if match["port"] else None
    problems = [] if port is None or 0 < port < 65536 else [Problem(where, port, msg("a port is between 1 and 65535"))]
    host = match["host"].strip("[]")
    options: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep or key not in _OPTIONS or not value:
            problems.append(Problem(where, word, msg("not an option: write {options}", options=_OPTION_WORDS)))
        elif key in options:
            problems.append(Problem(where, word, msg("{key}= is given twice", key=key)))
        else:
            options[key] = value
    if "python" in options and "venv" in options:
        problems.append(Problem(where, row, msg("give python= or venv= (the venv's python runs), not both")))
    if problems:
        raise ConfigError(problems)
    target = f"{match['user']}@{host}" if match["user"] else host
    return Host(target, port, **options)


def parse_hosts(text: str) -> list[Host]:
    """`--hosts`: a file of rows (one a line, # comments) when `text` names one, else rows between commas.
    Every problem of every row at once (ConfigError)."""
    path = Path(text).expanduser()
    if path.is_file():
        lines = path.read_text(encoding="utf-8").splitlines()
        rows = [(f"{path.name} line {n}", line.split("#", 1)[0]) for n, line in enumerate(lines, 1)]
    else:
        rows = [(f"--hosts item {n}", item) for n, item in enumerate(text.split(","), 1)]
    hosts, problems = [], []
    for where, row in rows:
        if not row.strip():
            continue
        try:
            hosts.append(parse_host(row, where))
        except ConfigError as exc:
            problems += exc.problems
    if not hosts and not problems:
        problems.append(Problem("--hosts", text, msg("no host: write [user@]host[:port], comma separated, or a file")))
    if problems:
        raise ConfigError(problems)
    return hosts


def hosts_for(tasks: list[Task], hosts: list[Host]) -> list[Host]:
    """The host of each task: in order, round and round when there are fewer hosts than tasks (a host then
    runs several tasks, each in its own folder, on its own port). ConfigError when hosts would go unused."""
    if len(hosts) > len(tasks):
        unused = ", ".join(h.name for h in hosts[len(tasks) :])
        raise ConfigError(
            [
                Problem(
                    "--hosts",
                    unused,
                    msg("{hosts} hosts for {tasks} tasks: these would run nothing", hosts=len(hosts), tasks=len(tasks)),
                )
            ]
        )
    return [hosts[i % len(hosts)] for i in range(len(tasks))]
