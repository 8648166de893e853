"""The results database on real sqlite: runs, results, review states, versions."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from remora.discovery.node import CSTNode, make_node_id
from remora.errors import WORKSPACE_NOT_FOUND, RemoraError
from remora.results import SCHEMA_VERSION, ResultsDB
from remora.results import db as db_module


def node(name: str = "Outer.method") -> CSTNode:
    return CSTNode(
        node_id=make_node_id("pkg/mod.py", name, "method"),
        node_type="method",
        name=name.rsplit(".", 1)[-1],
        full_name=name,
        file_path="pkg/mod.py",
        start_byte=0,
        end_byte=10,
        start_line=1,
        end_line=2,
        text="def m(): ...",
    )


def result(**overrides: object) -> dict[str, object]:
    base: dict[str, object] = {
        "status": "success",
        "workspace_id": "lint-1",
        "changed_files": ["pkg/mod.py"],
        "summary": "removed an unused import",
        "details": {"rules": ["F401"]},
        "error": None,
        "turns": 3,
        "usage": {"prompt_tokens": 120, "completion_tokens": 30},
        "duration_s": 1.25,
        "degraded": False,
    }
    base.update(overrides)
    return base


def test_run_and_result_round_trip(tmp_path: Path) -> None:
    db = ResultsDB(tmp_path)
    assert db.path == tmp_path / ".remora" / "remora.db"
    run_id = db.start_run("analyze", {"operations": ["lint"]})
    rid = db.record_result(run_id, node(), "lint", result())
    db.finish_run(run_id)
    db.close()

    again = ResultsDB(tmp_path)  # a later process sees everything
    [run] = again.runs()
    assert run.run_id == run_id and run.command == "analyze"
    assert run.config == {"operations": ["lint"]} and run.finished is not None
    record = again.get(rid)
    assert record is not None
    assert record.node_name == "Outer.method" and record.file_path == "pkg/mod.py"
    assert record.node_id == node().node_id
    assert record.details == {"rules": ["F401"]}
    assert record.usage["prompt_tokens"] == 120
    assert record.changed_files == ["pkg/mod.py"]
    assert record.review_state == "pending" and record.degraded is False
    assert record.error_code is None
    assert again.get("lint-1") == record  # by workspace id too
    assert [r.result_id for r in again.pending()] == [rid]


def test_details_are_read_back_by_id_a_chunk_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_module, "_IDS_PER_QUERY", 2)  # five ids: three queries
    with ResultsDB(tmp_path) as db:
        run_id = db.start_run("analyze")
        ids = [
            db.record_result(run_id, node(f"f{i}"), "lint", result(details={"index": i}))
            for i in range(5)
        ]
        found = db.details([*ids, "no-such-result"])
    assert found == {rid: {"index": i} for i, rid in enumerate(ids)}


def test_failures_and_unchanged_results_need_no_review(tmp_path: Path) -> None:
    db = ResultsDB(tmp_path)
    run_id = db.start_run("analyze", {})
    failed = db.record_result(
        run_id,
        {"node_id": "n", "name": "f", "file_path": "a.py"},
        "lint",
        result(
            status="failed",
            changed_files=[],
            degraded=True,
            error={"code": "AGENT_003", "message": "turn limit"},
            workspace_id="lint-2",
        ),
    )
    record = db.get(failed)
    assert record is not None
    assert record.review_state == "none" and record.degraded
    assert (record.error_code, record.error_message) == ("AGENT_003", "turn limit")
    assert record.node_name == "f"
    assert db.pending() == []


def test_review_states_and_supersession(tmp_path: Path) -> None:
    db = ResultsDB(tmp_path)
    first_run = db.start_run("analyze", {})
    old = db.record_result(first_run, node(), "lint", result())
    second_run = db.start_run("analyze", {})
    new = db.record_result(second_run, node(), "lint", result(summary="second try"))
    old_record, new_record = db.get(old), db.get(new)
    assert old_record is not None and new_record is not None
    assert old_record.review_state == "superseded"
    assert db.get("lint-1") == new_record
    assert db.set_review_state("lint-1", "conflict") == 1
    assert [r.result_id for r in db.pending()] == [new]
    db.set_review_state(new, "accepted")
    assert db.pending() == []
    assert [r.result_id for r in db.list(states=["accepted"])] == [new]
    assert [r.result_id for r in db.list(run_id=first_run)] == [old]
    with pytest.raises(RemoraError) as info:
        db.set_review_state("lint-unknown", "rejected")
    assert info.value.code == WORKSPACE_NOT_FOUND
    with pytest.raises(ValueError):
        db.set_review_state(new, "maybe")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        db.list(states=["maybe"])


def test_schema_version_is_set_and_newer_is_refused(tmp_path: Path) -> None:
    ResultsDB(tmp_path).close()
    path = tmp_path / ".remora" / "remora.db"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(RemoraError, match="newer Remora"):
        ResultsDB(tmp_path)


def test_concurrent_writers(tmp_path: Path) -> None:
    # two connections (as two processes would have) and several threads
    dbs = [ResultsDB(tmp_path), ResultsDB(tmp_path)]
    run_id = dbs[0].start_run("analyze", {})
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(25):
                dbs[n % 2].record_result(
                    run_id,
                    {"node_id": f"{n}-{i}", "name": "f", "file_path": "a.py"},
                    "lint",
                    result(workspace_id=f"lint-{n}-{i}"),
                )
        except BaseException as exc:  # re-raised by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(dbs[1].list(run_id=run_id)) == 100


def test_latest_result_of_a_node_operation_carries_its_fingerprint(tmp_path: Path) -> None:
    with ResultsDB(tmp_path) as db:
        run = db.start_run("analyze")
        assert db.latest(node().node_id, "lint") is None
        db.record_result(run, node(), "lint", result(), fingerprint="f1")
        newer = db.record_result(run, node(), "lint", result(workspace_id="lint-2"))
        db.record_result(run, node(), "docstring", result(workspace_id="doc-1"), fingerprint="d")
        latest = db.latest(node().node_id, "lint")
        assert latest is not None and latest.result_id == newer
        assert latest.fingerprint is None
        assert [r.fingerprint for r in db.history(node().node_id, "lint")] == [None, "f1"]


def test_an_analyze_commits_without_waiting_for_the_disk_and_review_does(tmp_path: Path) -> None:
    with ResultsDB(tmp_path, durable=False) as recording, ResultsDB(tmp_path) as reviewing:
        levels = [
            db._conn.execute("PRAGMA synchronous").fetchone()[0] for db in (recording, reviewing)
        ]
        assert levels == [1, 2]  # NORMAL (WAL keeps it whole), FULL for a person's decisions
        run = recording.start_run("analyze")
        result_id = recording.record_result(run, node(), "lint", result())
        assert reviewing.get(result_id) is not None  # committed: seen by another connection
