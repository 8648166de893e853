"""All workspaces of a project: ``.remora/workspaces/<operation>-<node_id>[-<random>].db``."""

from __future__ import annotations

import functools
import os
import re
import secrets
import time
from collections.abc import Mapping
from pathlib import Path

from remora.errors import WorkspaceNotFoundError
from remora.project import STATE_DIR
from remora.workspace.accept import AcceptReport, Tidy, accept_workspace
from remora.workspace.diff import change_stats
from remora.workspace.listing import FolderIds
from remora.workspace.lock import project_lock
from remora.workspace.overlay import Workspace
from remora.workspace.run_claims import hold_claims
from remora.workspace.summaries import Summaries, WorkspaceSummary

__all__ = ["WorkspaceStore"]

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
_SIDE_FILES = ("-wal", "-shm", "-journal")
# meta "run": a workspace still written by its run is never superseded
_RUNNING, _FINISHED = "running", "finished"


class WorkspaceStore:
    """Creates, opens, accepts and rejects the workspaces of one project."""

    def __init__(self, project_root: Path) -> None:
        self.project_root = project_root.resolve()
        self.directory = self.project_root / STATE_DIR / "workspaces"
        self._ids = FolderIds(self.directory, lambda stem: _ID.fullmatch(stem) is not None)
        self._summaries = Summaries(self.project_root / STATE_DIR / "summaries.db")

    def _db(self, workspace_id: str) -> Path:
        if not _ID.fullmatch(workspace_id) or workspace_id.endswith(".db"):
            raise WorkspaceNotFoundError(
                f"{workspace_id!r} is not a workspace id",
                "ids look like lint-3f2a9c...; run `remora review` to list them",
            )
        return self.directory / f"{workspace_id}.db"

    def exists(self, workspace_id: str) -> bool:
        return self._db(workspace_id).is_file()

    def ids(self, prefix: str = "") -> list[str]:
        """The workspaces' ids (only those starting with ``prefix``)."""
        # With a prefix (a supersede) from the list kept between calls (listing.py): reading the
        # whole folder once per change was quadratic over a large project's analyze. Without
        # one (a listing to show) the folder is read now.
        return self._ids.starting_with(prefix, fresh=not prefix)

    def summaries(self) -> list[tuple[str, WorkspaceSummary]]:
        """(id, summary) of each workspace, as a listing shows it; one removed meanwhile
        (superseded by a run, accepted elsewhere) is left out. Kept between calls while
        a workspace and the project files it touches are unchanged (summaries.py)."""
        ids = self.ids()
        dbs = [self._db(workspace_id) for workspace_id in ids]
        self._summaries.load(dbs)
        self._summaries.keep_only(dbs)
        found = []
        for workspace_id, db in zip(ids, dbs, strict=True):
            try:
                summary = self._summaries.get(db, functools.partial(self._summary, workspace_id))
            except WorkspaceNotFoundError:
                continue
            found.append((workspace_id, summary))
        self._summaries.save(dbs)
        return found

    def _summary(self, workspace_id: str) -> tuple[WorkspaceSummary, tuple[Path, ...]]:
        with self.open(workspace_id) as ws:
            changes = ws.changes()
            counts = change_stats(changes)
            touched = tuple(self.project_root / path for path, _ in ws.overlay_listing(""))
            paths = tuple(change.path for change in changes)
            summary = WorkspaceSummary(
                ws.operation,
                ws.node_id,
                ws.accepting,
                paths,
                counts["additions"],
                counts["deletions"],
                tuple(change.path for change in changes if change.conflict),
            )
        return summary, touched

    def create(self, operation: str, node_id: str) -> Workspace:
        """A fresh workspace with an id of its own.

        The id is ``<operation>-<node_id>`` when that is free, else that plus a
        random suffix. Earlier workspaces of the same node and operation are
        left alone: a run that is interrupted or fails must not destroy a
        change waiting for review. :meth:`retire_older` retires them once the new
        run has a change.

        The id is claimed by an empty file; the database is only made by the
        run's first change (a lazy :class:`Workspace`), in memory, and written
        into the file whole when the workspace is closed (``buffered``).
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        # Before this process's first claim: a killed run's leftovers go (claims.py).
        hold_claims(self.directory, self._remove_leftover)
        workspace_id = f"{operation}-{node_id}"
        while True:
            db = self._db(workspace_id)
            try:
                # O_EXCL claims the id atomically, so concurrent runs never share one.
                os.close(os.open(db, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
                self._ids.note(workspace_id, present=True)
                break
            except FileExistsError:
                self._ids.note(workspace_id, present=True)
                workspace_id = f"{operation}-{node_id}-{secrets.token_hex(4)}"
        meta = {
            "operation": operation,
            "node_id": node_id,
            "created": repr(time.time()),
            "run": _RUNNING,
        }
        return Workspace(workspace_id, self.project_root, db, meta=meta, buffered=True)

    @staticmethod
    def mark_finished(ws: Workspace) -> None:
        """The run writing ``ws`` is over: a later run's change may now supersede it."""
        ws.set_meta(run=_FINISHED)

    def retire_older(self, workspace: Workspace | str) -> list[str]:
        """Remove the older workspaces of ``workspace``'s node and operation.

        Called when a new run finished (with a change, or proposing none now).
        One whose accept was interrupted is kept (it must be resumed or
        rejected by the user), and so is one whose run is still going or
        started later. Returns the ids removed. ``workspace`` is the run's own
        (its metadata is kept after close) or an id, opened here.
        """
        if isinstance(workspace, str):
            with self.open(workspace) as ws:
                return self.retire_older(ws)
        workspace_id = workspace.id
        operation, node_id, created = workspace.operation, workspace.node_id, workspace.created
        removed: list[str] = []
        prefix = f"{operation}-{node_id}"
        for other in self.ids(prefix):
            if other == workspace_id:
                continue
            try:
                old = self.open(other)
            except WorkspaceNotFoundError:  # removed meanwhile by another run
                continue
            with old:
                same = (old.operation, old.node_id) == (operation, node_id)
                running = old.meta("run") == _RUNNING
                if not same or running or old.accepting or old.created > created:
                    continue
            self._remove(other)
            removed.append(other)
        return removed

    def open(self, workspace_id: str) -> Workspace:
        """The workspace; one whose run has not changed anything yet is opened empty.

        An empty file is an id claimed by a run that has not ended (or was
        killed): it is read as a lazy workspace with no metadata, so a reader
        never writes a database into another run's claim.
        """
        db = self.require(workspace_id)
        try:
            claimed_only = db.stat().st_size == 0
        except (FileNotFoundError, NotADirectoryError):  # removed meanwhile
            raise self._missing(workspace_id) from None
        return Workspace(workspace_id, self.project_root, db, meta={} if claimed_only else None)

    def require(self, workspace_id: str) -> Path:
        """The workspace's file, not read; WORKSPACE_003 when there is none."""
        db = self._db(workspace_id)
        if not db.is_file():
            raise self._missing(workspace_id)
        return db

    @staticmethod
    def _missing(workspace_id: str) -> WorkspaceNotFoundError:
        return WorkspaceNotFoundError(
            f"no workspace {workspace_id!r}", "run `remora review` to list the workspaces"
        )

    def interrupted(self) -> list[str]:
        """Ids of workspaces whose accept was started and not finished."""
        out: list[str] = []
        for workspace_id in self.ids():
            with self.open(workspace_id) as ws:
                if ws.accepting:
                    out.append(workspace_id)
        return out

    def accept(
        self,
        workspace_id: str,
        contents: Mapping[str, bytes | None] | None = None,
        tidy: Tidy | None = None,
    ) -> AcceptReport:
        """Write the changes into the project, or report the conflicts and write nothing.

        An accept interrupted earlier (a journal is present) is resumed.
        ``contents`` narrows the change first, and ``tidy`` sees each file before it is
        written (accept_workspace).
        """
        with project_lock(self.project_root):
            ws = self.open(workspace_id)
            try:
                report = accept_workspace(ws, contents, tidy)
            finally:
                ws.close()
            if report.accepted:
                self._remove(workspace_id)
        return report

    def reject(self, workspace_id: str) -> None:
        """Delete the workspace; the project is not touched.

        A workspace whose accept was interrupted may be rejected too: the files
        already written stay as they are, the rest is discarded, so a stuck
        accept can always be ended one way or the other. So may one that cannot
        be read (damaged, or written by a newer Remora).
        """
        with project_lock(self.project_root):
            self.require(workspace_id)
            self._remove(workspace_id)

    def retire(self, workspace_id: str) -> None:
        """Remove a workspace whose change another writer applied (an editor's buffer).

        ``remora lsp`` hands an accepted change to the editor, which writes the
        file when the user saves; the workspace then goes as an accepted one does.
        """
        with project_lock(self.project_root):
            self.require(workspace_id)
            self._remove(workspace_id)

    def discard(self, workspace_id: str) -> None:
        """Remove a run's own workspace that was never offered for review (no lock needed)."""
        self._remove(workspace_id)

    def _remove_leftover(self, workspace_id: str) -> None:
        """Remove the empty claim of a killed run (claims.py); a name no workspace has stays."""
        if _ID.fullmatch(workspace_id):
            self._remove(workspace_id)

    def _remove(self, workspace_id: str) -> None:
        # The database goes first: its disappearance is what ends an accept.
        db = self._db(workspace_id)
        db.unlink(missing_ok=True)
        self._ids.note(workspace_id, present=False)
        for suffix in _SIDE_FILES:
            db.with_name(db.name + suffix).unlink(missing_ok=True)
