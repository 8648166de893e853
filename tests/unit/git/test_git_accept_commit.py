"""``review accept --commit``: each change a commit of exactly its files, on real repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from git_repos import Repo, remora, use_plain_git
from pending_changes import MODEL, SHOP, add_changes, shop_repo

from remora.delivery.commits import accept_as_commits
from remora.errors import GitError

TRAILER = f"Co-authored-by: Remora ({MODEL}) <remora@noreply.invalid>"


@pytest.fixture(autouse=True)
def _plain_git(monkeypatch: pytest.MonkeyPatch) -> None:
    use_plain_git(monkeypatch)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return shop_repo(tmp_path / "shop")


def test_one_commit_per_change_and_the_users_staged_work_stays_staged(repo: Repo) -> None:
    ids = add_changes(repo.root)
    repo.write("notes.py", "X = 1\n")
    repo.git("add", "notes.py")  # the user's own staged work, in another file
    outcomes = accept_as_commits(list(ids.values()), project=repo.root)
    assert [o.error for o in outcomes] == [None, None, None]
    assert repo.log() == [
        "Add tests for helper (remora test)",
        "Document helper (remora docstring)",
        "Fix lint findings in pkg/shop.py (remora lint)",
        "first",
    ]
    assert repo.status() == "A  notes.py"
    assert repo.git("show", "--name-only", "--format=", "HEAD") == "tests/test_util.py"
    assert repo.git("show", "--name-only", "--format=", "HEAD~2") == "pkg/shop.py"
    message = repo.git("log", "-1", "--format=%B", "HEAD")
    assert message.splitlines() == [
        "Add tests for helper (remora test)",
        "",
        "1 test for helper",
        "",
        "Checked: 1 tests passed, 0 failed (pytest); branches 0/0 -> 0/0, lines 0/1 -> 1/1.",
        "",
        "Remora-Change: test-n3",
        TRAILER,
    ]
    trailers = repo.git("log", "-1", "--format=%(trailers:key=Co-authored-by,valueonly)", "HEAD~2")
    assert trailers.strip() == TRAILER.split(": ", 1)[1]
    assert "Checked: no ruff finding left." in repo.git("log", "-1", "--format=%B", "HEAD~2")
    assert repo.read("pkg/shop.py") == SHOP.replace("import os\n\n\n", "")


def test_squash_makes_one_commit_of_every_change(repo: Repo) -> None:
    add_changes(repo.root)
    [outcome] = accept_as_commits(project=repo.root, every=True, squash=True)
    assert outcome.error is None and outcome.commit == repo.git("rev-parse", "HEAD")
    assert outcome.files == ["pkg/shop.py", "pkg/util.py", "tests/test_util.py"]
    message = repo.git("log", "-1", "--format=%B")
    assert message.startswith("Apply 3 Remora changes\n")
    assert "Document helper (remora docstring): documented helper" in message
    assert message.count("Remora-Change:") == 3 and message.count("Co-authored-by:") == 1
    assert repo.status() == ""


def test_a_file_with_the_users_own_edits_is_refused_and_named(repo: Repo) -> None:
    ids = add_changes(repo.root)
    repo.write("pkg/util.py", "def helper(value):\n    return value + value\n")
    repo.git("add", "pkg/util.py")
    repo.write("pkg/shop.py", SHOP + "\n# mine\n")  # edited, not staged
    outcomes = accept_as_commits(list(ids.values()), project=repo.root)
    errors = {o.workspace_ids[0]: o.error for o in outcomes}
    docstring, lint = errors["docstring-n2"], errors["lint-n1"]
    assert docstring is not None and lint is not None and errors["test-n3"] is None
    assert docstring.message.startswith("pkg/util.py has staged edits of your own")
    assert "git restore --staged pkg/util.py" in docstring.hint
    assert lint.message.startswith("pkg/shop.py has edits of your own that are not committed")
    assert repo.log()[0] == "Add tests for helper (remora test)"
    assert repo.read("pkg/util.py").endswith("value + value\n")  # nothing written there
    assert sorted(repo.status().splitlines()) == [" M pkg/shop.py", "M  pkg/util.py"]


def test_no_repository_and_a_detached_head_are_clear_errors(repo: Repo, tmp_path: Path) -> None:
    ids = add_changes(repo.root)
    repo.git("checkout", "-q", "--detach")
    with pytest.raises(GitError, match="HEAD is detached") as caught:
        accept_as_commits([ids["lint"]], project=repo.root)
    assert "git switch" in caught.value.hint
    assert repo.read("pkg/shop.py") == SHOP  # nothing written
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(GitError, match="not inside a git repository"):
        accept_as_commits(["x"], project=plain)


def test_accept_commit_on_the_command_line(repo: Repo) -> None:
    ids = add_changes(repo.root)
    code, out = remora(repo.root, "review", "accept", ids["docstring"], "--commit")
    assert code == 0, out
    assert out.startswith("committed ") and "Document helper (remora docstring)" in out
    repo.write("pkg/shop.py", SHOP + "\n# mine\n")
    repo.git("add", "pkg/shop.py")
    code, out = remora(repo.root, "review", "accept", ids["lint"], "--commit", "--format", "json")
    assert code == 1
    [item] = json.loads(out)
    assert item["commit"] is None and item["error"]["code"] == "WORKSPACE_001"
    repo.git("checkout", "-q", "--detach")
    code, out = remora(repo.root, "review", "accept", ids["test"], "--commit")
    assert code == 2 and "error[GIT_001]: HEAD is detached" in out
