"""``review export``: GitHub and GitLab reviews, one patch, SARIF; on real repositories."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from git_repos import Repo, remora, use_plain_git
from github_types import strict
from githubkit_schemas.latest.models import (
    ReposOwnerRepoPullsPullNumberReviewsPostBody,
)
from pending_changes import DOC, add_changes, shop_repo

from remora.delivery.export import export_queue
from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(autouse=True)
def _plain_git(monkeypatch: pytest.MonkeyPatch) -> None:
    use_plain_git(monkeypatch)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """A pull request's branch that edited helper, and three changes waiting for review."""
    repo = shop_repo(tmp_path / "shop")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("pkg/util.py", "def helper(value):\n    return value + value\n")
    repo.commit("feature: helper adds")
    add_changes(repo.root)
    return repo


def apply_suggestion(text: str, start: int, end: int, suggestion: str) -> str:
    lines = text.splitlines(keepends=True)
    lines[start - 1 : end] = suggestion.splitlines(keepends=True)
    return "".join(lines)


def test_github_body_puts_suggestions_on_the_diff_and_the_rest_in_the_body(repo: Repo) -> None:
    body = json.loads(export_queue(repo.root, "github").text)
    strict(ReposOwnerRepoPullsPullNumberReviewsPostBody, body)
    assert body["commit_id"] == repo.git("rev-parse", "HEAD") and body["event"] == "COMMENT"
    [comment] = body["comments"]  # the docstring: on the lines the pull request changed
    assert (comment["path"], comment["line"], comment["side"]) == ("pkg/util.py", 1, "RIGHT")
    assert "start_line" not in comment
    assert "**Document helper (remora docstring)**" in comment["body"]
    block = comment["body"].split("```suggestion\n", 1)[1].rsplit("```", 1)[0]
    head = repo.git("show", "HEAD:pkg/util.py") + "\n"
    assert apply_suggestion(head, 1, 1, block) == head.replace("):\n", DOC, 1)
    # The lint fix is outside the diff, the tests a new file: both in the body, with patches.
    assert (
        "0 as suggestions" not in body["body"] and "1 as suggestions on the lines" in body["body"]
    )
    assert "patch (its lines are outside the pull request's diff)" in body["body"]
    assert "patch (a new file)" in body["body"]
    assert "+++ b/tests/test_util.py" in body["body"] and "-import os" in body["body"]


def test_a_suggestion_spanning_lines_has_a_start_line(repo: Repo) -> None:
    store = WorkspaceStore(repo.root)
    with store.create("lint", "n9") as ws:
        ws.write("pkg/util.py", b"def helper(value: int) -> int:\n    return 2 * value\n")
    with ResultsDB(repo.root) as db:
        run = db.start_run("analyze", {})
        db.record_result(
            run,
            {"node_id": "n9", "full_name": "helper", "file_path": "pkg/util.py"},
            "lint",
            {"status": "success", "workspace_id": "lint-n9", "changed_files": ["pkg/util.py"],
             "summary": "typed"},
        )  # fmt: skip
    body = json.loads(export_queue(repo.root, "github").text)
    strict(ReposOwnerRepoPullsPullNumberReviewsPostBody, body)
    spanning = [c for c in body["comments"] if "start_line" in c]
    assert [(c["start_line"], c["line"], c["start_side"]) for c in spanning] == [(1, 2, "RIGHT")]
    assert (
        "```suggestion\ndef helper(value: int) -> int:\n    return 2 * value\n```"
        in (spanning[0]["body"])
    )


def test_gitlab_discussions_use_its_suggestion_syntax(repo: Repo) -> None:
    data = json.loads(export_queue(repo.root, "gitlab").text)
    [discussion] = data["discussions"]
    position = discussion["position"]
    assert position["position_type"] == "text" and position["new_path"] == "pkg/util.py"
    assert position["new_line"] == 1
    assert position["old_line"] == 1  # an unchanged line of the diff: named on both sides
    assert position["head_sha"] == repo.git("rev-parse", "HEAD")
    assert position["base_sha"] == repo.git("merge-base", "HEAD", "main")
    assert "```suggestion:-0+0\ndef helper(value):\n" in discussion["body"]
    assert "2 below with their patches" in data["note"]["body"]


