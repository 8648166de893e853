"""``remora review``: hunk numbers in show, ``accept --hunks``, ``reject --reason``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from three_hunks import NEW, OLD
from typer.testing import CliRunner

from remora.cli import review_cmd
from remora.cli.app import app
from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

runner = CliRunner()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "m.py").write_text(OLD)
    with WorkspaceStore(root).create("lint", "n1") as ws:
        ws.write("m.py", NEW.encode())
    with ResultsDB(root) as db:
        db.record_result(
            db.start_run("analyze", {}),
            {"node_id": "n1", "full_name": "m.py", "file_path": "m.py"},
            "lint",
            {"status": "success", "workspace_id": "lint-n1", "changed_files": ["m.py"]},
        )
    return root


def review(project: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["review", *args, "--project", str(project)])
    # main() turns a RemoraError into its message; the runner hands it back as is
    error = "" if result.exception is None else str(result.exception)
    return result.exit_code, result.stdout + result.stderr + error


def test_show_labels_hunks_on_a_terminal_and_lists_them_in_json(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    buffer = io.StringIO()
    monkeypatch.setattr(review_cmd, "console", Console(file=buffer, force_terminal=True))
    assert review(project, "show", "lint-n1")[0] == 0
    shown = buffer.getvalue()
    assert all(f"[hunk {n}]" in shown for n in (1, 2, 3)) and "[hunk 4]" not in shown
    code, out = review(project, "show", "lint-n1", "--format", "json")
    assert code == 0
    hunks = json.loads(out)["hunks"]
    assert [(h["number"], h["additions"], h["deletions"]) for h in hunks] == [
        (1, 1, 1),
        (2, 0, 1),
        (3, 1, 0),
    ]


def test_accept_hunks_writes_exactly_those_and_records_them(project: Path) -> None:
    code, out = review(project, "accept", "lint-n1", "--hunks", "1,3")
    assert code == 0, out
    expected = OLD.replace("x1 = 1\n", "x1 = 100\n").replace("x28 = 28\n", "x28 = 28\ny = 0\n")
    assert (project / "m.py").read_bytes() == expected.encode()
    with ResultsDB(project) as db:
        record = db.list()[0]
    assert record.review_state == "accepted" and record.accepted_hunks == [1, 3]
    assert not WorkspaceStore(project).exists("lint-n1")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("lint-n1", "--hunks", "4"), "has 3 hunk(s); no hunk 4"),
        (("lint-n1", "--hunks", "one"), "is not a hunk number"),
        (("--all", "--hunks", "1"), "(--hunks) needs exactly one workspace id"),
    ],
)
def test_bad_hunks_change_nothing(project: Path, args: tuple[str, ...], message: str) -> None:
    code, out = review(project, "accept", *args)
    assert code != 0 and message in " ".join(out.split())
    assert (project / "m.py").read_text() == OLD
    assert WorkspaceStore(project).exists("lint-n1")


def test_reject_with_a_reason_stores_reason_diff_and_signature(project: Path) -> None:
    code, out = review(project, "reject", "lint-n1", "--reason", "  keep x1 as it is  ")
    assert code == 0 and "rejected lint-n1" in out
    assert (project / "m.py").read_text() == OLD
    with ResultsDB(project) as db:
        record = db.list()[0]
        assert [r.result_id for r in db.open_rejections()] == [record.result_id]
    assert record.review_state == "rejected"
    assert record.reject_reason == "keep x1 as it is"
    assert record.rejected_diff is not None and "+x1 = 100" in record.rejected_diff
    assert record.change_signature is not None and len(record.change_signature) == 64
