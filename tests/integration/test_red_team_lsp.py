"""Red team, ``remora lsp`` (issue 54), over raw stdio: requests an editor's client library
would refuse to send. Every request gets an answer (an undeserializable one an
InvalidParams error, not silence), no traceback reaches the client, and a damaged
``remora.db`` is one message with its hint."""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from lsp_support import REMORA, make_project

pytestmark = pytest.mark.integration


class RawClient:
    """JSON-RPC over the server's stdin and stdout, frames written by hand."""

    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(
            [REMORA, "lsp"],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._buffer = b""
        self.seen: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def answer(self, msg_id: int, timeout: float = 30.0) -> dict[str, Any]:
        """The response to request ``msg_id``; fails the test when none comes in time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.seen:
                if message.get("id") == msg_id and "method" not in message:
                    return message
            self._read(deadline - time.monotonic())
        raise AssertionError(f"no answer to request {msg_id} in {timeout} s: {self.seen}")

    def _read(self, wait: float) -> None:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, min(wait, 0.2)))
        if ready:
            self._buffer += os.read(self.proc.stdout.fileno(), 65536)
        while b"\r\n\r\n" in self._buffer:
            head, rest = self._buffer.split(b"\r\n\r\n", 1)
            length = int(head.split(b"\r\n")[0].split(b":")[1])
            if len(rest) < length:
                return
            self.seen.append(json.loads(rest[:length]))
            self._buffer = rest[length:]

    def start(self, root: Path) -> None:
        self.send(
            {
                "id": 0,
                "method": "initialize",
                "params": {"processId": None, "rootUri": root.as_uri(), "capabilities": {}},
            }
        )
        self.answer(0)
        self.send({"method": "initialized", "params": {}})

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    make_project(tmp_path / "shop")
    return tmp_path / "shop"


@pytest.fixture
def client(project: Path) -> Any:
    raw = RawClient(project)
    raw.start(project)
    yield raw
    raw.close()


def _hover(uri: str, line: int, character: int = 0) -> dict[str, Any]:
    return {
        "method": "textDocument/hover",
        "params": {
            "textDocument": {"uri": uri},
            "position": {"line": line, "character": character},
        },
    }


def _no_traceback(client: RawClient) -> None:
    text = json.dumps(client.seen)
    assert "Traceback" not in text and '"traceback"' not in text, text


@pytest.mark.parametrize("line", [-1, 2**31, 2**40])
def test_a_position_that_cannot_be_read_is_answered_invalid_params(
    client: RawClient, project: Path, line: int
) -> None:
    client.send({"id": 1, **_hover((project / "pkg" / "shop.py").as_uri(), line)})
    error = client.answer(1)["error"]
    assert error["code"] == -32602 and "textDocument/hover" in error["message"]
    client.send({"id": 2, **_hover((project / "pkg" / "shop.py").as_uri(), 0, -5)})
    assert client.answer(2)["error"]["code"] == -32602
    _no_traceback(client)


def test_a_hover_on_a_document_never_opened_is_answered_without_a_traceback(
    client: RawClient, project: Path
) -> None:
    for msg_id, path in enumerate(("pkg/shop.py", "pkg/never.py", "gone/x.py"), start=1):
        client.send({"id": msg_id, **_hover((project / path).as_uri(), 0)})
        assert client.answer(msg_id).get("result") is None
    _no_traceback(client)


def test_a_damaged_database_is_one_message_with_its_hint(project: Path) -> None:
    database = project / ".remora" / "remora.db"
    for side in ("-wal", "-shm"):
        database.with_name(database.name + side).unlink(missing_ok=True)
    database.write_bytes(os.urandom(40_000))
    client = RawClient(project)
    try:
        client.start(project)
        uri = (project / "pkg" / "shop.py").as_uri()
        text = (project / "pkg" / "shop.py").read_text()
        client.send(
            {
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}
                },
            }
        )
        client.send({"id": 1, **_hover(uri, 0)})
        error = client.answer(1)["error"]
        assert str(database) in error["message"] and ".remora.damaged" in error["message"]
        shown = [
            m["params"]["message"] for m in client.seen if m.get("method") == "window/showMessage"
        ]
        assert len(shown) == 1 and str(database) in shown[0] and "hint:" in shown[0]
        _no_traceback(client)
    finally:
        client.close()
