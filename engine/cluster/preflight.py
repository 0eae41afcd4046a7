"""Before a cluster starts on other machines: every host checked at once, every problem in one line each.

One ssh connection per host runs a small stdlib-only script with the host's
Python (so a missing or old Python, or a missing dashboard, is itself found):
the Python version, the dashboard and its version, the config's data paths,
the tasks' ports and the free disk where the runs go. ssh's own failures
(unreachable, authentication refused, host key unknown or changed) are named
by engine.cluster.ssh.failure. Every line is an engine.core.messages template,
so the window shows it in its language.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata

from engine.cluster.ssh import Ssh, failure, python_words
from engine.core.exports.bundle import sh_quote
from engine.core.hosts import Host
from engine.core.messages import Message, msg

DIST_NAME = "tf-distributed-dashboard"
PYTHONS = ((3, 11), (3, 12))  # what TensorFlow 2.21 and the dashboard run on
MIN_FREE_DISK_BYTES = 1 << 30  # checkpoints of a small model, with room to spare
CHECK_TIMEOUT_S = 30.0
SHELL_NOT_FOUND = 127  # the shell's exit code for a command it cannot find

# Runs with the host's Python, whatever its version (so: no f-strings, no walrus); JSON in argv[1], out.
_CHECK_SCRIPT = r"""
import glob, json, os, shutil, sys
want = json.loads(sys.argv[1])
out = {"python": list(sys.version_info[:3]), "executable": sys.executable, "missing": [], "busy": []}
try:
    import importlib.util
    out["engine"] = importlib.util.find_spec("engine.cluster.remote_task") is not None
except ImportError:
    out["engine"] = False
try:
    from importlib import metadata
    out["version"] = metadata.version(want["dist"])
except Exception:
    out["version"] = None
for path in want["paths"]:
    p = os.path.expanduser(path)
    if not (os.path.exists(p) or glob.glob(p)):
        out["missing"].append(path)
if out["engine"]:
    from engine.core.tfconfig import port_in_use
    out["busy"] = [port for port in want["ports"] if port_in_use("0.0.0.0", port)]
folder = os.path.expanduser(want["folder"])
while folder and not os.path.isdir(folder):
    folder = os.path.dirname(folder.rstrip("/")) or "."
out["free"] = shutil.disk_usage(folder).free
print(json.dumps(out))
"""


@dataclass(frozen=True)
class HostCheck:
    """What one host must offer: its tasks' ports, the config's data paths."""

    host: Host
    ports: tuple[int, ...]
    paths: tuple[str, ...]


def local_version() -> str | None:
    """The dashboard's version here (None from a source checkout that is not installed)."""
    try:
        return metadata.version(DIST_NAME)
    except metadata.PackageNotFoundError:
        return None


def check_hosts(checks: list[HostCheck], ssh: Ssh) -> list[Message]:
    """Every problem of every host, one line each, all hosts at once (in parallel); [] when all is well."""
    version = local_version()
    with ThreadPoolExecutor(max_workers=min(16, len(checks)) or 1, thread_name_prefix="preflight") as pool:
        found = list(pool.map(lambda c: check_host(c, ssh, version), checks))
    return [line for lines in found for line in lines]


def check_host(check: HostCheck, ssh: Ssh, version: str | None) -> list[Message]:
    host = check.host
    want = {"dist": DIST_NAME, "paths": list(check.paths), "ports": list(check.ports), "folder": host.folder}
    code, out, err = ssh.run(
        host, f"{python_words(host)} - {sh_quote(json.dumps(want))}", _CHECK_SCRIPT.encode(), CHECK_TIMEOUT_S
    )
    ssh_failed = failure(host, code, err)
    if ssh_failed:
        return [ssh_failed]
    python = f"venv {host.venv}" if host.venv else host.python
    try:
        found = json.loads(out.decode("utf-8", "replace").strip().splitlines()[-1])
    except (ValueError, IndexError):
        if code == SHELL_NOT_FOUND or "not found" in err or "No such file" in err:
            return [
                msg(
                    "{host}: no Python at `{python}` (`python=` or `venv=` in the host's row says which runs)",
                    host=host.name,
                    python=python,
                )
            ]
        said = err.strip().splitlines()[-1] if err.strip() else msg("no output")
        return [msg("{host}: `{python}` could not run the check ({said})", host=host.name, python=python, said=said)]
    return _problems(host, python, found, version, check)


def _problems(host: Host, python: str, found: dict, version: str | None, check: HostCheck) -> list[Message]:
    lines = []
    running = tuple(found["python"][:2])
    if running not in PYTHONS:
        wanted = " or ".join(f"{a}.{b}" for a, b in PYTHONS)
        lines.append(
            msg(
                "{host}: `{python}` is Python {version}; the tasks need {wanted} "
                "(name another with python= or venv= in the host's row)",
                host=host.name,
                python=python,
                version=".".join(map(str, found["python"])),
                wanted=wanted,
            )
        )
    install = f"{found['executable']} -m pip install {DIST_NAME}" + (f"=={version}" if version else "")
    if not found["engine"]:
        lines.append(
            msg(
                "{host}: the dashboard is not installed for `{python}`; install it there: `{install}`",
                host=host.name,
                python=python,
                install=install,
            )
        )
    elif version and found["version"] and found["version"] != version:
        lines.append(
            msg(
                "{host}: the dashboard there is version {there}, here {here}; the same one must run everywhere: "
                "`{install}`",
                host=host.name,
                there=found["version"],
                here=version,
                install=install,
            )
        )
    lines += [
        msg("{host}: the data path {path} does not exist there (each host reads its own)", host=host.name, path=path)
        for path in found["missing"]
    ]
    lines += [
        msg(
            "{host}: port {port} is in use there; a task of this cluster listens on it (pick other ports)",
            host=host.name,
            port=port,
        )
        for port in found["busy"]
    ]
    if found["free"] < MIN_FREE_DISK_BYTES:
        lines.append(
            msg(
                "{host}: only {free_mb:,.0f} MB free in {folder}; checkpoints need at least {need_gb:g} GB (free "
                "some, or name another folder= in the host's row)",
                host=host.name,
                free_mb=found["free"] / 2**20,
                folder=host.folder,
                need_gb=MIN_FREE_DISK_BYTES / 2**30,
            )
        )
    return lines
