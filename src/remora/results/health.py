"""Whether ``.remora/remora.db`` can be trusted, and one clear error when it cannot.

The results database holds what no other file does (node names, review states,
reject reasons, history), so a damaged, foreign, unreadable or vanished one is
never used, never patched over and never silently replaced: it is a
:class:`DatabaseStateError` naming the file and what to do, the same in the CLI,
the library, ``remora serve`` and ``remora lsp`` (each shows a ``RemoraError``).

- before a connection is opened (:func:`check_file`): the path must be a regular
  file; a missing or empty one where one existed (``remora.db.made``, left beside
  it by :func:`mark_made` once it is whole, or its write-ahead log) is reported,
  not recreated;
- once opened: not another program's tables (:func:`check_not_foreign`), then
  after migrating (:func:`check_opened`) ``PRAGMA quick_check`` (SQLite's integrity
  check without the index cross-checks) and the tables and columns of this schema;
- on every use (:func:`translated`): SQLite's errors about the file (not a
  database, malformed, no such table or column, I/O) become the same error; a
  busy database and errors of Remora's own statements propagate as they are.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

from remora.errors import WorkspaceConflictError

__all__ = [
    "DatabaseStateError",
    "check_file",
    "check_not_foreign",
    "check_opened",
    "mark_made",
    "translated",
]

# The tables and columns schema.py creates; a database without them is another program's.
_EXPECTED_COLUMNS = {
    "runs": {"run_id", "started", "finished", "command", "config"},
    "results": {
        "result_id",
        "run_id",
        "node_id",
        "node_name",
        "file_path",
        "operation",
        "status",
        "workspace_id",
        "summary",
        "details",
        "error_code",
        "error_message",
        "turns",
        "usage",
        "duration_s",
        "degraded",
        "changed_files",
        "review_state",
        "created",
        "reject_reason",
        "rejected_diff",
        "change_signature",
        "accepted_hunks",
        "fingerprint",
        "also_removed",
    },
}


class DatabaseStateError(WorkspaceConflictError):
    """``.remora/remora.db`` is damaged, foreign, unreadable or missing (exit 2)."""


def _move_aside_hint(path: Path) -> str:
    state = path.parent
    return (
        f"move the state folder aside (mv {state} {state}.damaged) and run again: Remora "
        "starts a new one; the project's files are not touched"
    )


def _error(path: Path, problem: str) -> DatabaseStateError:
    return DatabaseStateError(f"{path}: {problem}", _move_aside_hint(path))


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".made")


def _earlier_state(path: Path) -> str | None:
    """What in the state folder says the results database ``path`` existed, or None."""
    for witness in (_marker(path), path.with_name(path.name + "-wal")):
        if witness.exists():
            return f"{witness} says it existed"
    return None


def mark_made(path: Path) -> None:
    """Leave the witness that the database ``path`` exists (once; a stat afterwards), so
    its loss is reported instead of a new empty one taking its place."""
    marker = _marker(path)
    if not marker.exists():
        marker.write_text(
            f"Remora made {path.name} here. If it goes missing, Remora reports it instead "
            "of starting an empty one; remove the whole folder to start afresh.\n"
        )


def check_file(path: Path) -> None:
    """Refuse ``path`` before SQLite opens it: not a regular file, or missing (or emptied)
    while the state folder holds what earlier runs left."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        size = None
    except OSError as exc:
        raise _error(path, f"cannot be read ({exc.strerror or exc})") from exc
    else:
        if not stat.S_ISREG(st.st_mode):
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            raise _error(path, f"is {kind}, not Remora's results database")
        size = st.st_size
    if size:
        return
    earlier = _earlier_state(path)
    if earlier is not None:
        state = "is empty" if size == 0 else "is missing"
        raise DatabaseStateError(
            f"{path} {state}, but {earlier}: the review history (node names, "
            "decisions, reject reasons) is gone",
            f"restore {path.name} from a backup, or {_move_aside_hint(path)}",
        )


def check_not_foreign(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a database of another program before migrating it: Remora sets the schema
    version in the transaction that makes its tables, so version 0 with tables is not ours."""
    conn.execute("BEGIN")  # one snapshot: another process may be making the tables now
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
    finally:
        conn.execute("COMMIT")
    if version == 0 and tables:
        raise _error(
            path, f"was not written by Remora (another schema: tables {', '.join(tables[:5])})"
        )


def check_opened(conn: sqlite3.Connection, path: Path) -> None:
    """The opened database is whole (``quick_check``) and has this schema's tables."""
    rows = conn.execute("PRAGMA quick_check(1)").fetchall()
    if [tuple(row) for row in rows] != [("ok",)]:
        raise _error(path, f"is damaged (SQLite's integrity check: {rows[0][0]})")
    for table, columns in _EXPECTED_COLUMNS.items():
        found = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if not columns <= found:
            raise _error(
                path,
                f"was not written by Remora (table {table!r} lacks "
                f"{', '.join(sorted(columns - found))})",
            )


# Errors about the machine or another process, not the file: shown as they are (the CLI's
# hint for them is to free disk space, fix permissions, or let the other process finish).
_ABOUT_THE_MACHINE = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_INTERRUPT,
    }
)


def _is_about_the_file(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says the file is not what it should be (not busy, not our SQL)."""
    if isinstance(exc, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _ABOUT_THE_MACHINE:
        return False
    return isinstance(exc, sqlite3.DatabaseError)


@contextlib.contextmanager
def translated(path: Path) -> Iterator[None]:
    """SQLite's errors about ``path`` itself as a :class:`DatabaseStateError`."""
    try:
        yield
    except sqlite3.Error as exc:
        if not _is_about_the_file(exc):
            raise
        raise _error(path, f"is damaged or not a database (SQLite: {exc})") from exc
