"""Schema 2 and on: review decisions (reject reason, rejected change, accepted hunks) on results."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from remora.results import SCHEMA_VERSION, ResultsDB
from remora.results.schema import _MIGRATIONS

NODE = {"node_id": "n1", "full_name": "f", "file_path": "m.py"}
CHANGED = {"status": "success", "workspace_id": "lint-n1", "changed_files": ["m.py"]}


def test_a_version_1_database_gains_the_decision_columns_and_keeps_its_rows(
    tmp_path: Path,
) -> None:
    (tmp_path / ".remora").mkdir()
    conn = sqlite3.connect(tmp_path / ".remora" / "remora.db")
    conn.executescript(_MIGRATIONS[0])
    conn.execute("INSERT INTO runs VALUES ('r1', 1.0, 2.0, 'analyze', '{}')")
    conn.execute(
        "INSERT INTO results VALUES ('x1', 'r1', 'n1', 'f', 'm.py', 'lint', 'success', "
        "'lint-n1', 's', '{}', NULL, NULL, 1, '{}', 0.5, 0, '[\"m.py\"]', 'pending', 3.0)"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with ResultsDB(tmp_path) as db:
        record = db.get("x1")
        assert record is not None and record.reject_reason is None
        assert record.accepted_hunks is None
        db.set_review_state("x1", "rejected", reject_reason="no", change_signature="abc")
        assert db.open_rejections()[0].result_id == "x1"
    check = sqlite3.connect(tmp_path / ".remora" / "remora.db")
    assert check.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 2


def test_open_rejections_are_the_latest_result_of_their_node_and_operation(
    tmp_path: Path,
) -> None:
    with ResultsDB(tmp_path) as db:
        run = db.start_run("analyze")
        first = db.record_result(run, NODE, "lint", CHANGED)
        db.set_review_state(first, "rejected", reject_reason="keep it")
        other = db.record_result(run, {**NODE, "node_id": "n2"}, "lint", {"status": "success"})
        silent = db.record_result(run, {**NODE, "node_id": "n3"}, "lint", CHANGED)
        db.set_review_state(silent, "rejected")  # no reason: nothing to tell a retry
        assert [r.result_id for r in db.open_rejections()] == [first]
        db.record_result(run, NODE, "docstring", {"status": "success"})  # another operation
        assert [r.result_id for r in db.open_rejections()] == [first]
        retried = db.record_result(run, NODE, "lint", {"status": "success"})
        assert db.open_rejections() == []
        assert [r.result_id for r in db.history("n1", "lint")] == [retried, first]
        assert other


def test_an_accept_records_its_hunks_and_a_later_decision_replaces_them(tmp_path: Path) -> None:
    with ResultsDB(tmp_path) as db:
        result_id = db.record_result(db.start_run("analyze"), NODE, "lint", CHANGED)
        db.set_review_state("lint-n1", "conflict")
        db.set_review_state("lint-n1", "accepted", accepted_hunks=[3, 1])
        record = db.get(result_id)
        assert record is not None and record.accepted_hunks == [3, 1]
        assert record.review_state == "accepted"