def test_the_patch_applies_with_git_apply_and_merges_changes_to_one_file(repo: Repo) -> None:
    store = WorkspaceStore(repo.root)
    shop = repo.read("pkg/shop.py")
    with store.create("docstring", "n4") as ws:  # a second change to shop.py, elsewhere
        ws.write("pkg/shop.py", shop.replace("prices):\n", 'prices):\n    """Sum."""\n').encode())
    with store.create("lint", "n5") as ws:  # overlaps the first lint change: left out
        ws.write("pkg/shop.py", shop.replace("import os\n", "import os  # noqa\n").encode())
    with ResultsDB(repo.root) as db:
        run = db.start_run("analyze", {})
        for op, node in (("docstring", "n4"), ("lint", "n5")):
            db.record_result(
                run,
                {"node_id": node, "full_name": "total", "file_path": "pkg/shop.py"},
                op,
                {"status": "success", "workspace_id": f"{op}-{node}",
                 "changed_files": ["pkg/shop.py"], "summary": "x"},
            )  # fmt: skip
    exported = export_queue(repo.root, "patch")
    [(left_out, why)] = exported.left_out
    assert left_out in {"lint-n1", "lint-n5"} and "overlap an earlier change" in why
    patch = repo.root / "remora.patch"
    patch.write_text(exported.text)
    repo.git("apply", "--check", str(patch))
    repo.git("apply", str(patch))
    assert '    """Sum."""\n' in repo.read("pkg/shop.py")
    assert repo.read("pkg/util.py").startswith('def helper(value):\n    """Twice the value."""')
    assert repo.read("tests/test_util.py").startswith("from pkg.util import helper")


def _apply_fix(text: str, replacements: list[dict[str, Any]]) -> str:
    for replacement in sorted(replacements, key=lambda r: -r["deletedRegion"]["charOffset"]):
        region = replacement["deletedRegion"]
        start, end = region["charOffset"], region["charOffset"] + region["charLength"]
        text = text[:start] + replacement["insertedContent"]["text"] + text[end:]
    return text


def test_sarif_validates_against_the_schema_and_its_fixes_give_the_change(repo: Repo) -> None:
    log = json.loads(export_queue(repo.root, "sarif").text)
    schema = json.loads((FIXTURES / "sarif" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(log)
    [run] = log["runs"]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} == {"docstring", "lint", "test"}
    by_rule = {r["ruleId"]: r for r in run["results"]}
    [change] = by_rule["docstring"]["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"] == {"uri": "pkg/util.py", "uriBaseId": "%SRCROOT%"}
    before = repo.read("pkg/util.py")
    assert _apply_fix(before, change["replacements"]) == before.replace("):\n", DOC, 1)
    location = by_rule["lint"]["locations"][0]["physicalLocation"]
    assert location["region"] == {"startLine": 1, "endLine": 3}


def test_export_on_the_command_line(repo: Repo) -> None:
    out_file = repo.root / "review.json"
    code, out = remora(repo.root, "review", "export", "--format", "github", "-o", str(out_file))
    assert code == 0, out
    assert "wrote 3 change(s)" in out and json.loads(out_file.read_text())["comments"]
    code, out = remora(repo.root, "review", "export", "--format", "patch")
    assert code == 0 and out.startswith("diff --git a/pkg/shop.py b/pkg/shop.py")
    checked = subprocess.run(
        ["git", "apply", "--check", "-"], cwd=repo.root, input=out, text=True, check=False
    )
    assert checked.returncode == 0
    code, out = remora(repo.root, "review", "export", "--format", "word")
    assert code == 2 and "'word' is not one of github, gitlab, patch, sarif" in out
