"""Accept never loses an edit: per-file checks, resume checks, the project lock.

These run real processes: an accept killed with SIGKILL, two accepts at once,
a lock held by another process.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from workspace_kit import snapshot

import remora.workspace.accept as accept_module
from remora.workspace import WorkspacePathError, WorkspaceStore
from remora.workspace.lock import ProjectLocked, project_lock


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    for i in range(100):
        (root / "src" / f"m{i:02}.py").write_bytes(f"VALUE = {i}\n".encode())
    return root


def _change_all(store: WorkspaceStore, node: str, value: str) -> str:
    ws = store.create("lint", node)
    for i in range(100):
        ws.write(f"src/m{i:02}.py", f"VALUE = {value!r}\n".encode())
    ws.close()
    return ws.id


_KILLER = """
import os, signal, sys
from pathlib import Path
import remora.workspace.accept as accept
from remora.workspace import WorkspaceStore

root, workspace_id, index = sys.argv[1:]

def hook(stage: str, at: int, path: str) -> None:
    if stage == "replaced" and at == int(index):
        os.kill(os.getpid(), signal.SIGKILL)

accept.STEP_HOOK = hook
WorkspaceStore(Path(root)).accept(workspace_id)
"""


def test_edits_made_after_a_kill_survive_the_resume(project: Path) -> None:
    store = WorkspaceStore(project)
    workspace_id = _change_all(store, "kill", "agent")
    proc = subprocess.run(
        [sys.executable, "-c", _KILLER, str(project), workspace_id, "49"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    # the user edits one file the accept already wrote and one it had not reached
    (project / "src" / "m10.py").write_bytes(b"USER = 10\n")
    (project / "src" / "m80.py").write_bytes(b"USER = 80\n")
    report = store.accept(workspace_id)
    assert report.resumed and not report.accepted
    assert [(c.path, c.reason) for c in report.conflicts] == [
        ("src/m10.py", "changed in the project since the agent read it"),
        ("src/m80.py", "changed in the project since the agent read it"),
    ]
    assert (project / "src" / "m10.py").read_bytes() == b"USER = 10\n"
    assert (project / "src" / "m80.py").read_bytes() == b"USER = 80\n"
    assert (project / "src" / "m99.py").read_bytes() == b"VALUE = 'agent'\n"
    assert len(report.written) == 98
    # not stuck: only the two refused files remain, and reject discards them
    assert store.interrupted() == []
    with store.open(workspace_id) as ws:
        assert [path for path, _, _ in ws.overlay_rows()] == ["src/m10.py", "src/m80.py"]
    store.reject(workspace_id)
    assert store.ids() == []


def test_an_edit_made_while_the_accept_runs_is_kept(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = WorkspaceStore(project)
    workspace_id = _change_all(store, "live", "agent")

    def user_edits(stage: str, index: int, path: str) -> None:
        if stage == "replaced" and index == 20:
            (project / "src" / "m60.py").write_bytes(b"USER = 60\n")
        if stage == "temp_written" and path == "src/m70.py":
            # between the temp file and the rename: the last check catches it
            (project / "src" / "m70.py").write_bytes(b"USER = 70\n")

    monkeypatch.setattr(accept_module, "STEP_HOOK", user_edits)
    report = store.accept(workspace_id)
    assert not report.accepted
    assert [c.path for c in report.conflicts] == ["src/m60.py", "src/m70.py"]
    assert (project / "src" / "m60.py").read_bytes() == b"USER = 60\n"
    assert (project / "src" / "m70.py").read_bytes() == b"USER = 70\n"
    assert not any(".remora-" in p.name for p in project.rglob("*"))


_ACCEPTER = """
import json, sys
from pathlib import Path
from remora.workspace import WorkspaceStore

root, workspace_id, go = sys.argv[1:]
while not Path(go).exists():
    pass
