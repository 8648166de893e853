"""``remora review``: list, show, accept, reject, through typer's runner and main()."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from queued_change import queue_new_file
from typer.testing import CliRunner

import remora.review
from remora.cli import app
from remora.cli.app import main
from remora.cli.output import console
from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

runner = CliRunner()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("import os\nA = 1\n")
    (root / "pkg" / "b.py").write_text("B = 1\n")
    store = WorkspaceStore(root)
    with store.create("lint", "n1") as ws:
        ws.write("pkg/a.py", b"A = 1\n")
    with store.create("docstring", "n2") as ws:
        ws.write("pkg/b.py", b'"""B."""\nB = 1\n')
    store.create("test", "n3").close()  # nothing changed: not listed
    with ResultsDB(root) as db:
        run_id = db.start_run("analyze", {})
        for op, node_id, summary in (
            ("lint", "n1", "removed unused import"),
            ("docstring", "n2", "added a module docstring"),
        ):
            db.record_result(
                run_id,
                {"node_id": node_id, "full_name": f"mod_{node_id}", "file_path": "pkg/a.py"},
                op,
                {
                    "status": "success",
                    "workspace_id": f"{op}-{node_id}",
                    "changed_files": ["pkg/a.py"],
                    "summary": summary,
                },
            )
    return root


def review(project: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["review", *args, "--project", str(project)])
    return result.exit_code, result.stdout, result.stderr


def states(project: Path) -> dict[str, str]:
    with ResultsDB(project) as db:
        return {r.workspace_id or "": r.review_state for r in db.list()}


def test_plain_review_lists_pending(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "width", 200)  # no wrapping inside the summary column
    code, out, _ = review(project)
    assert code == 0
    assert "lint-n1" in out and "removed unused import" in out and "mod_n1" in out
    assert "docstring-n2" in out and "+1 -0" in out and "+0 -1" in out
    assert "test-n3" not in out


def test_list_as_json(project: Path) -> None:
    code, out, _ = review(project, "--format", "json")
    assert code == 0
    items = {item["id"]: item for item in json.loads(out)}
    assert set(items) == {"docstring-n2", "lint-n1"}
    assert items["lint-n1"]["additions"] == 0 and items["lint-n1"]["deletions"] == 1
    assert items["lint-n1"]["state"] == "pending"
    assert items["lint-n1"]["changed_files"] == ["pkg/a.py"]
    code, out, _ = review(project, "list", "--format", "json", "--include-empty")
    assert {item["id"] for item in json.loads(out)} == {"docstring-n2", "lint-n1", "test-n3"}


def test_show_prints_the_plain_diff_off_a_terminal(project: Path) -> None:
    code, out, _ = review(project, "show", "lint-n1")
    assert code == 0
    assert out == (
        "diff --git a/pkg/a.py b/pkg/a.py\n--- a/pkg/a.py\n+++ b/pkg/a.py\n"
        "@@ -1,2 +1 @@\n-import os\n A = 1\n"
    )
    assert "\x1b[" not in out
    code, out, _ = review(project, "show", "test-n3")
    assert code == 0 and "no changes" in out


def test_show_prints_emoji_codes_and_brackets_as_they_are(project: Path) -> None:
    # A test of an emoji library expects ``demojize("Python is 👍") == "Python is
    # :thumbs_up:"``; rich's console turned the code into the emoji, so the diff shown (and
    # piped to `git apply`) said ``== "Python is 👍"``, a test that fails.
    line = 'assert demojize("Python is 👍") == "Python is :thumbs_up:"  # [bold]\n'
    with WorkspaceStore(project).create("test", "n4") as ws:
        ws.write("pkg/b.py", b"B = 1\n" + line.encode())
    code, out, _ = review(project, "show", "test-n4")
    assert code == 0 and f"+{line}" in out, out


def test_show_says_which_other_pending_changes_create_the_same_file(project: Path) -> None:
    # Blind reviewers of two projects: "several changes each create tests/test_core.py".
    for node_id in ("n5", "n6"):
        queue_new_file(project, "tests/test_a.py", f"def test_{node_id}():\n    pass\n", node_id)
    code, out, err = review(project, "show", "test-n5")
    assert code == 0 and out.startswith("diff --git"), out
    assert "tests/test_a.py is created by 1 other pending change(s) too (test-n6)" in err
    code, out, _ = review(project, "show", "test-n5", "--format", "json")
    assert json.loads(out)["shared"] == {"tests/test_a.py": ["test-n6"]}
    assert json.loads(review(project, "show", "lint-n1", "--format", "json")[1])["shared"] == {}
    # The library reads the queue for it only when asked: a loop over the queue does not.
    assert remora.review.show("test-n5", project=project).shared == {}
    assert remora.review.show("test-n5", project=project, shared=True).shared == {
        "tests/test_a.py": ["test-n6"]
    }


def test_accept_writes_and_records(project: Path) -> None:
    code, out, _ = review(project, "accept", "lint-n1")
    assert code == 0, out
    assert "accepted lint-n1: 1 written" in out
    assert (project / "pkg" / "a.py").read_text() == "A = 1\n"
    assert states(project)["lint-n1"] == "accepted"
    assert WorkspaceStore(project).ids() == ["docstring-n2", "test-n3"]


def test_accept_conflict_prints_per_file_and_exits_1(project: Path) -> None:
    user = '"""Bees."""\nB = 1\n'  # a docstring of the user's, where the agent put its own
    (project / "pkg" / "b.py").write_text(user)
    code, out, err = review(project, "accept", "docstring-n2", "lint-n1")
    assert code == 1
    assert (
        "pkg/b.py: line 1 changed in the project since the agent read it, and by this change" in err
    )
    assert "accepted lint-n1" in out
    assert (project / "pkg" / "b.py").read_text() == user
    assert states(project) == {"docstring-n2": "conflict", "lint-n1": "accepted"}
    code, out, _ = review(project, "--format", "json")
    assert [item["state"] for item in json.loads(out)] == ["conflict"]


def test_accept_all_as_json(project: Path) -> None:
    code, out, _ = review(project, "accept", "--all", "--format", "json")
    assert code == 0
    reports = json.loads(out)
    assert [r["workspace_id"] for r in reports] == ["docstring-n2", "lint-n1", "test-n3"]
    assert all(r["accepted"] for r in reports)
    assert WorkspaceStore(project).ids() == []


def test_reject_and_reject_all(project: Path) -> None:
    before = {p: p.read_bytes() for p in (project / "pkg").iterdir()}
    code, out, _ = review(project, "reject", "lint-n1")
    assert code == 0 and "rejected lint-n1" in out
    assert states(project)["lint-n1"] == "rejected"
    code, _, _ = review(project, "reject", "--all")
    assert code == 0
    assert WorkspaceStore(project).ids() == []
    assert {p: p.read_bytes() for p in (project / "pkg").iterdir()} == before
    code, out, _ = review(project)
    assert "Nothing to review" in out


def test_options_before_the_subcommand_count(project: Path) -> None:
    result = runner.invoke(app, ["review", "--project", str(project), "show", "lint-n1"])
    assert result.exit_code == 0 and "-import os" in result.stdout


def run_main(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["remora", *args])
    with pytest.raises(SystemExit) as info:
        main()
    code = info.value.code
    return (code if isinstance(code, int) else 0), capsys.readouterr().err


def test_unknown_id_is_workspace_003_exit_2(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for command in ("accept", "reject", "show"):
        code, err = run_main(
            monkeypatch, capsys, "review", command, "lint-nope", "--project", str(project)
        )
        assert code == 2
        assert "WORKSPACE_003" in err and "lint-nope" in err
    # an unknown id among known ones: nothing is accepted
    code, _ = run_main(
        monkeypatch, capsys, "review", "accept", "lint-n1", "lint-nope", "--project", str(project)
    )
    assert code == 2
    assert (project / "pkg" / "a.py").read_text() == "import os\nA = 1\n"


def test_usage_errors_exit_2(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run_main(monkeypatch, capsys, "review", "accept", "--project", str(project))
    assert code == 2 and "no workspace given" in err
    code, err = run_main(
        monkeypatch, capsys, "review", "reject", "lint-n1", "--all", "--project", str(project)
    )
    assert code == 2 and "not both" in err


def test_conflict_exit_code_through_main(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pkg" / "a.py").write_text("user\n")
    code, err = run_main(
        monkeypatch, capsys, "review", "accept", "lint-n1", "--project", str(project)
    )
    assert code == 1 and "conflict" in err


def test_show_colours_on_a_terminal(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from remora.cli import review_cmd

    buffer = io.StringIO()
    monkeypatch.setattr(
        review_cmd, "console", Console(file=buffer, force_terminal=True, color_system="standard")
    )
    code, _, _ = review(project, "show", "lint-n1")
    assert code == 0
    coloured = buffer.getvalue()
    assert "\x1b[31m-import os" in coloured  # deletions red
    assert "\x1b[36m@@ -1,2 +1 @@" in coloured  # hunk headers cyan
