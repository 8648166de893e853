"""A workspace's sqlite file: its schema, opening it, and writing one built in memory.

A run's workspace is built in memory and written once, whole, when the run
ends (:func:`save_image`): a file database in WAL mode cost ~2 ms of CPU per changed
run to create, journal and checkpoint (three files made and two removed),
about a tenth of a docstring run's own work on a large project. The file
appears complete or not at all, so another process never reads a half-built
workspace; a run killed before its end leaves only its empty claim, which it
never offered for review anyway.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from remora.errors import WorkspaceConflictError

__all__ = [
    "SCHEMA_VERSION",
    "connect",
    "create",
    "in_memory",
    "keep_base_text",
    "save_image",
]

SCHEMA_VERSION = 2
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- content NULL and deleted 1: the agent deleted a project file
CREATE TABLE IF NOT EXISTS overlay(
    path TEXT PRIMARY KEY, content BLOB, deleted INTEGER NOT NULL DEFAULT 0);
-- sha NULL: the file did not exist in the project when first touched
CREATE TABLE IF NOT EXISTS bases(path TEXT PRIMARY KEY, sha TEXT);
-- the base's bytes of each file the overlay changes, for merging into a later file (merge.py)
CREATE TABLE IF NOT EXISTS base_texts(path TEXT PRIMARY KEY, content BLOB NOT NULL);
-- the accept journal: present rows mean an accept is under way (see accept.py)
CREATE TABLE IF NOT EXISTS accept_plan(
    seq INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, action TEXT NOT NULL, mode INTEGER);
"""
# The database header's "file format write/read version" bytes: 2 is WAL mode
# (sqlite.org/fileformat.html, section 1.3.4), what connect() would set on open.
_FORMAT_VERSIONS = slice(18, 20)
_WAL = b"\x02\x02"


def connect(db_path: Path) -> sqlite3.Connection:
    """A connection usable from worker threads (callers serialise with a lock)."""
    conn = sqlite3.connect(db_path, check_same_thread=False, isolation_level=None, timeout=30)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode survives a killed process; accept raises it to FULL
        # before it journals, where a power loss must not lose the plan either.
        conn.execute("PRAGMA synchronous=NORMAL")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.OperationalError:  # locked by another process, ...: not the file's fault
        conn.close()
        raise
    except sqlite3.DatabaseError as exc:  # not a database, or a damaged one
        conn.close()
        raise WorkspaceConflictError(
            f"workspace {db_path} cannot be read: {exc}",
            f"reject it: `remora review reject {db_path.stem}`",
        ) from None
    if version > SCHEMA_VERSION:
        conn.close()
        raise WorkspaceConflictError(
            f"workspace {db_path.name} was written by a newer Remora "
            f"(schema {version} > {SCHEMA_VERSION})",
            "upgrade Remora, or reject the workspace",
        )
    if version < SCHEMA_VERSION:
        _create_schema(conn)
    return conn


def in_memory() -> sqlite3.Connection:
    """An empty workspace database in memory, for :func:`save_image` to write."""
    conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    conn.deserialize(_empty_image())
    return conn


def create(
    db_path: Path | None, meta: Mapping[str, str], bases: Mapping[str, str | None]
) -> sqlite3.Connection:
    """A workspace's database with its metadata and the bases recorded so far: in memory
    for ``db_path`` None (written whole later, :func:`save_image`), else that file."""
    conn = in_memory() if db_path is None else connect(db_path)
    try:
        conn.execute("BEGIN")
        conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", meta.items())
        conn.executemany("INSERT OR IGNORE INTO bases(path, sha) VALUES (?, ?)", bases.items())
        conn.execute("COMMIT")
    except BaseException:
        conn.close()
        raise
    return conn


@functools.cache
def _empty_image() -> bytes:
    """The schema made once per process: copying its image in is ~3x cheaper than making it."""
    conn = sqlite3.connect(":memory:")
    try:
        _create_schema(conn)
        return conn.serialize()
    finally:
        conn.close()


def _create_schema(conn: sqlite3.Connection) -> None:
    conn.executescript(_SCHEMA)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def keep_base_text(
    conn: sqlite3.Connection, path: str, text: bytes, *, replace: bool = False
) -> None:
    """Keep the bytes of ``path``'s base (replacing those kept, with ``replace``)."""
    verb = "REPLACE" if replace else "IGNORE"
    conn.execute(f"INSERT OR {verb} INTO base_texts(path, content) VALUES (?, ?)", (path, text))


def save_image(conn: sqlite3.Connection, db_path: Path) -> None:
    """Write the in-memory database ``conn`` to ``db_path`` at once, replacing what is there.

    The image goes to a temporary file beside it, fsynced (as a WAL checkpoint
    would), then replaces ``db_path``: a reader sees the old file or the whole
    new one. It is marked as a WAL database, so opening it later writes nothing.
    """
    image = bytearray(conn.serialize())
    image[_FORMAT_VERSIONS] = _WAL
    # Not a *.db name: the store's listing never takes it for a workspace.
    part = db_path.with_name(f".{db_path.name}.{os.getpid()}.part")
    try:
        with open(part, "wb") as out:
            out.write(image)
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, db_path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
