"""The switch that keeps unit tests off the network and away from real models.

While installed, a connection to anything but this machine's loopback (IPv4,
IPv6 or a Unix socket), a name lookup of anything but a loopback name, and the
start of a llama.cpp model (``xllamacpp.Server``) raise :class:`OfflineViolation`
and are recorded, so a test fails even when the code under test swallows the
error. Child processes get proxy and pip settings that point at a closed
loopback port, so a ``pip download`` or an HTTP client in a subprocess fails
fast instead of reaching PyPI or a remote API.

HTTP doubles on 127.0.0.1 (``tests/unit/providers/providers_http_doubles.py``)
keep working: loopback is allowed.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

__all__ = ["OfflineGuard", "OfflineViolation"]

# A port nothing listens on (RFC 863 discard): connections are refused at once.
_DEAD_PROXY = "http://127.0.0.1:9"
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
_CHILD_ENV = {
    "http_proxy": _DEAD_PROXY,
    "https_proxy": _DEAD_PROXY,
    "all_proxy": _DEAD_PROXY,
    "HTTP_PROXY": _DEAD_PROXY,
    "HTTPS_PROXY": _DEAD_PROXY,
    "ALL_PROXY": _DEAD_PROXY,
    "no_proxy": "127.0.0.1,localhost,::1",
    "NO_PROXY": "127.0.0.1,localhost,::1",
    "PIP_INDEX_URL": _DEAD_PROXY + "/simple",
    "PIP_NO_INDEX": "1",
}


class OfflineViolation(AssertionError):
    """A unit test reached for the network or a real model."""


def _is_loopback_host(host: object) -> bool:
    if not isinstance(host, str):
        return False
    name = host.strip("[]").split("%", 1)[0].lower()
    if name in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class OfflineGuard:
    """Patches the socket and model entry points; ``violations`` lists what was refused."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.violations: list[str] = []

    def refuse(self, what: str) -> OfflineViolation:
        message = (
            f"unit tests run offline and without a model: {what}. Use an HTTP double on "
            "127.0.0.1 or a scripted provider, or move the test to tests/integration "
            "and mark it @pytest.mark.integration"
        )
        self.violations.append(message)
        return OfflineViolation(message)

    def install(self) -> None:
        real_connect = socket.socket.connect
        real_connect_ex = socket.socket.connect_ex
        real_getaddrinfo = socket.getaddrinfo
        guard = self

        def check(sock: socket.socket, address: Any) -> None:
            if sock.family == getattr(socket, "AF_UNIX", None):
                return
            host = address[0] if isinstance(address, tuple) and address else address
            if not _is_loopback_host(host):
                raise guard.refuse(f"connect to {address!r}")

        def connect(sock: socket.socket, address: Any) -> None:
            check(sock, address)
            real_connect(sock, address)

        def connect_ex(sock: socket.socket, address: Any) -> int:
            check(sock, address)
            return real_connect_ex(sock, address)

        def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
            if host is not None and not _is_loopback_host(
                host.decode() if isinstance(host, bytes) else host
            ):
                raise guard.refuse(f"name lookup of {host!r}")
            return real_getaddrinfo(host, *args, **kwargs)

        def model_server(*_args: Any, **_kwargs: Any) -> Any:
            raise guard.refuse("a llama.cpp model load (xllamacpp.Server)")

        self.monkeypatch.setattr(socket.socket, "connect", connect)
        self.monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
        self.monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
        self.monkeypatch.setattr("xllamacpp.Server", model_server)
        for name, value in _CHILD_ENV.items():
            self.monkeypatch.setenv(name, value)


@contextmanager
def offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[OfflineGuard]:
    """Install the guard for one test; fail the test if anything was refused."""
    guard = OfflineGuard(monkeypatch)
    guard.install()
    yield guard
    if guard.violations:
        pytest.fail("\n".join(guard.violations), pytrace=False)
