"""Accept: conflicts stop everything, writes are atomic, a killed accept resumes."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from workspace_kit import snapshot

from remora.errors import WORKSPACE_CONFLICT, RemoraError
from remora.workspace import WorkspaceStore


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    for i in range(40):
        (root / "src" / f"m{i:02}.py").write_bytes(f"VALUE = {i}\n".encode())
    (root / "run.sh").write_text("#!/bin/sh\necho hi\n")
    os.chmod(root / "run.sh", 0o755)
    return root


def test_accept_writes_changes_and_removes_the_workspace(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "a")
    ws.write("src/m00.py", b"VALUE = 100\n")
    ws.write("run.sh", b"#!/bin/sh\necho bye\n")
    ws.write("new/deep/file.py", b"NEW = 1\n")
    ws.delete("src/m01.py")
    ws.close()
    report = store.accept("lint-a")
    assert report.accepted and not report.conflicts and not report.resumed
    assert report.written == ["new/deep/file.py", "run.sh", "src/m00.py"]
    assert report.deleted == ["src/m01.py"]
    assert (project / "src" / "m00.py").read_bytes() == b"VALUE = 100\n"
    assert (project / "new" / "deep" / "file.py").read_bytes() == b"NEW = 1\n"
    assert not (project / "src" / "m01.py").exists()
    # the executable bit of a replaced file survives
    assert stat.S_IMODE(os.stat(project / "run.sh").st_mode) == 0o755
    assert store.ids() == []
    assert not any(".remora-" in p.name for p in project.rglob("*"))


@pytest.mark.parametrize(
    "user_action, reason",
    [
        ("edit", "line 1 changed in the project since the agent read it, and by this change"),
        ("remove", "deleted from the project since the agent read it"),
        ("create", "line 1 created in the project since the agent started"),
        ("edit_deleted", "changed in the project since the agent read it"),
    ],
)
def test_a_conflict_writes_nothing(project: Path, user_action: str, reason: str) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "c")
    for i in range(2, 10):  # non-conflicting changes that must not be written either
        ws.write(f"src/m{i:02}.py", b"CHANGED = True\n")
    ws.write("src/m00.py", b"VALUE = 'agent'\n")
    ws.write("added.txt", b"AGENT = 1\n")  # not Python: two creations are not joined
    ws.delete("src/m01.py")
    ws.close()
    target = {
        "edit": "src/m00.py",
        "remove": "src/m00.py",
        "create": "added.txt",
        "edit_deleted": "src/m01.py",
    }[user_action]
    if user_action == "remove":
        (project / target).unlink()
    else:
        (project / target).write_bytes(b"USER = 1\n")
    before = snapshot(project)
    report = store.accept("lint-c")
    assert not report.accepted
    assert [(c.path, c.reason) for c in report.conflicts] == [(target, reason)]
    assert report.written == [] and report.deleted == []
    assert snapshot(project) == before
    assert store.ids() == ["lint-c"]  # kept, so the user can resolve and retry
    # resolving the conflict (undoing the user's change) lets the accept through
    if user_action == "remove":
        (project / target).write_bytes(b"VALUE = 0\n")
    elif user_action == "create":
        (project / target).unlink()
    else:
        (project / target).write_bytes(b"VALUE = 0\n" if target == "src/m00.py" else b"VALUE = 1\n")
    assert store.accept("lint-c").accepted


def test_the_same_change_made_by_the_user_is_no_conflict(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "same")
    ws.write("src/m03.py", b"VALUE = 33\n")
    ws.close()
    (project / "src" / "m03.py").write_bytes(b"VALUE = 33\n")
    report = store.accept("lint-same")
    assert report.accepted and report.written == []


def test_an_empty_workspace_accepts_to_nothing(project: Path) -> None:
    store = WorkspaceStore(project)
    store.create("lint", "empty").close()
    before = snapshot(project)
    assert store.accept("lint-empty").accepted
    assert snapshot(project) == before and store.ids() == []


def test_new_files_get_the_default_mode(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("test", "mode")
    ws.write("tests/test_new.py", b"def test(): pass\n")
    ws.close()
    store.accept("test-mode")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(project / "tests" / "test_new.py").st_mode) == 0o666 & ~umask


_KILLER = """
import os, signal, sys
from pathlib import Path
import remora.workspace.accept as accept
from remora.workspace import WorkspaceStore

root, workspace_id, stage, index = sys.argv[1:]

def hook(at_stage: str, at_index: int, path: str) -> None:
    if at_stage == stage and at_index == int(index):
        os.kill(os.getpid(), signal.SIGKILL)

