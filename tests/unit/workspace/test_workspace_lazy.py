"""Lazy workspaces: no sqlite database until the run's first change."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from workspace_kit import small_project, snapshot

from remora.workspace import Workspace, WorkspaceStore
from remora.workspace import overlay as overlay_module


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return small_project(tmp_path)


@pytest.fixture
def no_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to open a workspace database fails the test."""

    def refuse(db_path: Path) -> sqlite3.Connection:
        raise AssertionError(f"a database was opened: {db_path}")

    monkeypatch.setattr(overlay_module, "connect", refuse)


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_reads_fall_through_to_the_project_without_a_database(
    project: Path, no_sqlite: None
) -> None:
    ws = WorkspaceStore(project).create("lint", "n1")
    assert not ws.written
    assert ws.read("pkg/mod.py") == b"def f():\n    return 1\n"
    assert ws.read("missing.py") is None
    assert ws.exists("pkg") and ws.is_dir("pkg") and not ws.exists("gone")
    assert ws.list_dir() == ["README.md", "pkg/"]
    assert list(ws.iter_files()) == ["README.md", "pkg/mod.py"]
    assert ws.changes() == [] and ws.diff() == "" and not ws.accepting
    assert (ws.operation, ws.node_id, ws.meta("run")) == ("lint", "n1", "running")
    assert ws.base_sha("pkg/mod.py") is not None  # recorded, in memory


def test_discarding_an_untouched_workspace_leaves_nothing(project: Path, no_sqlite: None) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "n1")
    ws.read("pkg/mod.py")
    ws.write("pkg/mod.py", b"def f():\n    return 1\n")  # equal to the base: no change
    store.mark_finished(ws)
    ws.close()
    # Only the empty file that claims the id was ever written.
    assert _files(store.directory) == ["lint-n1.db"]
    assert (store.directory / "lint-n1.db").stat().st_size == 0
    store.discard(ws.id)
    assert _files(store.directory) == []


def test_first_write_creates_the_overlay_with_what_was_kept(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("docstring", "n2")
    read_base = ws.base_sha("README.md")
    ws.read("pkg/mod.py")
    assert (store.directory / "docstring-n2.db").stat().st_size == 0
    ws.write("pkg/mod.py", b"def f():\n    return 2\n")
    assert ws.written
    assert ws.changed_files() == ["pkg/mod.py"]
    store.mark_finished(ws)
    ws.close()
    with store.open(ws.id) as again:
        assert again.written
        assert (again.operation, again.node_id, again.meta("run")) == (
            "docstring",
            "n2",
            "finished",
        )
        assert again.created == ws.created > 0
        assert again.base_sha("README.md") == read_base  # the read before the write kept it
        assert again.read("pkg/mod.py") == b"def f():\n    return 2\n"


def test_a_first_delete_creates_the_overlay(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "n3")
    ws.delete("missing.py")  # nothing there: still no change
    assert not ws.written
    ws.delete("README.md")
    assert ws.written and ws.changed_files() == ["README.md"]
    ws.close()


def test_accept_of_a_lazily_created_workspace(project: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "n1")
    ws.write("pkg/mod.py", b"def f():\n    return 2\n")
    store.mark_finished(ws)
    ws.close()
    report = store.accept(ws.id)
    assert report.accepted
    assert (project / "pkg" / "mod.py").read_text() == "def f():\n    return 2\n"
    assert store.ids() == []


def test_a_reader_never_writes_into_a_running_claim(project: Path) -> None:
    """Another process (remora review) opening a claimed id sees an empty workspace."""
    store = WorkspaceStore(project)
    running = store.create("lint", "n1")
    before = snapshot(project)
    with store.open(running.id) as seen:
        assert not seen.written and seen.changes() == [] and seen.operation == ""
    assert (store.directory / "lint-n1.db").stat().st_size == 0
    assert snapshot(project) == before
    # The run's later change still lands in its database.
    running.write("README.md", b"# changed\n")
    running.close()
    with store.open(running.id) as seen:
        assert seen.changed_files() == ["README.md"] and seen.operation == "lint"


def test_supersede_from_the_closed_run_workspace(project: Path) -> None:
    store = WorkspaceStore(project)
    first = store.create("lint", "n1")
    first.write("README.md", b"one\n")
    store.mark_finished(first)
    first.close()
    second = store.create("lint", "n1")
    second.write("README.md", b"two\n")
    store.mark_finished(second)
    second.close()
    assert isinstance(second, Workspace)
    assert store.retire_older(second) == [first.id]
    assert store.ids() == [second.id]
