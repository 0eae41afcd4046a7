"""A real OpenSSH server for the tests: two hosts on loopback (127.0.0.2, 127.0.0.3), keys made for the test.

`SshServer.start(folder)` generates a host key and a client key in `folder`,
starts `sshd -D` on a free port listening on both addresses only, and writes
a client config (aliases h2 and h3, the test's key, a known_hosts with the
server's key) that the code under test is given with --ssh-config. The
hosts' Python is a small script running this interpreter with this checkout
on PYTHONPATH (sshd passes no environment), so the "remote" tasks run the
code under test.
"""

from __future__ import annotations

import contextlib
import getpass
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from engine.core.hosts import Host
from tests.repo import REPO

SSHD = shutil.which("sshd") or ("/usr/sbin/sshd" if Path("/usr/sbin/sshd").is_file() else None)
HOSTS = {"h2": "127.0.0.2", "h3": "127.0.0.3"}
START_TIMEOUT_S = 10.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.2", 0))
        return s.getsockname()[1]


def _keygen(path: Path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path.with_suffix(".pub").read_text().strip()


@dataclass
class SshServer:
    folder: Path
    port: int
    process: subprocess.Popen[bytes]
    config: Path  # the client's ssh config: aliases h2, h3
    python: Path  # the hosts' Python: this interpreter with this checkout

    @classmethod
    def start(cls, folder: Path) -> SshServer:
        folder.mkdir(parents=True, exist_ok=True)
        host_key = _keygen(folder / "host_key")
        client_key = _keygen(folder / "client_key")
        (folder / "authorized_keys").write_text(client_key + "\n")
        port = _free_port()
        sshd_config = folder / "sshd_config"
        sshd_config.write_text(
            f"Port {port}\nListenAddress 127.0.0.2\nListenAddress 127.0.0.3\nHostKey {folder / 'host_key'}\n"
            f"PidFile {folder / 'sshd.pid'}\nAuthorizedKeysFile {folder / 'authorized_keys'}\n"
            "PermitRootLogin prohibit-password\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n"
            "KbdInteractiveAuthentication no\nPubkeyAuthentication yes\nLogLevel ERROR\n"
        )
        (folder / "known_hosts").write_text("".join(f"[{a}]:{port} {host_key}\n" for a in HOSTS.values()))
        config = folder / "ssh_config"
        config.write_text(cls.client_config(folder, port, folder / "known_hosts"))
        python = folder / "python"
        python.write_text(f'#!/bin/sh\nPYTHONPATH={REPO} exec {sys.executable} "$@"\n')
        python.chmod(0o755)
        with contextlib.suppress(PermissionError):  # sshd's privilege separation folder (its service makes it)
            Path("/run/sshd").mkdir(exist_ok=True)
        with open(folder / "sshd.log", "ab") as log:
            process = subprocess.Popen([SSHD, "-D", "-e", "-f", str(sshd_config)], stderr=log)
        server = cls(folder, port, process, config, python)
        server._wait_listening()
        return server

    @staticmethod
    def client_config(folder: Path, port: int, known_hosts: Path) -> str:
        aliases = "".join(f"Host {alias}\n  HostName {address}\n" for alias, address in HOSTS.items())
        return (
            f"{aliases}Host *\n  Port {port}\n  User {getpass.getuser()}\n"
            f"  IdentityFile {folder / 'client_key'}\n  IdentitiesOnly yes\n  UserKnownHostsFile {known_hosts}\n"
            "  GlobalKnownHostsFile /dev/null\n"
        )

    def _wait_listening(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"sshd ended: {(self.folder / 'sshd.log').read_text()}")
            try:
                socket.create_connection(("127.0.0.3", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("sshd did not listen")

    def host(self, alias: str, **options: str) -> Host:
        """A host row for `alias`, its tasks' folders in this server's folder, its Python the test's."""
        settings = {"python": str(self.python), "folder": str(self.folder / f"remote-{alias}"), **options}
        return Host(alias, **settings)  # type: ignore[arg-type]

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)


def session_pids(server: SshServer) -> list[int]:
    """The server's per-connection processes (its children)."""
    return [int(p) for p in _children(server.process.pid)]


def sshd_processes(server: SshServer) -> list[int]:
    """Every sshd process serving a connection (the server's descendants named sshd): freezing them is a
    host that stops answering with its connections still open."""
    found, todo = [], [str(server.process.pid)]
    while todo:
        for child in _children(int(todo.pop())):
            todo.append(child)
            try:
                if Path(f"/proc/{child}/comm").read_text().strip().startswith("sshd"):
                    found.append(int(child))
            except OSError:
                continue
    return found


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


def remote_processes(server: SshServer) -> list[int]:
    """Processes whose command line names a folder of the server's hosts (the tasks there, their ssh here)."""
    folder = str(server.folder / "remote-")
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if folder in text:
            found.append(int(cmdline.parent.name))
    return found
