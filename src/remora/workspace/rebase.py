"""A workspace's change against the project as it is now, not as its agent read it.

The overlay holds each changed file as the agent left it, and its base (the
file as the agent read it). Once the project's file has moved on (another
change to it accepted, the user's own edit), the change is merged into the file
as it is now (merge.py): what the queue shows, and what accept writes, is what
accepting would do to today's file. A change that does not merge is shown as
the agent made it, with the lines that conflict.

Accept makes the merge part of the workspace (:func:`rebase_onto_project`,
under the project's accept lock): the merged bytes become its content and
today's file its base, so the journaled, per-file checked writing of accept.py
works on them unchanged, and an edit made while it runs is still refused.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from remora.workspace.diff import FileChange, file_change
from remora.workspace.merge import Merged, merge_file
from remora.workspace.paths import WorkspacePathError

if TYPE_CHECKING:
    from remora.workspace.overlay import Workspace

__all__ = ["conflict_of", "current_changes", "project_bytes", "rebase_onto_project"]

_CREATED = "created in the project since the agent started"
_GONE = "deleted from the project since the agent read it"
_NOT_KEPT = "changed in the project since the agent read it (its text then was not kept)"


def _merged(ws: Workspace, path: str, live: bytes | None, new: bytes) -> Merged | None:
    """``new`` merged into ``live``; None when the file has not moved on since its base."""
    base_sha = ws.base_sha(path)
    if live is None:
        return None if base_sha is None else Merged(None, (), _GONE)
    if base_sha is not None and hashlib.sha256(live).hexdigest() == base_sha:
        return None
    base = ws.base_text(path)
    if base is None:
        return Merged(None, (), _NOT_KEPT)
    merged = merge_file(path, base, live, new)
    if base_sha is None and merged.content is None:
        return Merged(None, merged.conflicts, _CREATED)
    return merged


def current_changes(ws: Workspace, rows: list[tuple[str, bytes | None, bool]]) -> list[FileChange]:
    """What accepting the overlay ``rows`` (path, content, deleted) would do now."""
    out = []
    for path, new, deleted in rows:
        live = project_bytes(ws, path)  # None also where a symlink now leads outside: never read
        mode = None if live is None else ws.live_mode(path)
        if change := current_change(ws, path, live, new, deleted, mode):
            out.append(change)
    return out


def current_change(
    ws: Workspace, path: str, live: bytes | None, new: bytes | None, deleted: bool, mode: int | None
) -> FileChange | None:
    """What accepting ``path``'s overlay row would do to ``live``; None: nothing."""
    if deleted or new is None:
        return file_change(path, live, new, deleted, mode)
    merged = _merged(ws, path, live, new)
    if merged is None:
        return file_change(path, live, new, False, mode)
    if merged.content is not None:
        return file_change(path, live, merged.content, False, mode)
    base = ws.base_text(path)
    shown = file_change(path, base or None, new, False, mode) if base is not None else None
    shown = shown or file_change(path, live, new, False, mode)
    if shown is None:
        return None
    return FileChange(
        shown.path, shown.status, shown.old, shown.new, shown.binary, mode, merged.describe()
    )


def conflict_of(ws: Workspace, path: str, live: bytes | None, new: bytes) -> str:
    """Why ``new`` does not merge into ``live`` (which lines, and why); "" when it does."""
    merged = _merged(ws, path, live, new)
    return "" if merged is None else merged.describe()


def project_bytes(ws: Workspace, path: str) -> bytes | None:
    """The project's file now; None when missing or no longer a safe path (accept says why)."""
    try:
        return ws.live(ws.safe_path(path))
    except WorkspacePathError:
        return None


def rebase_onto_project(ws: Workspace) -> None:
    """Merge each changed file that moved on since its base into the file as it is now.

    A file whose change merges gets the merged bytes and today's file as its base;
    one that does not is left as it is, for accept's conflict check to report.
    """
    for path, new, deleted in ws.overlay_rows():
        if deleted or new is None:
            continue
        live = project_bytes(ws, path)
        merged = _merged(ws, path, live, new)
        if merged is not None and merged.content is not None and live is not None:
            ws.rebase(path, live, merged.content)
