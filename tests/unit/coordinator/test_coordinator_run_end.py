"""A run's workspace at its end (coordinator/run_end.py): a change is written and flushed on
a thread, no change leaves nothing, and a Ctrl-C during the write leaves nothing either.
A real workspace store on a temp project."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from remora.coordinator.workspace_close import close_workspace
from remora.workspace import Workspace, WorkspaceStore


@pytest.fixture
def store(tmp_path: Path) -> WorkspaceStore:
    (tmp_path / "mod.py").write_text("def f():\n    return 1\n")
    return WorkspaceStore(tmp_path)


def _changed(store: WorkspaceStore) -> Workspace:
    workspace = store.create("lint", "n1")
    workspace.write("mod.py", b"def f():\n    return 2\n")
    store.mark_finished(workspace)
    return workspace


async def test_a_kept_change_is_written_off_the_event_loop(
    store: WorkspaceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = _changed(store)
    threads: list[threading.Thread] = []
    close = workspace.close
    monkeypatch.setattr(
        workspace, "close", lambda **kw: (threads.append(threading.current_thread()), close(**kw))
    )
    await close_workspace(store, workspace, keep=True)
    assert threads and threads[0] is not threading.main_thread()
    assert store.ids() == [workspace.id]
    assert store.open(workspace.id).read("mod.py") == b"def f():\n    return 2\n"


async def test_a_run_without_a_change_leaves_no_workspace(store: WorkspaceStore) -> None:
    workspace = _changed(store)
    await close_workspace(store, workspace, keep=False)
    assert store.ids() == []


async def test_ctrl_c_while_the_change_is_written_leaves_no_workspace(
    store: WorkspaceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = _changed(store)
    writing = threading.Event()
    close = workspace.close

    def slow_close(**kw: bool) -> None:  # a slow disk
        writing.set()
        time.sleep(0.2)
        close(**kw)

    monkeypatch.setattr(workspace, "close", slow_close)
    ending = asyncio.ensure_future(close_workspace(store, workspace, keep=True))
    await asyncio.to_thread(writing.wait, 5)
    ending.cancel()
    with pytest.raises(asyncio.CancelledError):
        await ending
    assert store.ids() == []  # written, then discarded with the run that did not finish
