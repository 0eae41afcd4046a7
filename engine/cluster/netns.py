"""A local cluster that no one else can reach: the launcher moves itself into a private network namespace.

TensorFlow's gRPC server listens on every interface whatever TF_CONFIG says
(`*:port`), and it authenticates no one and executes the graphs it is sent.
A local cluster only needs loopback, so on Linux the launcher, first thing
and while it still runs a single thread, calls unshare(2) for a new network
namespace (as root) or a new user and network namespace (unprivileged, with
identity uid/gid maps so files and processes keep their owner), and brings
its loopback interface up. The workers it starts inherit the namespace: their
ports exist on no interface of the machine, and a connection from outside is
refused. The pipes to the window (stdin, stdout) are inherited descriptors
and keep working, and pids stay the machine's (no pid namespace).

The same recipe first runs in a forked child (a probe), because a step after
unshare() can fail (e.g. the uid map under Ubuntu's AppArmor rule) and would
leave the launcher itself stranded with loopback down. When isolation is
impossible (another OS, a seccomp filter, namespaces disabled, the opt-out
TFDD_NO_PRIVATE_NETWORK=1), `Isolation.reason` says why, once.

Python 3.11 has no os.unshare (3.12 added it), hence ctypes. unshare with
CLONE_NEWUSER fails with EINVAL in a multi-threaded process, and CLONE_NEWNET
would move only the calling thread: this must run before any thread starts
(reading stdin, NumPy's BLAS threads, TensorFlow).
"""

from __future__ import annotations

import errno
import os
import socket
import struct
import sys
import time
from dataclasses import dataclass

from engine.core.messages import msg

CLONE_NEWNET, CLONE_NEWUSER = 0x40000000, 0x10000000
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
DISABLE_ENV = "TFDD_NO_PRIVATE_NETWORK"
"""Set to 1 to keep a local cluster's workers on the machine's network (to attach a profiler to a port)."""
PROBE_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class Isolation:
    """Whether this process (and so every worker it starts) is in a private network namespace."""

    isolated: bool
    how: str = ""  # "netns" (root) or "userns+netns"
    reason: str = ""  # why not: one line for people

    def message(self) -> str:
        """What the launcher says once: where the workers' ports are, and what to do when they are exposed."""
        if self.isolated:
            return msg(
                "The workers run in a private network namespace: their ports exist on no interface of this "
                "machine, so no one else can reach TensorFlow's unauthenticated servers."
            )
        return msg(
            "The workers' ports can be reached from other machines: {reason}. TensorFlow's gRPC servers "
            "listen on every interface and accept anyone (no authentication); on an untrusted network, block "
            "the ports with a firewall.",
            reason=self.reason,
        )


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return None


def diagnose() -> str:
    """A known reason why namespaces are unavailable, from sysctls ('' if none): only makes a message specific."""
    if _read("/proc/sys/user/max_user_namespaces") == "0":
        return "user namespaces are disabled (sysctl user.max_user_namespaces = 0)"
    if _read("/proc/sys/user/max_net_namespaces") == "0":
        return "network namespaces are disabled (sysctl user.max_net_namespaces = 0)"
    if os.geteuid() != 0:
        if _read("/proc/sys/kernel/unprivileged_userns_clone") == "0":  # a Debian/Ubuntu kernel patch
            return "unprivileged user namespaces are disabled (sysctl kernel.unprivileged_userns_clone = 0)"
        if _read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1":  # Ubuntu >= 23.10
            return (
                "AppArmor restricts unprivileged user namespaces "
                "(sysctl kernel.apparmor_restrict_unprivileged_userns = 1)"
            )
    return ""


def _unshare(flags: int) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(ctypes.c_int(flags)) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


