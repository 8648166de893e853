"""Red team, ``remora serve`` (issue 54): page numbers that ``str.isdigit()`` accepts but
``int()`` does not, a number past ``int()``'s 4,300 digits, and change ids that are no
workspace id are answered with a page (the queue, or a 404), never a 500. Shown by hand:
``curl --path-as-is "http://127.0.0.1:PORT/change/..?token=TOKEN"``."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from red_team_support import CHANGE_ID, make_project
from starlette.testclient import TestClient

from remora.web import Credentials, create_app

TOKEN = "red-team-token-0123456789"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    root = make_project(tmp_path / "shop")
    test_client = TestClient(
        create_app(root, Credentials(TOKEN, 8765)),
        base_url="http://127.0.0.1:8765",
        raise_server_exceptions=False,
    )
    assert test_client.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
    return test_client


@pytest.mark.parametrize("page", ["²", "①", "٣", "9" * 4301, "-5", "0", "1e9", "", " 2"])
def test_a_page_number_that_is_no_number_shows_the_queue(client: TestClient, page: str) -> None:
    answer = client.get("/", params={"page": page})
    assert answer.status_code == 200, answer.text[:300]
    assert CHANGE_ID in answer.text


async def _raw_get(app: Any, path: str) -> tuple[int, str]:
    """GET ``path`` exactly as written (``..`` kept, as ``curl --path-as-is`` sends it):
    an HTTP client would normalise it away."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": unquote(path),
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8765"), (b"authorization", f"Bearer {TOKEN}".encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8765),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body.decode()


@pytest.mark.parametrize(
    "key", ["..", "%00", "%2e%2e", "a" * 300, "lint-unknown", "lint-n1.db", "-x", "%0a", "."]
)
async def test_an_unknown_or_malformed_change_id_is_a_404_page(
    client: TestClient, key: str
) -> None:
    status, text = await _raw_get(client.app, f"/change/{key}")
    assert status == 404, text[:300]
    assert "Back to the queue" in text and "Traceback" not in text
