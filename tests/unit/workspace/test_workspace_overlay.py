"""The overlay: reads fall through, writes stay in sqlite, the merged view is right."""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
from pathlib import Path

import pytest
from workspace_kit import snapshot

from remora.errors import WORKSPACE_CONFLICT, WORKSPACE_NOT_FOUND, RemoraError
from remora.workspace import Workspace, WorkspaceStore
from remora.workspace.diff import change_stats


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "mod.py").write_text("def f():\n    return 1\n")
    (root / "pkg" / "sub" / "deep.py").write_text("X = 1\n")
    (root / "README.md").write_text("# proj\n")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "pkg" / "__pycache__").mkdir()
    (root / "pkg" / "__pycache__" / "mod.cpython-311.pyc").write_bytes(b"\x00junk")
    return root


@pytest.fixture
def ws(project: Path) -> Workspace:
    return WorkspaceStore(project).create("lint", "n1")


def test_reads_fall_through_and_nothing_is_copied(project: Path, ws: Workspace) -> None:
    assert ws.id == "lint-n1"
    assert ws.operation == "lint" and ws.node_id == "n1"
    assert ws.read("pkg/mod.py") == b"def f():\n    return 1\n"
    assert ws.read("./pkg//mod.py") == ws.read("pkg/mod.py")
    assert ws.read("missing.py") is None
    assert ws.read("pkg") is None
    assert ws.overlay_rows() == []
    assert ws.db_path == project / ".remora" / "workspaces" / "lint-n1.db"


def test_writes_stay_in_the_overlay(project: Path, ws: Workspace) -> None:
    before = snapshot(project)
    ws.write("pkg/mod.py", b"def f():\n    return 2\n")
    ws.write("pkg/new/added.py", b"Y = 2\n")
    ws.delete("README.md")
    assert snapshot(project) == before
    assert ws.read("pkg/mod.py") == b"def f():\n    return 2\n"
    assert ws.read("pkg/new/added.py") == b"Y = 2\n"
    assert ws.read("README.md") is None
    assert not ws.exists("README.md")
    assert ws.exists("pkg/new") and ws.is_dir("pkg/new") and not ws.is_dir("pkg/mod.py")
    assert ws.changed_files() == ["README.md", "pkg/mod.py", "pkg/new/added.py"]


def test_merged_listing(ws: Workspace) -> None:
    ws.write("pkg/new/added.py", b"")
    ws.write("top.txt", b"t")
    ws.delete("pkg/__init__.py")
    assert ws.list_dir() == ["README.md", "pkg/", "top.txt"]
    assert ws.list_dir("pkg") == ["mod.py", "new/", "sub/"]
    assert ws.list_dir("pkg/new") == ["added.py"]
    assert list(ws.iter_files()) == [
        "README.md",
        "pkg/mod.py",
        "pkg/new/added.py",
        "pkg/sub/deep.py",
        "top.txt",
    ]
    with pytest.raises(NotADirectoryError):
        ws.list_dir("README.md")
    with pytest.raises(FileNotFoundError):
        ws.list_dir("nope")


def test_same_content_as_base_is_not_a_change(ws: Workspace) -> None:
    original = ws.read("pkg/mod.py")
    assert original is not None
    ws.write("pkg/mod.py", b"changed\n")
    assert ws.changed_files() == ["pkg/mod.py"]
    ws.write("pkg/mod.py", original)
    assert ws.changed_files() == []
    assert ws.diff() == ""
    assert change_stats(ws.changes()) == {"files": 0, "additions": 0, "deletions": 0}
    # created then deleted by the agent: nothing left
    ws.write("tmp.txt", b"x")
    ws.delete("tmp.txt")
    assert ws.changed_files() == [] and ws.overlay_rows() == []


def test_base_is_recorded_at_first_read(project: Path, ws: Workspace) -> None:
    first = ws.read("pkg/mod.py")
    assert first is not None
    (project / "pkg" / "mod.py").write_text("user edit\n")
    ws.read("pkg/mod.py")
    assert ws.base_sha("pkg/mod.py") == hashlib.sha256(first).hexdigest()
    assert ws.base_sha("never/there.py") is None


