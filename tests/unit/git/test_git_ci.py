"""``remora ci``: the changed nodes, the agents, the review exported and posted to a stand-in."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from git_repos import Repo, remora, use_plain_git
from github_types import strict
from githubkit_schemas.latest.models import (
    PullRequestReview,
    ReposOwnerRepoPullsPullNumberReviewsPostBody,
)
from pending_changes import shop_repo

from remora.cli.ci_cmd import check_head, ci_base_ref, pull_number
from remora.errors import UsageError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
RESPONSE = (FIXTURES / "github" / "create_review_response.json").read_bytes()


class GitHubStandIn:
    """GitHub's API on 127.0.0.1: records each request, answers with the recorded review."""

    def __init__(self, status: int = 200, answer: bytes = RESPONSE) -> None:
        self.requests: list[dict[str, Any]] = []
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                stand_in.requests.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": json.loads(self.rfile.read(length)),
                    }
                )
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(autouse=True)
def _plain_git(monkeypatch: pytest.MonkeyPatch) -> None:
    use_plain_git(monkeypatch)


@pytest.fixture
def github() -> Iterator[GitHubStandIn]:
    server = GitHubStandIn()
    yield server
    server.close()


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """A pull request that added an unused import to util.py (the lint agent removes it)."""
    repo = shop_repo(tmp_path / "shop")
    repo.write("turns.yaml", "[]\n")  # the lint agent's host steps need no model turn
    repo.write(
        "remora.yaml",
        f"model:\n  provider: scripted\n  id: scripted\n  path: {repo.root / 'turns.yaml'}\n"
        "sandbox:\n  max_concurrent_agents: 1\n",
    )
    repo.write(".gitignore", ".remora/\nremora-review.*\n")
    repo.commit("remora set-up")
    repo.git("update-ref", "refs/remotes/origin/main", "main")  # as a CI checkout has it
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("pkg/util.py", "import os\n\n\ndef helper(value):\n    return value + value\n")
    repo.commit("feature")
    return repo


def ci_env(repo: Repo, tmp_path: Path, token: str) -> dict[str, str]:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"action": "opened", "pull_request": {"number": 12}}))
    return {
        "GITHUB_TOKEN": token,
        "GITHUB_BASE_REF": "main",
        "GITHUB_REPOSITORY": "octocat/Hello-World",
        "GITHUB_EVENT_PATH": str(event),
    }


def test_ci_posts_one_review_with_the_suggestion(
    repo: Repo, tmp_path: Path, github: GitHubStandIn
) -> None:
    PullRequestReview.model_validate_json(RESPONSE)  # the stand-in answers in GitHub's shape
    env = ci_env(repo, tmp_path, "t0ken")
    code, out = remora(repo.root, "ci", "-o", "lint", "--api-url", github.url, env=env)
    assert code == 0, out
    assert "the work tree against" in out and "function helper (pkg/util.py:4-5)" in out
    assert "file pkg/shop.py" not in out  # not changed by the pull request: not run
    [request] = github.requests
    assert request["path"] == "/repos/octocat/Hello-World/pulls/12/reviews"
    headers = request["headers"]
    assert headers["authorization"] == "Bearer t0ken"
    assert headers["accept"] == "application/vnd.github+json"
    assert headers["x-github-api-version"] == "2022-11-28"
    body = request["body"]
    strict(ReposOwnerRepoPullsPullNumberReviewsPostBody, body)
    assert body == json.loads((repo.root / "remora-review.json").read_text())
    [comment] = body["comments"]
    # the unused import's line and the blank lines after it, at the top of the file: removed
    assert (comment["path"], comment.get("start_line"), comment["line"]) == ("pkg/util.py", 1, 3)
    assert "```suggestion\n```" in comment["body"]
    assert "posted review 80 to https://github.com/octocat/Hello-World/pull/12" in out


def test_ci_without_a_token_only_writes_the_file_and_an_error_answer_is_clear(
    repo: Repo, tmp_path: Path
) -> None:
    env = ci_env(repo, tmp_path, "")
    code, out = remora(repo.root, "ci", "-o", "lint", "--output", "out.json", env=env)
    assert code == 0, out
    assert "not posted: no GITHUB_TOKEN" in out
    assert json.loads((repo.root / "out.json").read_text())["event"] == "COMMENT"
    refusing = GitHubStandIn(422, b'{"message": "Unprocessable Entity", "errors": ["Line 9"]}')
    try:
        env = ci_env(repo, tmp_path, "t0ken")
        code, out = remora(repo.root, "ci", "-o", "lint", "--api-url", refusing.url, env=env)
    finally:
        refusing.close()
    assert code == 2
    assert "GitHub answered 422 to the review for octocat/Hello-World#12" in out
    assert "Unprocessable Entity" in out


def test_the_pull_request_is_read_from_the_ci_variables(tmp_path: Path) -> None:
    assert ci_base_ref({"GITHUB_BASE_REF": "main"}) == "origin/main"
    assert ci_base_ref({"CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "dev"}) == "origin/dev"
    assert ci_base_ref({}) is None
    event = tmp_path / "event.json"
    event.write_text('{"number": 7, "pull_request": {"number": 7}}')
    assert pull_number({"GITHUB_EVENT_PATH": str(event)}) == 7
    assert pull_number({"GITHUB_REF": "refs/pull/31/merge"}) == 31
    assert pull_number({"GITHUB_REF": "refs/heads/main"}) is None


def test_a_merge_commit_checked_out_instead_of_the_head_is_refused(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 3, "head": {"sha": "a" * 40}}}))
    env = {"GITHUB_EVENT_PATH": str(event)}
    check_head(env, "a" * 40)
    check_head({}, "b" * 40)  # not in GitHub Actions: nothing to compare with
    with pytest.raises(UsageError, match="is not the pull request's head") as caught:
        check_head(env, "b" * 40)
    assert "github.event.pull_request.head.sha" in caught.value.hint
