"""Red team, ``.remora/summaries.db`` (issue 54): the listing's cache is checked, never
trusted. A forged row (its stats kept, so it looks current) that shows a change to another
file, an accept no one started, or values of the wrong type is dropped and the workspace
read again. Shown by hand: edit a row's ``changed_files`` with ``sqlite3``, then
``remora review``."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from red_team_support import CHANGE_ID, make_project
from red_team_support import remora as run_remora

from remora.workspace import WorkspaceStore
from remora.workspace.summary_file import read_entries

HOUR_AGO = time.time() - 3600


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The shop with its change listed once, so summaries.db holds its row."""
    root = make_project(tmp_path / "shop")
    for path in (root / ".remora" / "workspaces" / f"{CHANGE_ID}.db", root / "pricing.py"):
        os.utime(path, (HOUR_AGO, HOUR_AGO))  # files of the last seconds are never kept
    [(_, summary)] = WorkspaceStore(root).summaries()
    assert summary.changed_files == ("pricing.py",)
    assert len(read_entries(root / ".remora" / "summaries.db")) == 1  # a true row is used
    return root


def _forge(root: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = root / ".remora" / "summaries.db"
    with sqlite3.connect(path) as conn:
        [(db, entry)] = conn.execute("SELECT db, entry FROM summaries").fetchall()
        data = json.loads(entry)
        change(data["summary"])
        conn.execute("UPDATE summaries SET entry=? WHERE db=?", (json.dumps(data), db))
    conn.close()


def _readme(summary: dict[str, Any]) -> None:
    summary.update(changed_files=["README.md"], additions=1, deletions=0)


def _accepting(summary: dict[str, Any]) -> None:
    summary["accepting"] = True


def _wrong_types(summary: dict[str, Any]) -> None:
    summary.update(additions="many", deletions=-3, node_id=["n1"])


@pytest.mark.parametrize("forge", [_readme, _accepting, _wrong_types])
def test_a_forged_row_is_dropped_never_shown(
    project: Path, forge: Callable[[dict[str, Any]], None]
) -> None:
    _forge(project, forge)
    assert read_entries(project / ".remora" / "summaries.db") == {}
    [(_, summary)] = WorkspaceStore(project).summaries()
    assert summary.changed_files == ("pricing.py",) and not summary.accepting
    assert (summary.additions, summary.deletions) == (1, 2)
    code, output = run_remora(project, "review", "--format", "json")
    assert code == 0
    [item] = json.loads(output)
    assert "README.md" not in output and "many" not in output
    assert item["changed_files"] == ["pricing.py"]


def test_accept_after_a_forged_row_writes_the_real_change(project: Path) -> None:
    _forge(project, _readme)
    code, _output = run_remora(project, "review", "accept", CHANGE_ID)
    assert code == 0
    assert (project / "pricing.py").read_text() == "def price(amount):\n    return amount\n"
    assert (project / "README.md").read_text() == "# Shop\n"
