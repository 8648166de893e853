"""A run's workspace is built in memory and written to its file whole when it closes."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest
from workspace_calls import recorded_paths
from workspace_kit import small_project

from remora.errors import WorkspaceConflictError
from remora.workspace import WorkspaceStore
from remora.workspace import database as database_module


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return small_project(tmp_path)


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_nothing_reaches_the_disk_until_close(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("docstring", "n1")
    ws.write("pkg/mod.py", b"def f():\n    return 2\n")
    ws.delete("README.md")
    store.mark_finished(ws)
    # No database, journal or side file yet: only the empty claim.
    assert _files(store.directory) == ["docstring-n1.db"]
    assert (store.directory / "docstring-n1.db").stat().st_size == 0
    ws.close()
    assert _files(store.directory) == ["docstring-n1.db"]
    image = (store.directory / "docstring-n1.db").read_bytes()
    assert image.startswith(b"SQLite format 3\x00")
    assert image[18:20] == b"\x02\x02"  # a WAL database, as connect() makes them
    plain = sqlite3.connect(store.directory / "docstring-n1.db")
    try:
        assert plain.execute("PRAGMA user_version").fetchone()[0] == database_module.SCHEMA_VERSION
        assert plain.execute("SELECT path, deleted FROM overlay ORDER BY path").fetchall() == [
            ("README.md", 1),
            ("pkg/mod.py", 0),
        ]
        assert dict(plain.execute("SELECT key, value FROM meta").fetchall())["run"] == "finished"
        bases = {path for (path,) in plain.execute("SELECT path FROM bases")}
        assert bases == {"README.md", "pkg/mod.py"}
    finally:
        plain.close()


def test_opening_the_saved_file_rewrites_nothing(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "n1")
    ws.write("README.md", b"# changed\n")
    ws.close()
    path = store.directory / "lint-n1.db"
    saved = path.read_bytes()
    with store.open(ws.id) as again:
        assert again.changed_files() == ["README.md"]
        assert again.read("README.md") == b"# changed\n"
    assert path.read_bytes() == saved  # no journal-mode switch wrote its header
    assert _files(store.directory) == ["lint-n1.db"]


def test_the_accept_journal_goes_to_the_file(project: Path) -> None:
    """connection() is what accept journals through: it must be durable before files change."""
    store = WorkspaceStore(project)
    ws = store.create("lint", "n1")
    ws.write("README.md", b"# changed\n")
    conn, lock = ws.connection()
    with lock:
        conn.execute("INSERT INTO accept_plan(seq, path, action) VALUES (0, 'README.md', 'write')")
    other = sqlite3.connect(store.directory / "lint-n1.db")
    try:
        assert other.execute("SELECT path FROM accept_plan").fetchall() == [("README.md",)]
        assert other.execute("SELECT path FROM overlay").fetchall() == [("README.md",)]
    finally:
        other.close()
    assert ws.accepting
    with pytest.raises(WorkspaceConflictError):
        ws.write("pkg/mod.py", b"x = 1\n")
    ws.close()
    with store.open(ws.id) as again:
        assert again.accepting and again.changed_files() == ["README.md"]


def test_a_failed_save_leaves_the_claim_and_no_part_file(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "n1")
    ws.write("README.md", b"# changed\n")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(database_module.os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        ws.close()
    assert _files(store.directory) == ["lint-n1.db"]
    assert (store.directory / "lint-n1.db").stat().st_size == 0
    monkeypatch.setattr(database_module.os, "fsync", os.fsync)
    ws.close()  # closed already: nothing more is written
    assert (store.directory / "lint-n1.db").stat().st_size == 0


def test_a_run_that_keeps_nothing_writes_nothing(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "n1")
    ws.write("README.md", b"# changed\n")
    ws.close(save=False)
    assert (store.directory / "lint-n1.db").stat().st_size == 0
    store.discard(ws.id)
    assert _files(store.directory) == []


def _settle(path: Path, text: str, age_s: float = 3600) -> None:
    path.write_text(text)
    then = time.time() - age_s
    os.utime(path, (then, then))


@pytest.fixture
def live_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return recorded_paths(monkeypatch, "live")


def test_a_runs_changes_are_kept_while_nothing_they_rest_on_changes(
    project: Path, live_reads: list[str]
) -> None:
    _settle(project / "README.md", "# proj\n")
    store = WorkspaceStore(project)
    ws = store.create("lint", "n1")
    ws.write("README.md", b"# changed\n")
    live_reads.clear()
    first = ws.changes()
    assert ws.changes() == first and ws.changed_files() == ["README.md"]
    assert live_reads == ["README.md"]
    ws.write("pkg/mod.py", b"x = 1\n")  # a write of its own
    assert [c.path for c in ws.changes()] == ["README.md", "pkg/mod.py"]
    assert live_reads[1:] == ["pkg/mod.py", "README.md", "pkg/mod.py"]  # its base, then both
    # The project file changed on disk (same size): its stat tells.
    _settle(project / "README.md", "# PROJ\n", age_s=60)
    # ... and the change, on the line the project changed too, is now a conflict
    assert ws.changes()[0].conflict.startswith("line 1 changed in the project")
    ws.close()


def test_changes_of_a_file_changed_just_now_or_of_an_opened_workspace_are_not_kept(
    project: Path, live_reads: list[str]
) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "n1")
    ws.write("README.md", b"# changed\n")  # README.md was written by the fixture just now
    live_reads.clear()
    ws.changes()
    ws.changes()
    assert live_reads == ["README.md", "README.md"]
    ws.close()
    _settle(project / "README.md", "# proj\n")
    with store.open(ws.id) as again:  # its database may change under it (another process)
        live_reads.clear()
        again.changes()
        again.changes()
        assert live_reads == ["README.md", "README.md"]
