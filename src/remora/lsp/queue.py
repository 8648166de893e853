"""The review queue as the language server sees it: open changes, by file.

The results database says which workspaces wait for review (one query); a
change's files and hunks are read from its workspace only when a file it
touches is shown, and kept until its workspace or its record changes. So
opening a file costs the changes of that file, not the whole queue.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from remora.discovery import CSTNode, load_query_pack, parse_source
from remora.project import STATE_DIR
from remora.results import OPEN_STATES, ResultRecord, ResultsDB
from remora.workspace import FileChange, WorkspaceStore, render_diff
from remora.workspace.filestat import signature
from remora.workspace.hunks import Hunk, change_hunks
from remora.workspace.overlay import sha256

__all__ = ["ChangeFile", "PendingChange", "ReviewQueue", "find_node"]


@dataclass(frozen=True, slots=True)
class ChangeFile:
    change: FileChange
    hunks: tuple[Hunk, ...]
    base_sha: str | None
    # The project's file still has the bytes the agent read (else: a conflict).
    on_base: bool

    @property
    def path(self) -> str:
        return self.change.path


@dataclass(eq=False)
class PendingChange:
    id: str
    record: ResultRecord
    files: tuple[ChangeFile, ...]
    # Base lines [start, end) of the node in its own file, when the change edits that
    # file and the node is a function, class or method (a file node has no span).
    node_span: tuple[int, int] | None
    _diff: str | None = None

    @property
    def diff(self) -> str:
        """The unified diff `remora review show` prints (made when first asked for)."""
        if self._diff is None:
            self._diff = render_diff(f.change for f in self.files)
        return self._diff

    @property
    def operation(self) -> str:
        return self.record.operation

    @property
    def node(self) -> str:
        return self.record.node_name

    @property
    def hunks(self) -> list[Hunk]:
        return [hunk for file in self.files for hunk in file.hunks]

    def file(self, rel: str) -> ChangeFile | None:
        return next((f for f in self.files if f.path == rel), None)

    def touches(self, rel: str) -> bool:
        return self.record.file_path == rel or self.file(rel) is not None


def find_node(nodes: Iterable[CSTNode], node_id: str) -> CSTNode | None:
    return next((n for n in nodes if n.node_id == node_id), None)


@dataclass
class _Cached:
    stamp: tuple[object, ...]
    change: PendingChange


@dataclass
class ReviewQueue:
    """Open changes of one project; ``refresh`` re-reads the list, cheaply."""

    root: Path
    records: dict[str, ResultRecord] = field(default_factory=dict)
    _cache: dict[str, _Cached] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def has_state(self) -> bool:
        return (self.root / STATE_DIR).is_dir()

    @property
    def store(self) -> WorkspaceStore:
        return WorkspaceStore(self.root)

    def refresh(self) -> None:
        """The open results whose workspace still exists (never creates ``.remora/``)."""
        records: dict[str, ResultRecord] = {}
        if self.has_state:
            existing = set(self.store.ids())
            with ResultsDB(self.root) as db:
                for record in db.list(states=OPEN_STATES):
                    # Oldest first: a later result of the same workspace replaces it.
                    if record.workspace_id and record.workspace_id in existing:
                        records[record.workspace_id] = record
        with self._lock:
            self.records = records
            for stale in set(self._cache) - set(records):
                del self._cache[stale]

    def ids_for(self, rel: str) -> list[str]:
        with self._lock:
            return [
                workspace_id
                for workspace_id, record in self.records.items()
                if record.file_path == rel or rel in record.changed_files
            ]

    def for_file(self, rel: str) -> list[PendingChange]:
        out: list[PendingChange] = []
        for workspace_id in self.ids_for(rel):
            change = self.get(workspace_id)
            if change is not None and change.touches(rel):
                out.append(change)
        return out

    def get(self, workspace_id: str) -> PendingChange | None:
        """The open change ``workspace_id``; None when it is not (or no longer) open."""
        with self._lock:
            record = self.records.get(workspace_id)
        if record is None:
            return None
        store = self.store
        try:
            db_file = store.directory / f"{workspace_id}.db"
            stat = db_file.stat()
        except (FileNotFoundError, ValueError):
            return None
        # The change's "old" side is the project's file as it is now: its stat counts too.
        files = tuple(signature(self.root / rel) for rel in record.changed_files)
        stamp = (record.result_id, record.review_state, stat.st_mtime_ns, stat.st_size, files)
        cached = self._cache.get(workspace_id)
        if cached is not None and cached.stamp == stamp:
            return cached.change
        change = _load(store, workspace_id, record)
        if change is not None:
            self._cache[workspace_id] = _Cached(stamp, change)
        return change


def _load(store: WorkspaceStore, workspace_id: str, record: ResultRecord) -> PendingChange | None:
    if not store.exists(workspace_id):
        return None
    with store.open(workspace_id) as ws:
        if ws.accepting:  # an interrupted accept: `remora review accept` resumes it
            return None
        changes = ws.changes()
        # A change is shown against the file as it is now (merged into it when the file moved
        # on since the agent read it): that is its base here, unless it no longer merges.
        bases = {
            c.path: sha256(c.old) if c.old is not None and not c.conflict else ws.base_sha(c.path)
            for c in changes
        }
    hunks = change_hunks(changes)
    files = tuple(
        ChangeFile(
            change,
            tuple(h for h in hunks if h.path == change.path),
            bases[change.path],
            (None if change.old is None else sha256(change.old)) == bases[change.path],
        )
        for change in changes
    )
    return PendingChange(workspace_id, record, files, _node_span(files, record))


@functools.lru_cache(maxsize=32)
def _parsed(source: bytes, rel: str) -> tuple[CSTNode, ...]:
    """A file's nodes; many changes of one file share its parse."""
    nodes, _warnings = parse_source(source, rel, pack=load_query_pack())
    return tuple(nodes)


def _node_span(files: tuple[ChangeFile, ...], record: ResultRecord) -> tuple[int, int] | None:
    own = next((f for f in files if f.path == record.file_path), None)
    if own is None or own.change.old is None or own.change.binary:
        return None
    node = find_node(_parsed(own.change.old, own.path), record.node_id)
    if node is None or node.node_type == "file":
        return None
    return node.start_line - 1, node.end_line
