"""All workspaces of a project: ``.remora/workspaces/<operation>-<node_id>.db``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from remora.errors import WorkspaceConflictError, WorkspaceNotFoundError
from remora.project import STATE_DIR
from remora.workspace.accept import AcceptReport, accept_workspace
from remora.workspace.overlay import Workspace

__all__ = ["WorkspaceStore"]

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
_SIDE_FILES = ("-wal", "-shm", "-journal")


class WorkspaceStore:
    """Creates, opens, accepts and rejects the workspaces of one project."""

    def __init__(self, project_root: Path) -> None:
        self.project_root = project_root.resolve()
        self.directory = self.project_root / STATE_DIR / "workspaces"

    def _db(self, workspace_id: str) -> Path:
        if not _ID.fullmatch(workspace_id) or workspace_id.endswith(".db"):
            raise WorkspaceNotFoundError(
                f"{workspace_id!r} is not a workspace id",
                "ids look like lint-3f2a9c...; run `remora review` to list them",
            )
        return self.directory / f"{workspace_id}.db"

    def exists(self, workspace_id: str) -> bool:
        return self._db(workspace_id).is_file()

    def ids(self) -> list[str]:
        if not self.directory.is_dir():
            return []
        return sorted(p.stem for p in self.directory.glob("*.db") if _ID.fullmatch(p.stem))

    def create(self, operation: str, node_id: str) -> Workspace:
        """A fresh workspace; an old one of the same id (an earlier run) is replaced."""
        workspace_id = f"{operation}-{node_id}"
        db = self._db(workspace_id)
        if db.is_file():
            old = Workspace(workspace_id, self.project_root, db)
            try:
                if old.accepting:
                    raise WorkspaceConflictError(
                        f"workspace {workspace_id} has an interrupted accept",
                        f"finish it with `remora review accept {workspace_id}` first",
                    )
            finally:
                old.close()
        self._remove(workspace_id)
        self.directory.mkdir(parents=True, exist_ok=True)
        ws = Workspace(workspace_id, self.project_root, db)
        ws.init_meta(operation, node_id)
        return ws

    def open(self, workspace_id: str) -> Workspace:
        db = self._db(workspace_id)
        if not db.is_file():
            raise WorkspaceNotFoundError(
                f"no workspace {workspace_id!r}",
                "run `remora review` to list the workspaces",
            )
        return Workspace(workspace_id, self.project_root, db)

    def interrupted(self) -> list[str]:
        """Ids of workspaces whose accept was started and not finished."""
        out: list[str] = []
        for workspace_id in self.ids():
            with self.open(workspace_id) as ws:
                if ws.accepting:
                    out.append(workspace_id)
        return out

    def accept(
        self, workspace_id: str, contents: Mapping[str, bytes | None] | None = None
    ) -> AcceptReport:
        """Write the changes into the project, or report the conflicts and write nothing.

        An accept interrupted earlier (a journal is present) is resumed.
        ``contents`` narrows the change first (accept_workspace).
        """
        ws = self.open(workspace_id)
        try:
            report = accept_workspace(ws, contents)
        finally:
            ws.close()
        if report.accepted:
            self._remove(workspace_id)
        return report

    def reject(self, workspace_id: str) -> None:
        """Delete the workspace; the project is not touched."""
        with self.open(workspace_id) as ws:
            if ws.accepting:
                raise WorkspaceConflictError(
                    f"workspace {workspace_id} is half accepted; rejecting it now would leave "
                    "the project half changed",
                    f"finish the accept with `remora review accept {workspace_id}`",
                )
        self._remove(workspace_id)

    def _remove(self, workspace_id: str) -> None:
        # The database goes first: its disappearance is what ends an accept.
        db = self._db(workspace_id)
        db.unlink(missing_ok=True)
        for suffix in _SIDE_FILES:
            db.with_name(db.name + suffix).unlink(missing_ok=True)
