"""The store's workspace ids: kept between calls, updated by its own creates and removes,
and listed again after REFRESH_S so another process's workspaces are seen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from remora.workspace import WorkspaceStore
from remora.workspace import listing as listing_module


@pytest.fixture
def store(tmp_path: Path) -> WorkspaceStore:
    (tmp_path / "mod.py").write_text("def f():\n    return 1\n")
    return WorkspaceStore(tmp_path)


def _change(store: WorkspaceStore, operation: str, node_id: str) -> str:
    ws = store.create(operation, node_id)
    ws.write("mod.py", b"def f():\n    return 2\n")
    store.mark_finished(ws)
    ws.close()
    return ws.id


def test_own_creates_and_removes_show_at_once(store: WorkspaceStore) -> None:
    assert store.ids() == []
    first = _change(store, "lint", "a" * 16)
    second = _change(store, "lint", "a" * 16)
    other = _change(store, "docstring", "a" * 16)
    assert store.ids("lint-" + "a" * 16) == sorted([first, second])
    assert store.retire_older(second) == [first]
    assert store.ids() == sorted([second, other])
    store.discard(other)
    assert store.ids() == [second]


def test_another_process_s_workspace_is_seen_once_the_list_is_refreshed(
    store: WorkspaceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = _change(store, "lint", "b" * 16)
    assert store.ids() == [mine]
    foreign = store.directory / f"lint-{'c' * 16}.db"
    os.close(os.open(foreign, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    assert store.ids("lint-") == [mine]  # kept: not listed again within REFRESH_S
    assert store.ids() == sorted([mine, foreign.stem])  # all of them, to show: listed now
    other = store.directory / f"lint-{'e' * 16}.db"
    os.close(os.open(other, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    assert store.ids("lint-") == sorted([mine, foreign.stem])
    monkeypatch.setattr(listing_module, "REFRESH_S", 0.0)
    assert store.ids("lint-") == sorted([mine, foreign.stem, other.stem])


def test_an_id_taken_by_an_earlier_run_is_known_without_a_listing(
    tmp_path: Path, store: WorkspaceStore
) -> None:
    earlier = _change(store, "lint", "d" * 16)
    fresh = WorkspaceStore(tmp_path)  # a later command: lists the folder on first use
    assert fresh.ids() == [earlier]
    later = _change(fresh, "lint", "d" * 16)
    assert later != earlier
    assert fresh.retire_older(later) == [earlier]
    assert fresh.ids() == [later]
