"""Task addresses: "host:port" split and checked, host names safe in a start script, loopback."""

from __future__ import annotations

import ipaddress
import re

from engine.core.messages import msg

_LABEL = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
_SHELL_UNSAFE = set(" \t\n\r'\"`$;&|<>()\\*?!#~{}[]^%,=")


def parse_address(address: str) -> tuple[str, int]:
    """Split "host:port" or "[ipv6]:port"; ValueError says what is wrong."""
    if address.startswith("["):
        host, sep, port = address[1:].partition("]:")
        if not sep:
            raise ValueError(msg('write an IPv6 address as "[::1]:2222"'))
    else:
        host, sep, port = address.rpartition(":")
        if not sep:
            raise ValueError(msg('needs a port, e.g. "127.0.0.1:2222"'))
        if ":" in host:
            raise ValueError(msg('put an IPv6 address in brackets, e.g. "[::1]:2222"'))
    if not port.isdigit() or not port.isascii():
        raise ValueError(msg("port {port!r} is not a number; use 1-65535", port=port))
    return host, int(port)


def host_problem(host: str) -> str | None:
    """Why `host` is not a safe host name or address, or None when it is."""
    unsafe = sorted({c for c in host if c in _SHELL_UNSAFE or not c.isprintable()})
    if not host:
        return msg("the host is empty; use a machine name or an IP address")
    if unsafe:
        return msg(
            "the host contains {characters}, which is not allowed in a host name and unsafe in a start "
            "script; use a machine name or an IP address",
            characters=" ".join(repr(c) for c in unsafe),
        )
    if ":" in host:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return msg("not a valid IPv6 address")
        return None
    labels = host.rstrip(".").split(".")
    if all(label.isdigit() for label in labels):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return msg("not a valid IPv4 address (four numbers 0-255, e.g. 10.0.0.5)")
        return None
    if len(host) > 253 or not all(_LABEL.match(label) for label in labels):
        return msg(
            "not a valid host name: letters, digits and '-' in dot-separated parts of at most "
            "63 characters, not starting or ending with '-'"
        )
    return None


def is_loopback(host: str) -> bool:
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
