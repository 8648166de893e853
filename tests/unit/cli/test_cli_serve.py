"""``remora serve`` options: loopback by default, another interface only when asked."""

from __future__ import annotations

import pytest

from remora.cli.serve_cmd import _listen, allowed_hosts
from remora.errors import UsageError
from remora.web import LOOPBACK_HOSTS


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_loopback_hosts_need_no_flag(host: str) -> None:
    assert allowed_hosts(host, allow_remote=False) == LOOPBACK_HOSTS


def test_another_interface_needs_allow_remote_and_is_then_the_only_extra_host() -> None:
    with pytest.raises(UsageError, match="would let other machines reach"):
        allowed_hosts("192.168.1.5", allow_remote=False)
    assert allowed_hosts("192.168.1.5", allow_remote=True) == (*LOOPBACK_HOSTS, "192.168.1.5")


@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_every_interface_is_refused_even_with_the_flag(host: str) -> None:
    with pytest.raises(UsageError, match="listens on every interface"):
        allowed_hosts(host, allow_remote=True)


def test_port_zero_listens_on_a_free_loopback_port() -> None:
    sock = _listen("127.0.0.1", 0)
    try:
        host, port = sock.getsockname()[:2]
        assert host == "127.0.0.1" and port > 0
        with pytest.raises(UsageError, match=f"cannot listen on 127.0.0.1:{port}"):
            _listen("127.0.0.1", port)
    finally:
        sock.close()
