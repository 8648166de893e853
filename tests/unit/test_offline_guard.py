"""The unit-test switch: network beyond loopback and real model loads fail loudly."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from offline_guard import OfflineGuard, OfflineViolation

UNIT_DIR = Path(__file__).parent


def test_a_connection_beyond_loopback_is_refused_and_recorded(
    offline_guard: OfflineGuard,
) -> None:
    with (
        socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock,
        pytest.raises(OfflineViolation, match=r"192\.0\.2\.1"),
    ):
        sock.connect(("192.0.2.1", 443))  # TEST-NET-1: never routed
    with pytest.raises(OfflineViolation, match=r"name lookup of 'pypi\.org'"):
        socket.getaddrinfo("pypi.org", 443)
    assert len(offline_guard.violations) == 2
    offline_guard.violations.clear()  # seen and expected: do not fail this test


def test_loopback_servers_still_work() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        accepted: list[bytes] = []

        def serve() -> None:
            conn, _ = server.accept()
            with conn:
                accepted.append(conn.recv(5))

        thread = threading.Thread(target=serve)
        thread.start()
        with socket.create_connection(("localhost", port), timeout=5) as client:
            client.sendall(b"hello")
        thread.join(timeout=5)
    assert accepted == [b"hello"]


def test_a_model_load_is_refused(offline_guard: OfflineGuard) -> None:
    import xllamacpp

    with pytest.raises(OfflineViolation, match="model load"):
        xllamacpp.Server(xllamacpp.CommonParams())
    offline_guard.violations.clear()


def test_child_processes_cannot_reach_the_network() -> None:
    fetch = "import urllib.request; urllib.request.urlopen('http://example.com', timeout=5)"
    proc = subprocess.run(
        [sys.executable, "-c", fetch], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode != 0
    assert "Connection refused" in proc.stderr, proc.stderr


def test_a_swallowed_violation_still_fails_the_test(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(UNIT_DIR)!r})\n"
        "import pytest\n"
        "from offline_guard import offline\n\n"
        "@pytest.fixture(autouse=True)\n"
        "def guard(monkeypatch):\n"
        "    with offline(monkeypatch) as g:\n"
        "        yield g\n"
    )
    (tmp_path / "test_swallow.py").write_text(
        "import socket\n\n"
        "def test_swallows():\n"
        "    try:\n"
        "        socket.create_connection(('192.0.2.1', 80), timeout=1)\n"
        "    except Exception:\n"
        "        pass\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 1, proc.stdout
    assert "1 passed, 1 error" in proc.stdout
    assert "unit tests run offline" in proc.stdout
