"""The system's OpenSSH client, as the launcher uses it: commands, folders there and back, failures named.

The user's keys, agent, ~/.ssh/config and known_hosts apply as in a terminal
(`--ssh-config FILE` gives another config file). Two options are always on:
BatchMode=yes, so no password or passphrase is ever asked for (a host that
needs one is refused, and the message says how to set up a key), and
StrictHostKeyChecking=yes, so a host whose key is unknown or changed is
never connected to (the message says what to check). ServerAlive probes
notice a dead host or a dropped link within a few seconds.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.core.exports.bundle import sh_quote
from engine.core.hosts import Host
from engine.core.messages import Message, msg
from engine.core.problems import ConfigError, Problem
from engine.core.protocol.paths import LOCK_NAME, MARKER_NAME, RESERVE_NAME

SSH = "ssh"
SSH_CONFIG_ENV = "TFDD_SSH_CONFIG"
"""The ssh config file to use when `--ssh-config` is not given (the window's launches read it too)."""
SSH_OPTIONS = (
    *("-o", "BatchMode=yes"),
    *("-o", "StrictHostKeyChecking=yes"),
    *("-o", "ConnectTimeout=10"),
    *("-o", "ServerAliveInterval=1"),
    *("-o", "ServerAliveCountMax=3"),
)
SSH_FAILED = 255  # ssh's own exit code: it could not connect, or the connection was lost
COPY_TIMEOUT_S = 120.0
_NOT_COPIED_BACK = {LOCK_NAME, MARKER_NAME, RESERVE_NAME}  # the remote run's own claim; this machine has its own


@dataclass(frozen=True)
class Ssh:
    """How to reach hosts: the ssh config file to use (None: the user's own)."""

    config: str | None = None

    @classmethod
    def configured(cls, config: str | None) -> Ssh:
        """`config` (--ssh-config), else $TFDD_SSH_CONFIG, else the user's own ~/.ssh/config."""
        return cls(config or os.environ.get(SSH_CONFIG_ENV) or None)

    def command(self, host: Host, remote: str) -> list[str]:
        """ssh running the shell command `remote` on `host`, stdin and stdout piped through (no tty)."""
        return [*self._base(host), "-T", "--", host.target, remote]

    def _base(self, host: Host) -> list[str]:
        config = ["-F", self.config] if self.config else []
        port = ["-p", str(host.port)] if host.port else []
        return [SSH, *config, *SSH_OPTIONS, *port]

    def run(
        self, host: Host, remote: str, stdin: bytes = b"", timeout: float = COPY_TIMEOUT_S
    ) -> tuple[int, bytes, str]:
        """Run `remote` there and wait: (exit code, stdout, stderr). A timeout counts as unreachable."""
        try:
            done = subprocess.run(self.command(host, remote), input=stdin, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return SSH_FAILED, b"", f"ssh: no answer within {timeout:g} s"
        return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace")

    def address(self, host: Host) -> str:
        """The host name or address ssh connects to (an alias's HostName), for the other hosts' TF_CONFIG."""
        config = ["-F", self.config] if self.config else []
        port = ["-p", str(host.port)] if host.port else []
        try:
            done = subprocess.run([SSH, *config, *port, "-G", host.target], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ConfigError(
                [
                    Problem(
                        SSH, host.name, msg("ssh could not run ({error}): install the OpenSSH client", error=str(exc))
                    )
                ]
            ) from None
        if done.returncode != 0:
            raise ConfigError([Problem("--ssh-config" if self.config else host.name, self.config, _tail(done.stderr))])
        for line in done.stdout.splitlines():
            key, _, value = line.partition(" ")
            if key == "hostname" and value:
                return value.strip()
        return host.target.rpartition("@")[2]

    def send(self, host: Host, folder: str, files: dict[str, bytes]) -> str:
        """Write `files` (relative name -> content) into `folder` there; "" or what went wrong."""
        data = io.BytesIO()
        with tarfile.open(fileobj=data, mode="w") as tar:
            for name, content in files.items():
                info = tarfile.TarInfo(name)
                info.size, info.mode = len(content), 0o644
                tar.addfile(info, io.BytesIO(content))
        quoted = sh_quote(folder)
        code, _, err = self.run(host, f"mkdir -p {quoted} && tar xf - -C {quoted}", stdin=data.getvalue())
        if code == 0:
            return ""
        return failure(host, code, err) or msg(
            "{host}: copying to {folder} failed: {said}", host=host.name, folder=folder, said=_tail(err)
        )

    def fetch(self, host: Host, folder: str, into: Path) -> str:
        """Copy `folder` there into `into` here (a run's files; its lock and marker stay there); "" or why not."""
        command = self.command(host, f"tar cf - -C {sh_quote(folder)} .")
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
            assert proc.stdout is not None and proc.stderr is not None
            try:
                with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
                    tar.extractall(into, filter=_run_files)
            except tarfile.TarError as exc:
                proc.kill()
                return msg("{host}: copying {folder} back failed: {said}", host=host.name, folder=folder, said=str(exc))
            finally:
                err = proc.stderr.read().decode("utf-8", "replace")
                code = proc.wait(timeout=COPY_TIMEOUT_S)
        if code == 0:
            return ""
        return failure(host, code, err) or msg(
            "{host}: copying {folder} back failed: {said}", host=host.name, folder=folder, said=_tail(err)
        )


def add_host_arguments(parser: argparse.ArgumentParser) -> None:
    """`cluster launch`'s options for starting its tasks on other machines."""
    parser.add_argument(
        "--hosts",
        metavar="FILE-or-LIST",
        help="start the tasks on these machines over SSH, in task order (round again when there are fewer): "
        "rows '[user@]host[:port] [python=PATH] [venv=DIR] [folder=DIR]', comma separated or one a line in a file",
    )
    parser.add_argument(
        "--ssh-config",
        metavar="FILE",
        help="--hosts: the ssh config file to use instead of ~/.ssh/config (default: $TFDD_SSH_CONFIG if set)",
    )


def _run_files(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
    """tarfile's "data" filter (nothing outside the folder, no devices), without the remote run's claim."""
    if Path(member.name).name in _NOT_COPIED_BACK:
        return None
    return tarfile.data_filter(member, path)


def _tail(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return lines[-1] if lines else msg("no message")


_KINDS: tuple[tuple[tuple[str, ...], Callable[[Host, str], Message]], ...] = (
    (
        ("REMOTE HOST IDENTIFICATION HAS CHANGED", "Host key for", "host key mismatch"),
        lambda h, e: msg(
            "{host}: its host key has CHANGED since it was added to known_hosts (a reinstalled machine, or "
            "someone in between): check the key with the host's owner before anything else; then "
            "`ssh-keygen -R {address}` and connect once with `ssh {target}` in a terminal",
            host=h.name,
            address=h.target.rpartition("@")[2],
            target=h.target,
        ),
    ),
    (
        ("host key is known", "Host key verification failed"),
        lambda h, e: msg(
            "{host}: its host key is not known here, and is never accepted unchecked: connect once with "
            "`ssh {target}` in a terminal and compare the fingerprint with the one the host's owner gives you "
            "(`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub` there)",
            host=h.name,
            target=h.target,
        ),
    ),
    (
        ("Permission denied", "Too many authentication failures"),
        lambda h, e: msg(
            "{host}: authentication refused (a password is never asked for): set up a key with "
            "`ssh-keygen -t ed25519` and `ssh-copy-id {target}`, or add your key to the ssh agent (`ssh-add`)",
            host=h.name,
            target=h.target,
        ),
    ),
    (
        ("closed by remote host", "Connection reset", "Broken pipe", "not responding", "Connection closed"),
        lambda h, e: msg("{host}: the connection was lost ({said})", host=h.name, said=_tail(e)),
    ),
)


def failure(host: Host, code: int, stderr: str, connected: bool = False) -> Message | None:
    """One line naming what ssh could not do, with what to do; None when ssh itself did not fail.
    `connected`: the command had started there, so a failure without a message is a lost connection."""
    if code != SSH_FAILED:
        return None
    for needles, line in _KINDS:
        if any(n in stderr for n in needles):
            return line(host, stderr)
    if connected:
        return msg(
            "{host}: the connection was lost ({said}); the host is down or the network dropped",
            host=host.name,
            said=_tail(stderr),
        )
    return msg("{host}: unreachable ({said})", host=host.name, said=_tail(stderr))


def remote_path(path: str) -> str:
    """A path there as a shell word: ~/x and relative paths are in the login's home, nothing is expanded."""
    return sh_quote(path[2:] if path.startswith("~/") else path)


def python_words(host: Host) -> str:
    """The shell words that start the host's Python: its venv activated first, or its interpreter."""
    if host.venv:
        return f". {remote_path(host.venv.rstrip('/') + '/bin/activate')} && exec python"
    return f"exec {remote_path(host.python)}"
