"""Copy-on-write workspaces over the project, diffs, accept and reject (docs/architecture.md)."""

from __future__ import annotations

from remora.workspace.accept import AcceptReport, Conflict
from remora.workspace.diff import FileChange, is_binary, render_diff
from remora.workspace.overlay import Workspace
from remora.workspace.paths import WorkspacePathError
from remora.workspace.store import WorkspaceStore

__all__ = [
    "AcceptReport",
    "Conflict",
    "FileChange",
    "Workspace",
    "WorkspacePathError",
    "WorkspaceStore",
    "is_binary",
    "render_diff",
]
