"""The results database's schema, its migrations, and how a connection to it is opened."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from remora.errors import WorkspaceConflictError
from remora.results.health import (
    check_file,
    check_not_foreign,
    check_opened,
    mark_made,
    translated,
)

__all__ = ["SCHEMA_VERSION", "is_busy", "open_results"]

SCHEMA_VERSION = 4
# One entry per version: the script that brings version i to i + 1. Each runs in
# a write transaction that first re-reads the version, so two processes opening
# an old database at once apply it once.
_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE IF NOT EXISTS runs(
        run_id TEXT PRIMARY KEY, started REAL NOT NULL, finished REAL,
        command TEXT NOT NULL, config TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS results(
        result_id TEXT PRIMARY KEY, run_id TEXT NOT NULL REFERENCES runs(run_id),
        node_id TEXT NOT NULL, node_name TEXT NOT NULL, file_path TEXT NOT NULL,
        operation TEXT NOT NULL, status TEXT NOT NULL, workspace_id TEXT,
        summary TEXT NOT NULL, details TEXT NOT NULL, error_code TEXT, error_message TEXT,
        turns INTEGER NOT NULL, usage TEXT NOT NULL, duration_s REAL NOT NULL,
        degraded INTEGER NOT NULL, changed_files TEXT NOT NULL,
        review_state TEXT NOT NULL, created REAL NOT NULL);
    CREATE INDEX IF NOT EXISTS results_workspace ON results(workspace_id, created);
    CREATE INDEX IF NOT EXISTS results_state ON results(review_state);
    """,
    # 2: review decisions that teach: why a change was rejected, what it was
    # (diff and signature, so the same change is not proposed again), and
    # which hunks an accept took.
    """
    ALTER TABLE results ADD COLUMN reject_reason TEXT;
    ALTER TABLE results ADD COLUMN rejected_diff TEXT;
    ALTER TABLE results ADD COLUMN change_signature TEXT;
    ALTER TABLE results ADD COLUMN accepted_hunks TEXT;
    CREATE INDEX IF NOT EXISTS results_node_operation ON results(node_id, operation, created);
    """,
    # 3: the digest of everything that went into a run (node text, agent files,
    # model, options), so an unchanged node × operation is not run again.
    """
    ALTER TABLE results ADD COLUMN fingerprint TEXT;
    """,
    # 4: what an accept removed beyond the change (the imports it made unused), per file.
    """
    ALTER TABLE results ADD COLUMN also_removed TEXT;
    """,
)
assert len(_MIGRATIONS) == SCHEMA_VERSION

_BUSY_TIMEOUT_S = 30.0


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` is SQLite's "database is locked" (another connection holds it); False
    for an error raised by hand, which has no SQLite code."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF == sqlite3.SQLITE_BUSY


def _wal_mode(conn: sqlite3.Connection, wait_s: float) -> None:
    """Switch ``conn``'s database to WAL, waiting up to ``wait_s`` for other processes.

    Two processes opening a new database at once (two commands started together in a
    fresh project, such as two ``remora review accept``) both read it, then ask to write
    its header: SQLite refuses one at once ("database is locked") instead of calling the
    busy handler, since waiting could deadlock. The other has switched it a moment later,
    and the next try finds WAL already.
    """
    deadline = time.monotonic() + wait_s
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if not is_busy(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def open_results(path: Path, *, durable: bool = True) -> sqlite3.Connection:
    """A connection to the results database at ``path`` (made or migrated as needed), in WAL
    mode, shared by threads (the caller holds a lock around each use).

    ``durable=False`` (an analyze's recording): a commit does not wait for the disk. WAL
    keeps the database whole whatever happens; a power cut (not a crash) can lose the last
    results, which the next analyze runs again. A flush on a real disk takes 1-5 ms, on the
    event loop that serves every agent: 24 agents in one process (click at 200 ms) kept
    11.5-12.0 requests in flight with a 2 ms flush per commit, 13.8-14.2 without it,
    14.5-14.8 with no flush anywhere. A person's review decisions keep ``durable``.
    """
    with _making(path):
        check_file(path)
        conn = sqlite3.connect(
            path, check_same_thread=False, isolation_level=None, timeout=_BUSY_TIMEOUT_S
        )
        conn.row_factory = sqlite3.Row
        try:
            with translated(path):
                _wal_mode(conn, _BUSY_TIMEOUT_S)
                if not durable:
                    conn.execute("PRAGMA synchronous=NORMAL")
                check_not_foreign(conn, path)
                _migrate(conn, path)
                check_opened(conn, path)
            mark_made(path)
        except BaseException:
            conn.close()
            raise
    return conn


@contextlib.contextmanager
def _making(path: Path) -> Iterator[None]:
    """While ``path`` is missing or empty, one process at a time opens it (an exclusive
    ``flock`` on its folder): another process's check would see the write-ahead log of
    a database being made and take it for one that was lost."""
    try:
        whole = os.stat(path).st_size > 0
    except FileNotFoundError:
        whole = False
    if whole:
        yield
        return
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        yield
    finally:
        os.close(folder)  # closing the last descriptor releases the lock


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise WorkspaceConflictError(
            f"{path} was written by a newer Remora (schema {version} > {SCHEMA_VERSION})",
            "upgrade Remora, or move the database aside",
        )
    for index in range(version, SCHEMA_VERSION):
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if current == index:  # else another process has just done it
                for statement in _MIGRATIONS[index].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {index + 1}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