def _loopback_up() -> None:
    import fcntl

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = fcntl.ioctl(s.fileno(), SIOCGIFFLAGS, struct.pack("16sH14x", b"lo", 0))
        flags = struct.unpack("16sH14x", request)[1]
        fcntl.ioctl(s.fileno(), SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def _enter() -> str:
    """Irreversible: this process and its future children get a network with loopback only."""
    uid, gid = os.geteuid(), os.getegid()
    if uid == 0:
        try:
            _unshare(CLONE_NEWNET)
            _loopback_up()
            return "netns"
        except PermissionError:
            pass  # root without CAP_SYS_ADMIN (a container): a user namespace may still work
    _unshare(CLONE_NEWUSER | CLONE_NEWNET)
    for path, text in (
        ("/proc/self/setgroups", "deny"),  # required before gid_map when unprivileged
        ("/proc/self/uid_map", f"{uid} {uid} 1\n"),  # identity maps: files and processes keep their owner
        ("/proc/self/gid_map", f"{gid} {gid} 1\n"),
    ):
        with open(path, "w", encoding="ascii") as f:
            f.write(text)
    _loopback_up()
    return "userns+netns"


def _describe(exc: OSError) -> str:
    why = {
        errno.EPERM: "not permitted (a seccomp filter, e.g. a container's, or a security module)",
        errno.EACCES: "denied by a security module",
        errno.ENOSPC: "the namespace limit is reached (user.max_user_namespaces or max_net_namespaces)",
        errno.EINVAL: "the process is multi-threaded or the kernel lacks namespace support",
        errno.ENOSYS: "the kernel has no unshare()",
    }.get(exc.errno or 0, exc.strerror or str(exc))
    return f"a private network namespace could not be created: {why}"


def _probe() -> str:
    """The whole recipe in a forked child, up to a connection on 127.0.0.1: '' when it works, else why not."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report through the pipe and leave without any Python clean-up
        os.close(read_end)
        try:
            _enter()
            with socket.socket() as server:
                server.bind(("127.0.0.1", 0))
                server.listen()
                socket.create_connection(server.getsockname(), timeout=1).close()
            report = b"OK"
        except OSError as exc:
            report = _describe(exc).encode()
        except BaseException as exc:  # noqa: BLE001 - anything else is a reason too
            report = f"a private network namespace could not be created: {exc!r}".encode()
        os.write(write_end, report)
        os._exit(0)
    os.close(write_end)
    try:
        deadline = time.monotonic() + PROBE_TIMEOUT_S
        done = 0
        while not done and time.monotonic() < deadline:
            done, _ = os.waitpid(pid, os.WNOHANG)
            if not done:
                time.sleep(0.002)
        if not done:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return "a private network namespace could not be created: the probe did not finish in time"
        report = os.read(read_end, 4096).decode(errors="replace")
    finally:
        os.close(read_end)
    return "" if report == "OK" else report or "a private network namespace could not be created: the probe failed"


def can_isolate() -> str:
    """'' when this machine can give a launcher a private network, else why not (forks a probe; ~10 ms)."""
    if not sys.platform.startswith("linux"):
        return "private network namespaces exist only on Linux"
    failure = _probe()
    if failure:
        hint = diagnose()
        return f"{failure}; {hint}" if hint else failure
    return ""


def isolate_network() -> Isolation:
    """Move this process into a private network namespace if possible; call it before any thread starts."""
    if not sys.platform.startswith("linux"):
        return Isolation(False, reason="private network namespaces exist only on Linux")
    if os.environ.get(DISABLE_ENV):
        return Isolation(False, reason=f"the private network was turned off ({DISABLE_ENV} is set)")
    threads = len(os.listdir("/proc/self/task"))
    if threads > 1:  # a bug in the caller, not the machine: unshare must come before any thread
        return Isolation(False, reason=f"the launcher already runs {threads} threads, too late to isolate it")
    failure = can_isolate()
    if failure:
        return Isolation(False, reason=failure)
    try:
        return Isolation(True, how=_enter())
    except OSError as exc:  # the probe just worked: unexpected
        return Isolation(False, reason=_describe(exc))
