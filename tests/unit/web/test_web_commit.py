"""Accept as a git commit from the change page, as `remora review accept --commit` does."""

from __future__ import annotations

import subprocess
from pathlib import Path

from starlette.testclient import TestClient
from three_hunks import NEW

from remora.web import Credentials


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.email=dev@example.invalid", "-c", "user.name=Dev", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def _repository(root: Path) -> None:
    (root / ".gitignore").write_text(".remora/\n")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "start")


def test_accept_as_a_commit_commits_exactly_the_changes_files(
    client: TestClient, project: Path
) -> None:
    _repository(project)
    (project / "notes.txt").write_text("mine\n")
    _git(project, "add", "notes.txt")  # staged work of the user's own stays staged
    page = client.get("/change/lint-n1").text
    assert 'id="accept-commit"' in page
    credentials: Credentials = client.app.state.site.credentials  # type: ignore[attr-defined]
    response = client.post(
        "/change/lint-n1/accept",
        data={"csrf_token": credentials.csrf_token, "mode": "all", "commit": "yes"},
        follow_redirects=False,
    )
    assert response.status_code == 303 and "done=committed" in response.headers["location"]
    assert (project / "m.py").read_text() == NEW
    assert _git(project, "show", "--name-only", "--format=", "HEAD").split() == ["m.py"]
    assert "Co-authored-by: Remora" in _git(project, "log", "-1", "--format=%B")
    assert _git(project, "status", "--porcelain").splitlines() == ["A  notes.txt"]
    queue = client.get(response.headers["location"]).text
    assert "and committed it as" in queue


def test_without_a_repository_the_page_offers_no_commit(client: TestClient) -> None:
    assert 'id="accept-commit"' not in client.get("/change/lint-n1").text
