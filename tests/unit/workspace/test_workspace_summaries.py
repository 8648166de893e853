"""A listing's workspace summaries: kept while the workspace and the project files it
touches are unchanged, read again as soon as either changes."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from remora.workspace import WorkspaceStore
from remora.workspace.summary_file import read_entries

HOUR_AGO = time.time() - 3600


def _age(*paths: Path, at: float = HOUR_AGO) -> None:
    """Files written in the last seconds are never trusted: these look an hour old."""
    for path in paths:
        os.utime(path, (at, at))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "mod.py").write_text("def f():\n    return 1\n")
    (tmp_path / "other.py").write_text("x = 1\n")
    return tmp_path


def _two_changes(store: WorkspaceStore) -> tuple[str, str]:
    """A lint change to mod.py (+1 -1) and one to other.py (+2 -1)."""
    return (
        _change(store, "a", "mod.py", "def f():\n    return 2\n"),
        _change(store, "b", "other.py", "x = 2\ny = 3\n"),
    )


def _change(store: WorkspaceStore, node_id: str, path: str, text: str) -> str:
    ws = store.create("lint", node_id)
    ws.write(path, text.encode())
    store.mark_finished(ws)
    ws.close()
    _age(ws.db_path, store.project_root / path)
    return ws.id


def _opened(store: WorkspaceStore, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    opened: list[str] = []
    real = WorkspaceStore.open

    def counting(self: WorkspaceStore, workspace_id: str) -> object:
        opened.append(workspace_id)
        return real(self, workspace_id)

    monkeypatch.setattr(WorkspaceStore, "open", counting)
    return opened


def test_an_unchanged_workspace_is_not_opened_again(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = WorkspaceStore(project)
    first, second = _two_changes(store)
    opened = _opened(store, monkeypatch)
    listed = dict(store.summaries())
    assert sorted(opened) == sorted([first, second])
    assert (listed[second].changed_files, listed[second].additions) == (("other.py",), 2)
    assert (listed[second].deletions, listed[second].operation) == (1, "lint")
    assert dict(store.summaries()) == listed
    assert len(opened) == 2  # both kept


def test_a_project_file_changed_since_reads_its_workspace_again(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = WorkspaceStore(project)
    workspace_id = _change(store, "a", "mod.py", "def f():\n    return 2\n")
    opened = _opened(store, monkeypatch)
    assert dict(store.summaries())[workspace_id].changed_files == ("mod.py",)
    # The user made the same edit by hand: nothing is left to accept.
    (project / "mod.py").write_text("def f():\n    return 2\n")
    _age(project / "mod.py", at=HOUR_AGO + 60)  # written later, as the stat shows
    assert dict(store.summaries())[workspace_id].changed_files == ()
    assert opened == [workspace_id, workspace_id]


def test_a_file_written_in_the_last_seconds_is_not_trusted(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = WorkspaceStore(project)
    workspace_id = _change(store, "a", "mod.py", "def f():\n    return 2\n")
    (project / "mod.py").write_text("def f():\n    return 3\n")  # now: within the clock's tick
    opened = _opened(store, monkeypatch)
    store.summaries()
    store.summaries()
    assert opened == [workspace_id, workspace_id]


def test_a_workspace_removed_meanwhile_is_left_out(project: Path) -> None:
    store = WorkspaceStore(project)
    kept, gone = _two_changes(store)
    listed = store.ids()
    store.ids = lambda prefix="": listed  # type: ignore[method-assign]  # listed before it went
    (store.directory / f"{gone}.db").unlink()
    assert [workspace_id for workspace_id, _ in store.summaries()] == [kept]


def test_the_next_process_reads_only_what_changed(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = WorkspaceStore(project)
    kept, edited = _two_changes(first)
    listed = dict(first.summaries())
    (project / "other.py").write_text("x = 2\n")
    _age(project / "other.py", at=HOUR_AGO + 60)
    later = WorkspaceStore(project)  # as a new `remora review list` would
    opened = _opened(later, monkeypatch)
    again = dict(later.summaries())
    assert opened == [edited]
    assert again[kept] == listed[kept]
    assert (again[edited].additions, again[edited].deletions) == (1, 0)  # only y = 3 left


def test_a_damaged_summaries_file_is_read_as_empty_and_made_anew(project: Path) -> None:
    store = WorkspaceStore(project)
    workspace_id = _change(store, "a", "mod.py", "def f():\n    return 2\n")
    cache = project / ".remora" / "summaries.db"
    cache.write_bytes(b"not a database at all" * 100)
    assert [i for i, _ in WorkspaceStore(project).summaries()] == [workspace_id]
    assert read_entries(cache).keys() == {str(store.directory / f"{workspace_id}.db")}


def test_a_removed_workspace_leaves_the_summaries_file(project: Path) -> None:
    store = WorkspaceStore(project)
    kept, gone = _two_changes(store)
    store.summaries()
    store.reject(gone)
    store.summaries()
    cache = read_entries(project / ".remora" / "summaries.db")
    assert cache.keys() == {str(store.directory / f"{kept}.db")}


def test_rows_of_another_shape_are_not_used(project: Path) -> None:
    store = WorkspaceStore(project)
    workspace_id, _ = _two_changes(store)
    store.summaries()
    cache = project / ".remora" / "summaries.db"
    with sqlite3.connect(cache) as conn:
        conn.execute("UPDATE summaries SET entry = '{\"summary\": {}}'")
    conn.close()
    listed = dict(WorkspaceStore(project).summaries())
    assert listed[workspace_id].changed_files == ("mod.py",)