accept.STEP_HOOK = hook
WorkspaceStore(Path(root)).accept(workspace_id)
print("not killed")
"""


def _prepare(project: Path) -> tuple[dict[str, bytes], dict[str, bytes | None]]:
    """A workspace changing 40 files; returns (old snapshot, planned content)."""
    store = WorkspaceStore(project)
    ws = store.create("lint", "kill")
    planned: dict[str, bytes | None] = {}
    for i in range(30):
        # large enough that a torn write would show
        data = (f"VALUE = {i * 1000}\n" * 5000).encode()
        ws.write(f"src/m{i:02}.py", data)
        planned[f"src/m{i:02}.py"] = data
    for i in range(30, 35):
        ws.delete(f"src/m{i:02}.py")
        planned[f"src/m{i:02}.py"] = None
    for i in range(5):
        data = bytes(range(256)) * (i + 1)
        ws.write(f"gen/d{i}/blob.bin", data)
        planned[f"gen/d{i}/blob.bin"] = data
    ws.close()
    return snapshot(project), planned


@pytest.mark.parametrize(
    "stage, index",
    [
        ("temp_written", 0),
        ("replaced", 0),
        ("temp_written", 17),
        ("replaced", 33),
        ("replaced", 39),
    ],
)
def test_accept_killed_halfway_then_resumed(project: Path, stage: str, index: int) -> None:
    old, planned = _prepare(project)
    proc = subprocess.run(
        [sys.executable, "-c", _KILLER, str(project), "lint-kill", stage, str(index)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert "not killed" not in proc.stdout

    # every file is either old or new, none half-written
    middle = snapshot(project)
    temps = [p for p in middle if ".remora-" in p]
    assert len(temps) <= 1
    new_count = 0
    for rel, new in planned.items():
        now = middle.get(rel)
        assert now in (old.get(rel), new), rel
        new_count += now == new and now != old.get(rel)
    assert new_count == index + (stage == "replaced")
    for rel, data in old.items():
        if rel not in planned:
            assert middle[rel] == data

    store = WorkspaceStore(project)
    assert store.interrupted() == ["lint-kill"]
    with store.open("lint-kill") as ws, pytest.raises(RemoraError) as info:
        ws.write("src/m00.py", b"too late\n")
    assert info.value.code == WORKSPACE_CONFLICT
    # a new run of the node gets a workspace of its own, the interrupted one stays
    rerun = store.create("lint", "kill")
    assert rerun.id != "lint-kill"
    rerun.close()
    store.reject(rerun.id)

    report = store.accept("lint-kill")  # resumed in this process
    assert report.accepted and report.resumed
    expected = {rel: data for rel, data in old.items() if planned.get(rel, data) is not None}
    expected.update({rel: data for rel, data in planned.items() if data is not None})
    assert snapshot(project) == expected
    assert store.ids() == []


def test_a_file_where_a_new_directory_goes_is_a_conflict(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("test", "dir")
    ws.write("tests/unit/test_a.py", b"def test(): pass\n")
    ws.close()
    (project / "tests").write_text("user made a file here\n")
    report = store.accept("test-dir")
    assert not report.accepted
    assert [(c.path, c.reason) for c in report.conflicts] == [
        ("tests/unit/test_a.py", "tests is now a file, not a directory")
    ]


def test_a_long_file_name_is_accepted(project: Path) -> None:
    name = "x" * 240 + ".py"
    store = WorkspaceStore(project)
    ws = store.create("lint", "long")
    ws.write(name, b"LONG = 1\n")
    ws.close()
    assert store.accept("lint-long").accepted
    assert (project / name).read_bytes() == b"LONG = 1\n"


def test_resume_refuses_a_symlink_swapped_in_after_the_crash(project: Path, tmp_path: Path) -> None:
    _prepare(project)
    proc = subprocess.run(
        [sys.executable, "-c", _KILLER, str(project), "lint-kill", "replaced", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(project / "src")
    os.symlink(outside, project / "src")
    report = WorkspaceStore(project).accept("lint-kill")
    assert not report.accepted and report.resumed
    refused = {c.path for c in report.conflicts if "symlink" in c.reason}
    assert refused == {f"src/m{i:02}.py" for i in range(35)}
    assert list(outside.iterdir()) == []
    # not stuck: the journal is gone, the unwritten files stay for a reject
    store = WorkspaceStore(project)
    assert store.interrupted() == []
    store.reject("lint-kill")
    assert store.ids() == []
