"""Workspace summaries kept on disk, so a listing in a new process reads only what changed.

``.remora/summaries.db``, one row per workspace database: what summaries.py keeps in
memory (its summary, the stats it was read from and the project files it touches), as
JSON. It is a cache: a missing or damaged file is read as empty and written anew, and
one that cannot be written (locked by another listing for longer than the timeout, a
read-only folder) leaves the next listing to read the workspaces again, as before it.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from remora.workspace.summary_rows import row_check

__all__ = ["read_entries", "write_entries"]

_SCHEMA = "CREATE TABLE IF NOT EXISTS summaries(db TEXT PRIMARY KEY, entry TEXT NOT NULL)"
_TIMEOUT_S = 5.0
_DAMAGED = {"SQLITE_NOTADB", "SQLITE_CORRUPT"}


def read_entries(path: Path) -> dict[str, dict[str, Any]]:
    """Every kept entry by database path that passes summary_rows' checks; empty when there
    is no file or it cannot be read."""
    if not path.is_file():
        return {}
    try:
        uri = f"{path.resolve().as_uri()}?mode=ro"  # as_uri escapes a ? or # in the path
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as conn:
            rows = conn.execute("SELECT db, entry FROM summaries").fetchall()
        entries = {db: json.loads(entry) for db, entry in rows}
    except (sqlite3.Error, ValueError, TypeError):  # damaged, or not this schema: rebuilt
        return {}
    # A row that disagrees with itself or its workspace is dropped, never shown (summary_rows).
    valid = row_check(path.parent)
    return {db: data for db, data in entries.items() if valid(db, data)}


def write_entries(path: Path, entries: Mapping[str, dict[str, Any]], keep: Collection[str]) -> bool:
    """Store ``entries`` and drop the rows of databases not in ``keep``; False when the file
    could not be written (the entries are then only in this process's memory)."""
    try:
        _write(path, entries, keep)
    except sqlite3.Error as exc:  # locked past the timeout, a read-only folder, a full disk
        if exc.sqlite_errorname not in _DAMAGED:
            return False
        path.unlink(missing_ok=True)  # not a database any more: made anew, once
        try:
            _write(path, entries, keep)
        except sqlite3.Error:
            return False
    return True


def _write(path: Path, entries: Mapping[str, dict[str, Any]], keep: Collection[str]) -> None:
    with contextlib.closing(sqlite3.connect(path, timeout=_TIMEOUT_S)) as conn, conn:
        conn.execute(_SCHEMA)
        known = [db for (db,) in conn.execute("SELECT db FROM summaries")]
        wanted = set(keep)
        conn.executemany(
            "DELETE FROM summaries WHERE db=?", [(db,) for db in known if db not in wanted]
        )
        conn.executemany(
            "INSERT OR REPLACE INTO summaries(db, entry) VALUES (?, ?)",
            [(db, json.dumps(entry)) for db, entry in entries.items()],
        )
