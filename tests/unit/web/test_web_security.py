"""The review server refuses what does not carry the token, a known Host, or the CSRF token."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TOKEN
from starlette.testclient import TestClient

from remora.web import Credentials, create_app
from remora.workspace import WorkspaceStore


def fresh(project: Path, credentials: Credentials) -> TestClient:
    return TestClient(create_app(project, credentials), base_url="http://127.0.0.1:8765")


@pytest.mark.parametrize(
    "path", ["/", "/runs", "/change/lint-n1", "/api/runs", "/static/remora.js"]
)
def test_without_the_token_every_page_is_refused(
    project: Path, credentials: Credentials, path: str
) -> None:
    response = fresh(project, credentials).get(path)
    assert response.status_code == 403
    assert "needs the token" in response.text
    assert "lint-n1" not in response.text


def test_a_wrong_token_is_refused(project: Path, credentials: Credentials) -> None:
    client = fresh(project, credentials)
    assert client.get("/?token=wrong").status_code == 403
    client.cookies.set(credentials.cookie_name, "wrong")
    assert client.get("/").status_code == 403


def test_the_token_once_becomes_a_strict_httponly_cookie_and_leaves_the_url(
    project: Path, credentials: Credentials
) -> None:
    client = fresh(project, credentials)
    first = client.get(f"/runs?token={TOKEN}&x=1", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/runs?x=1"
    cookie = first.headers["set-cookie"]
    assert cookie.startswith(f"{credentials.cookie_name}={TOKEN}")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    page = client.get("/")
    assert page.status_code == 200 and "lint-n1" in page.text
    assert TOKEN not in page.text  # the page never shows the secret itself


def test_a_bearer_token_works_for_scripts(project: Path, credentials: Credentials) -> None:
    response = fresh(project, credentials).get(
        "/api/runs", headers={"Authorization": f"Bearer {TOKEN}"}
    )
    assert response.status_code == 200 and response.json()["runs"]


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1.evil.example", "attacker:8765", ""])
def test_an_unexpected_host_header_is_refused_even_with_the_token(
    client: TestClient, host: str
) -> None:
    response = client.get("/", headers={"Host": host})
    assert response.status_code == 400 and "Host" in response.text


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "localhost"])
def test_loopback_host_names_are_accepted(client: TestClient, host: str) -> None:
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_a_remote_host_is_only_what_was_allowed(project: Path) -> None:
    credentials = Credentials(TOKEN, 8765, ("127.0.0.1", "192.168.1.5"))
    client = fresh(project, credentials)
    ok = client.get(f"/?token={TOKEN}", headers={"Host": "192.168.1.5:8765"})
    assert ok.status_code == 200
    assert client.get("/", headers={"Host": "192.168.1.6:8765"}).status_code == 400


def test_a_post_without_the_csrf_token_changes_nothing(client: TestClient, project: Path) -> None:
    response = client.post("/change/lint-n1/reject", data={"reason": "no"})
    assert response.status_code == 403 and "CSRF" in response.text
    wrong = client.post("/change/lint-n1/accept", data={"csrf_token": "nope", "mode": "all"})
    assert wrong.status_code == 403
    assert WorkspaceStore(project).exists("lint-n1")


def test_a_cross_origin_post_is_refused_even_with_csrf(
    client: TestClient, credentials: Credentials, project: Path
) -> None:
    for origin in ("http://evil.example", "null"):
        response = client.post(
            "/change/lint-n1/accept",
            data={"csrf_token": credentials.csrf_token, "mode": "all"},
            headers={"Origin": origin},
        )
        assert response.status_code == 403
    assert WorkspaceStore(project).exists("lint-n1")


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_only_get_and_post_are_served(client: TestClient, method: str) -> None:
    assert client.request(method, "/change/lint-n1/accept").status_code == 405


def test_pages_forbid_framing_and_foreign_scripts(client: TestClient) -> None:
    headers = client.get("/").headers
    assert headers["x-frame-options"] == "DENY"
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "same-origin"