report = WorkspaceStore(Path(root)).accept(workspace_id)
print(json.dumps(report.to_dict()))
"""


def test_two_accepts_at_once_lose_no_change(project: Path, tmp_path: Path) -> None:
    store = WorkspaceStore(project)
    first = _change_all(store, "one", "first")
    second = _change_all(store, "two", "second")
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _ACCEPTER, str(project), workspace_id, str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for workspace_id in (first, second)
    ]
    go.touch()
    outputs = [proc.communicate(timeout=120) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], outputs
    import json

    reports = [json.loads(out) for out, _ in outputs]
    winners = [r for r in reports if r["accepted"]]
    losers = [r for r in reports if not r["accepted"]]
    assert len(winners) == 1 and len(losers) == 1
    assert losers[0]["written"] == [] and len(losers[0]["conflicts"]) == 100
    value = "first" if winners[0]["workspace_id"] == first else "second"
    assert set(snapshot(project).values()) == {f"VALUE = {value!r}\n".encode()}
    assert store.ids() == [losers[0]["workspace_id"]]  # kept for the user to decide


_HOLDER = """
import sys, time
from pathlib import Path
from remora.workspace.lock import project_lock

with project_lock(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(60)
"""


def test_a_second_accept_waits_then_refuses(project: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(project)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(ProjectLocked, match=f"pid {holder.pid}"), project_lock(project, 0.3):
            pass
    finally:
        holder.kill()
        holder.wait()
    with project_lock(project, 5):  # a killed holder leaves no lock behind
        pass


def test_a_bad_path_is_refused_where_it_is_written(project: Path) -> None:
    ws = WorkspaceStore(project).create("lint", "deep")
    for bad in ("d/" * 1200 + "x.py", "a" * 256 + ".py", "x\x1b[2K.py", "src/\r.py"):
        with pytest.raises(WorkspacePathError):
            ws.write(bad, b"X = 1\n")
    ws.close()


def test_a_stored_bad_path_does_not_block_the_others(project: Path) -> None:
    """A workspace written by an older Remora may hold a path refused today."""
    store = WorkspaceStore(project)
    ws = store.create("lint", "old")
    ws.write("src/m00.py", b"VALUE = 'ok'\n")
    conn, lock = ws.connection()
    with lock:
        conn.execute(
            "INSERT INTO overlay(path, content, deleted) VALUES (?, ?, 0)",
            ("d/" * 1200 + "x.py", b"X = 1\n"),
        )
    ws.close()
    other = _change_all(store, "fine", "fine")
    report = store.accept(ws.id)
    assert not report.accepted and report.written == []
    assert "deeper than 32 folders" in report.conflicts[0].reason
    assert store.accept(other).accepted
    store.reject(ws.id)
    assert store.ids() == []


def test_a_full_disk_mid_accept_is_reported_and_not_stuck(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = WorkspaceStore(project)
    workspace_id = _change_all(store, "full", "agent")

    def disk_full(stage: str, index: int, path: str) -> None:
        if stage == "temp_written" and index >= 90:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(accept_module, "STEP_HOOK", disk_full)
    report = store.accept(workspace_id)
    assert not report.accepted and len(report.written) == 90
    assert {c.reason for c in report.conflicts} == {"could not be written: No space left on device"}
    monkeypatch.setattr(accept_module, "STEP_HOOK", None)
    assert store.interrupted() == []
    assert store.accept(workspace_id).accepted  # space freed: the rest goes in
    assert set(snapshot(project).values()) == {b"VALUE = 'agent'\n"}


def test_concurrent_runs_get_distinct_workspaces(project: Path) -> None:
    store = WorkspaceStore(project)
    first, second = store.create("lint", "n1"), store.create("lint", "n1")
    assert first.id != second.id
    first.write("src/m00.py", b"VALUE = 'first'\n")
    time.sleep(0.01)
    second.write("src/m00.py", b"VALUE = 'second'\n")
    assert store.retire_older(second.id) == []  # the first run is still going
    store.mark_finished(first)
    first.close()
    second.close()
    assert store.retire_older(second.id) == [first.id]
    assert store.ids() == [second.id]
