"""One agent run's copy-on-write view of the project, kept in a sqlite file.

The overlay holds only what the agent wrote or deleted; every other read falls
through to the live project, so creating a workspace copies nothing. The first
time a project file is read or written its sha256 is recorded as the *base*:
accept compares the live file with it to find files the user changed meanwhile.

A fresh workspace (``meta`` given) is lazy: its metadata and bases stay in
memory and the sqlite database is only created by the first change, in one
transaction. Most runs change nothing, and for them no database is written.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path

from remora.errors import WorkspaceConflictError
from remora.workspace.database import connect, create, keep_base_text, save_image
from remora.workspace.diff import FileChange, render_diff
from remora.workspace.filestat import Signature, settled, signature
from remora.workspace.paths import (
    is_skipped,
    normalise,
    project_entries,
    walk_files,
)
from remora.workspace.rebase import current_changes

__all__ = ["Workspace", "sha256"]


# A workspace's revision and the stat of each file its database changes.
_Stats = tuple[int, tuple[Signature, ...]]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Workspace:
    """The merged view (overlay over project) of one agent run.

    Safe to share between asyncio tasks and worker threads: one connection,
    opened with ``check_same_thread=False``, guarded by a lock.

    With ``meta`` the workspace is new and lazy (nothing is read from or written
    to ``db_path`` until the first change); without, the database is opened.
    A ``buffered`` lazy workspace (a run's own) keeps its changes in memory until
    :meth:`close` (or :meth:`connection`) writes them to ``db_path`` at once (database.py).
    """

    def __init__(
        self,
        workspace_id: str,
        project_root: Path,
        db_path: Path,
        *,
        meta: Mapping[str, str] | None = None,
        buffered: bool = False,
    ) -> None:
        self.id = workspace_id
        self.project_root = project_root.resolve()
        self.db_path = db_path
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._buffered = buffered and meta is not None
        self._unsaved = False  # _conn is the in-memory database, not db_path's yet
        self._kept_changes: tuple[_Stats, tuple[str, ...], list[FileChange]] | None = None
        self._bases: dict[str, str | None] = {}
        self._base_texts_kept: set[str] = set()  # paths whose base bytes are in base_texts
        # Read once: the metadata only changes through set_meta, which keeps this current.
        self._meta_values: dict[str, str] = dict(meta or {})
        if meta is None:
            self._conn = connect(db_path)
            self._bases = dict(self._conn.execute("SELECT path, sha FROM bases").fetchall())
            self._meta_values = dict(self._conn.execute("SELECT key, value FROM meta").fetchall())
        self.revision = 0  # changes made through this object: what was read may be kept
        self.manifests: dict[str, dict[str, str]] = {}  # folder -> {path: sha} sync.py put

    # -- metadata ---------------------------------------------------------

    def meta(self, key: str) -> str | None:
        """One metadata value (operation, node_id, created, run, ...); None when unset."""
        with self._lock:
            return self._meta_values.get(key)

    def set_meta(self, **values: str) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.executemany(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", list(values.items())
                )
            self._meta_values.update(values)

    @property
    def written(self) -> bool:
        """Whether there is a database (a buffered one in memory): not for a lazy one unchanged."""
        return self._conn is not None

    def _database(self) -> sqlite3.Connection:
        """The connection; a lazy workspace's database is created now, with what it kept."""
        if self._conn is None:
            path = None if self._buffered else self.db_path
            self._conn = create(path, self._meta_values, self._bases)
            self._unsaved = self._buffered
        return self._conn

    def _to_disk(self) -> None:
        """Write the in-memory database to ``db_path``, which holds it from then on."""
        if self._conn is not None and self._unsaved:
            save_image(self._conn, self.db_path)
            self._conn.close()
            self._conn = connect(self.db_path)
            self._unsaved = False

    @property
    def operation(self) -> str:
        return self.meta("operation") or ""

    @property
    def node_id(self) -> str:
        return self.meta("node_id") or ""

    @property
    def created(self) -> float:
        return float(self.meta("created") or 0.0)

    @property
    def accepting(self) -> bool:
        """True while an accept journal is present (an accept started, not finished)."""
        with self._lock:
            if self._conn is None:
                return False
            return self._conn.execute("SELECT 1 FROM accept_plan LIMIT 1").fetchone() is not None

    # -- paths --------------------------------------------------------------

    def safe_path(self, rel: str) -> str:
        """``rel`` normalised, or :class:`WorkspacePathError` (WORKSPACE_002)."""
        return normalise(self.project_root, rel)

    def _file_path(self, rel: str) -> str:
        clean = self.safe_path(rel)
        if clean == ".":
            raise IsADirectoryError(f"{rel!r} is the project root, not a file")
        return clean

    def live(self, clean: str) -> bytes | None:
        """The project's own file at ``clean`` (a path from :meth:`safe_path`); None: none."""
        path = self.project_root / clean
        try:
            return path.read_bytes() if path.is_file() else None
        except FileNotFoundError:  # removed between the check and the read
            return None

    def live_mode(self, clean: str) -> int | None:
        try:
            return os.stat(self.project_root / clean).st_mode & 0o7777
        except FileNotFoundError:
            return None

    def _row(self, clean: str) -> tuple[bytes | None, bool] | None:
        if self._conn is None:
            return None
        row = self._conn.execute(
            "SELECT content, deleted FROM overlay WHERE path=?", (clean,)
        ).fetchone()
        if row is None:
            return None
        return (None if row[0] is None else bytes(row[0])), bool(row[1])

    def _base_sha(
        self, clean: str, live: bytes | None = None, *, known: bool = False
    ) -> str | None:
        """The recorded base sha, recording it from the live file on first touch."""
        if clean in self._bases:
            return self._bases[clean]
        if not known:
            live = self.live(clean)
        sha = None if live is None else sha256(live)
        if self._conn is not None:
            self._conn.execute("INSERT OR IGNORE INTO bases(path, sha) VALUES (?, ?)", (clean, sha))
        self._bases[clean] = sha
        return sha

    def _guard_writable(self, clean: str) -> None:
        if self.accepting:
            raise WorkspaceConflictError(
                f"workspace {self.id} is being accepted; it can no longer change",
                f"run `remora review accept {self.id}` to finish the accept",
            )
        if (self.project_root / clean).is_dir() or self._overlay_dir(clean):
            raise IsADirectoryError(f"{clean!r} is a directory")
        parts = clean.split("/")
        for depth in range(1, len(parts)):
            parent = "/".join(parts[:depth])
            if self._exists_file(parent):
                raise NotADirectoryError(f"{parent!r} is a file, so {clean!r} cannot be created")

    # -- reading ------------------------------------------------------------

    def read(self, rel: str) -> bytes | None:
        """The merged content of a file; None when missing or deleted."""
        clean = self.safe_path(rel)
        if clean == ".":
            return None
        with self._lock:
            row = self._row(clean)
            if row is not None:
                return None if row[1] else row[0]
            live = self.live(clean)
            self._base_sha(clean, live, known=True)
            return live

    def _exists_file(self, clean: str) -> bool:
        row = self._row(clean)
        if row is not None:
            return not row[1]
        return (self.project_root / clean).is_file()

    def _overlay_dir(self, clean: str) -> bool:
        if self._conn is None:
            return False
        prefix = "" if clean == "." else clean + "/"
        row = self._conn.execute(
            "SELECT 1 FROM overlay WHERE deleted=0 AND path > ? AND path < ? LIMIT 1",
            (prefix, prefix[:-1] + "0" if prefix else "\U0010ffff"),
        ).fetchone()
        return row is not None

    def exists(self, rel: str) -> bool:
        clean = self.safe_path(rel)
        with self._lock:
            return clean == "." or self._exists_file(clean) or self.is_dir(clean)

    def is_dir(self, rel: str) -> bool:
        clean = self.safe_path(rel)
        if clean == ".":
            return True
        with self._lock:
            return (self.project_root / clean).is_dir() or self._overlay_dir(clean)

    def list_dir(self, rel: str = ".") -> list[str]:
        """Entries of a directory in the merged view, sorted; directories end with "/"."""
        clean = self.safe_path(rel)
        with self._lock:
            if not self.is_dir(clean):
                if self._exists_file(clean):
                    raise NotADirectoryError(f"{rel!r} is a file")
                raise FileNotFoundError(f"no directory {rel!r}")
            entries = project_entries(self.project_root, clean, self.safe_path)
            prefix = "" if clean == "." else clean + "/"
            rows = self.overlay_listing(prefix)
            for path, deleted in rows:
                rest = path[len(prefix) :]
                if "/" in rest:
                    if not deleted:
                        entries.add(rest.split("/", 1)[0] + "/")
                elif deleted:
                    entries.discard(rest)
                else:
                    entries.add(rest)
            return sorted(entries)

    def iter_files(self) -> Iterator[str]:
        """Every file of the merged view, sorted (skipping state, envs and caches)."""
        with self._lock:
            files = {
                rel for rel, _ in walk_files(self.project_root, follow_inside=self.project_root)
            }
            for path, deleted in self.overlay_listing(""):
                if deleted:
                    files.discard(path)
                elif not is_skipped(path):
                    files.add(path)
        return iter(sorted(files))

    def overlay_listing(self, prefix: str) -> list[tuple[str, int]]:
        """(path, deleted) of the overlay rows under the folder ``prefix`` ("" for all)."""
        with self._lock:
            if self._conn is None:
                return []
            return self._conn.execute(
                "SELECT path, deleted FROM overlay WHERE path > ? AND path < ?",
                (prefix, prefix[:-1] + "0" if prefix else "\U0010ffff"),
            ).fetchall()

    # -- writing ------------------------------------------------------------

    def write(self, rel: str, data: bytes) -> None:
        """Store ``data`` for ``rel``; content equal to the base is not a change."""
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"write() needs bytes, got {type(data).__name__}")
        blob = bytes(data)
        clean = self._file_path(rel)
        with self._lock:
            self._guard_writable(clean)
            first_touch = clean not in self._bases
            live = self.live(clean) if first_touch else None
            base = self._base_sha(clean, live, known=first_touch)
            if sha256(blob) == base:
                self._forget(clean)
            else:
                conn = self._database()
                conn.execute(
                    "INSERT OR REPLACE INTO overlay(path, content, deleted) VALUES (?, ?, 0)",
                    (clean, blob),
                )
                if live is None and base is not None and clean not in self._base_texts_kept:
                    live = self.live(clean)
                if live is not None and sha256(live) == base:  # for merging (rebase.py)
                    keep_base_text(conn, clean, live)
                    self._base_texts_kept.add(clean)
            self.revision += 1

    def delete(self, rel: str) -> None:
        """Delete a file from the merged view (a no-op when it is not there)."""
        clean = self._file_path(rel)
        with self._lock:
            self._guard_writable(clean)
            if self._base_sha(clean) is None:
                # created by the agent (or never there): nothing left to delete
                self._forget(clean)
            else:
                self._database().execute(
                    "INSERT OR REPLACE INTO overlay(path, content, deleted) VALUES (?, NULL, 1)",
                    (clean,),
                )
            self.revision += 1

    def _forget(self, clean: str) -> None:
        """No overlay row for ``clean`` (a lazy workspace has none to remove)."""
        if self._conn is not None:
            self._conn.execute("DELETE FROM overlay WHERE path=?", (clean,))

    # -- changes ------------------------------------------------------------

    def overlay_rows(self) -> list[tuple[str, bytes | None, bool]]:
        with self._lock:
            if self._conn is None:
                return []
            rows = self._conn.execute(
                "SELECT path, content, deleted FROM overlay ORDER BY path"
            ).fetchall()
        return [(p, None if c is None else bytes(c), bool(d)) for p, c, d in rows]

    def record_bases(self, pairs: list[tuple[str, str | None]]) -> None:
        """Record base shas in bulk; already recorded paths keep their first base."""
        with self._lock:
            fresh = [(path, sha) for path, sha in pairs if path not in self._bases]
            if self._conn is not None:
                self._conn.executemany(
                    "INSERT OR IGNORE INTO bases(path, sha) VALUES (?, ?)", fresh
                )
            self._bases.update(fresh)

    def base_sha(self, clean: str) -> str | None:
        with self._lock:
            return self._base_sha(clean)

    def base_text(self, clean: str) -> bytes | None:
        """The file as the agent read it (b"" where there was none); None when not kept."""
        with self._lock:
            if self._base_sha(clean) is None:
                return b""
            row = None
            if self._conn is not None:
                row = self._conn.execute(
                    "SELECT content FROM base_texts WHERE path=?", (clean,)
                ).fetchone()
            return None if row is None else bytes(row[0])

    def rebase(self, clean: str, live: bytes, merged: bytes) -> None:
        """Make ``live`` the file's base and ``merged`` (the change merged into it) its content."""
        with self._lock:
            self._guard_writable(clean)
            conn = self._database()
            self._bases[clean] = sha = sha256(live)
            conn.execute("INSERT OR REPLACE INTO bases(path, sha) VALUES (?, ?)", (clean, sha))
            keep_base_text(conn, clean, live, replace=True)
            self.write(clean, merged)

    def changes(self) -> list[FileChange]:
        """What accepting would do, against the project as it is now (rebase.py).

        Kept while the database is this object's own, in memory (only its writes change
        it), and the project files it changed keep their stat: a run asks ~5 times.
        """
        with self._lock:
            kept = self._kept_changes
            if kept is not None and self._unsaved and kept[0] == self._stats(kept[1]):
                return list(kept[2])
            rows = self.overlay_rows()
            paths = tuple(path for path, _, _ in rows)
            stats = self._stats(paths)  # before the reads: a file changed meanwhile differs
            out = current_changes(self, rows)
            self._kept_changes = (stats, paths, out) if settled(stats[1]) else None
            return list(out)

    def _stats(self, paths: tuple[str, ...]) -> _Stats:
        return self.revision, tuple(signature(self.project_root / path) for path in paths)

    def changed_files(self) -> list[str]:
        return [change.path for change in self.changes()]

    def diff(self) -> str:
        """Unified diff (git-style headers) of every change; "" when nothing changed."""
        return render_diff(self.changes())

    # -- lifecycle ----------------------------------------------------------

    def connection(self) -> tuple[sqlite3.Connection, threading.RLock]:
        """The file's connection and its lock, for the accept journal (accept.py).

        The journal must be on disk before any project file is written, so a
        buffered workspace is saved first.
        """
        with self._lock:
            self._database()
            self._to_disk()
            assert self._conn is not None
            return self._conn, self._lock

    def close(self, *, save: bool = True) -> None:
        """Close the database; a buffered workspace's changes are written now (``save``),
        or dropped: a run that leaves nothing for review has its claim discarded next."""
        with self._lock:
            if self._conn is None:
                return
            try:
                if self._unsaved and save:
                    save_image(self._conn, self.db_path)
            finally:
                # Closed either way: a failed save is raised, not tried again.
                self._unsaved = False
                self._conn.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Workspace({self.id!r}, root={str(self.project_root)!r})"