def test_binary_and_non_utf8_round_trip(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("sample_data", "n2")
    blobs = {
        "data/all_bytes.bin": bytes(range(256)) * 4,
        "data/latin1.txt": "café naïve\n".encode("latin-1"),
        "data/crlf.txt": b"a\r\nb\r\n",
        "data/empty": b"",
    }
    for rel, data in blobs.items():
        ws.write(rel, data)
    ws.close()
    reopened = store.open("sample_data-n2")
    assert {rel: reopened.read(rel) for rel in blobs} == blobs
    changes = {c.path: c for c in reopened.changes()}
    assert changes["data/all_bytes.bin"].binary and changes["data/latin1.txt"].binary
    assert not changes["data/crlf.txt"].binary
    reopened.close()
    report = store.accept("sample_data-n2")
    assert report.accepted
    assert {rel: (project / rel).read_bytes() for rel in blobs} == blobs


def test_file_and_directory_clashes(ws: Workspace) -> None:
    with pytest.raises(IsADirectoryError):
        ws.write("pkg", b"x")
    with pytest.raises(NotADirectoryError):
        ws.write("README.md/inner.txt", b"x")
    with pytest.raises(TypeError):
        ws.write("a.txt", "text")  # type: ignore[arg-type]


def test_store_ids_open_and_replace(project: Path, ws: Workspace) -> None:
    store = WorkspaceStore(project)
    ws.write("a.txt", b"1")
    ws.close()
    assert store.ids() == ["lint-n1"]
    again = store.create("lint", "n1")  # a new run replaces the old workspace
    assert again.read("a.txt") is None
    again.close()
    with pytest.raises(RemoraError) as info:
        store.open("lint-missing")
    assert info.value.code == WORKSPACE_NOT_FOUND
    with pytest.raises(RemoraError) as info:
        store.open("../../etc/passwd")
    assert info.value.code == WORKSPACE_NOT_FOUND


def test_store_refuses_a_newer_schema(project: Path, ws: Workspace) -> None:
    ws.close()
    import sqlite3

    conn = sqlite3.connect(project / ".remora" / "workspaces" / "lint-n1.db")
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(RemoraError) as info:
        WorkspaceStore(project).open("lint-n1")
    assert info.value.code == WORKSPACE_CONFLICT


def test_threads_share_one_workspace(ws: Workspace) -> None:
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(50):
                ws.write(f"t{n}/f{i}.txt", f"{n}-{i}".encode())
                assert ws.read(f"t{n}/f{i}.txt") == f"{n}-{i}".encode()
        except BaseException as exc:  # collected and re-raised by the test
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(ws.changed_files()) == 200


async def test_asyncio_tasks_and_worker_threads(ws: Workspace) -> None:
    async def task(n: int) -> None:
        for i in range(20):
            await asyncio.to_thread(ws.write, f"a{n}/{i}.txt", b"x" * i)
            await asyncio.sleep(0)
            assert ws.read(f"a{n}/{i}.txt") == b"x" * i

    await asyncio.gather(*(task(n) for n in range(5)))
    assert sum(1 for _ in ws.iter_files()) == 100 + 4  # plus the project's 4 files


def test_reject_leaves_the_project_byte_identical(project: Path) -> None:
    os.chmod(project / "README.md", 0o600)
    before = snapshot(project)
    modes = {p: os.stat(project / p).st_mode for p in before}
    store = WorkspaceStore(project)
    ws = store.create("lint", "n9")
    ws.write("README.md", b"rewritten")
    ws.delete("pkg/mod.py")
    ws.write("new.bin", b"\x00\x01")
    ws.close()
    store.reject("lint-n9")
    assert snapshot(project) == before
    assert {p: os.stat(project / p).st_mode for p in before} == modes
    assert store.ids() == []
    assert list((project / ".remora" / "workspaces").iterdir()) == []
