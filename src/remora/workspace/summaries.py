"""What a listing shows of each workspace, kept while nothing it was read from changed.

A review queue of all of SQLAlchemy (21,563 changes) opened every workspace's database
and diffed its files on each listing: ~17 s for each view of the web queue or `remora
review list`. A workspace's summary (its operation and node, the files it changes and
their line counts, whether an accept is under way) only changes when its database or a
project file it touches does, so it is kept with their stats (filestat.py), in memory and
in ``.remora/summaries.db`` for the next process (summary_file.py), and used again while
they hold: a listing then stats files instead (3.8 s for `review list`, most of it the
interpreter's start and the results database). A file written in the last few seconds is
never trusted to show a later change, and a database with a write-ahead log beside it
(an accept under way, a process that died) is read again each time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from remora.workspace.filestat import Signature, settled, signature
from remora.workspace.summary_file import read_entries, write_entries

__all__ = ["Summaries", "WorkspaceSummary"]


@dataclass(frozen=True, slots=True)
class WorkspaceSummary:
    operation: str
    node_id: str
    accepting: bool
    changed_files: tuple[str, ...]  # what accepting would change, against the project now
    additions: int
    deletions: int
    # of those, the files whose change no longer merges into the project's (rebase.py)
    conflicted_files: tuple[str, ...]


# What a summary was read from: the database, its log, each touched project file.
_Stats = tuple[Signature, ...]
# Reads a workspace: its summary and the project files it touches (the overlay's paths).
Reader = Callable[[], tuple[WorkspaceSummary, tuple[Path, ...]]]


_Entry = tuple[_Stats, tuple[Path, ...], WorkspaceSummary]


class Summaries:
    """The summaries of one store's workspaces, by database file; with ``file``, also
    kept there for the next process (summary_file.py)."""

    def __init__(self, file: Path | None = None) -> None:
        self._kept: dict[Path, _Entry] = {}
        self._fresh: set[Path] = set()  # read since they were last written to the file
        self._file = file
        self._rows: set[Path] | None = None  # the file's rows, as last read or written
        self._lock = threading.Lock()  # a web server lists from several threads

    def load(self, dbs: Iterable[Path]) -> None:
        """What the file keeps, beside what this process read itself (preferred); not read
        again while this process has each of ``dbs``."""
        with self._lock:
            if self._file is None or all(db in self._kept for db in dbs):
                return
        try:
            found = {Path(db): _from_json(data) for db, data in read_entries(self._file).items()}
        except (KeyError, TypeError, ValueError):  # another shape (an older Remora): not used
            found = {}
        with self._lock:
            for db, entry in found.items():
                self._kept.setdefault(db, entry)
            self._rows = set(found)

    def save(self, dbs: Iterable[Path]) -> None:
        """Write what was read since the last save and drop the rows of databases not in
        ``dbs``; nothing when neither happened."""
        wanted = set(dbs)
        with self._lock:
            rows = self._rows
            if self._file is None or (not self._fresh and rows is not None and rows <= wanted):
                return
            fresh = {db: _to_json(self._kept[db]) for db in self._fresh if db in self._kept}
            self._fresh.clear()
        entries = {str(db): entry for db, entry in fresh.items()}
        written = write_entries(self._file, entries, {str(db) for db in wanted})
        with self._lock:
            self._rows = ((rows or set()) & wanted) | set(fresh) if written else None

    def get(self, db: Path, read: Reader) -> WorkspaceSummary:
        """``db``'s summary: the kept one while its sources keep their stats, else ``read``."""
        with self._lock:
            kept = self._kept.get(db)
        if kept is not None and _stats(db, kept[1]) == kept[0]:
            return kept[2]
        before = _stats(db, ())  # the database's own, before it is read
        summary, touched = read()
        stats = (*before, *(signature(path) for path in touched))
        with self._lock:
            if _trusted(stats):
                self._kept[db] = (stats, touched, summary)
                self._fresh.add(db)
            else:
                self._kept.pop(db, None)
        return summary

    def keep_only(self, dbs: Iterable[Path]) -> None:
        """Forget the workspaces not among ``dbs`` (removed since)."""
        wanted = set(dbs)
        with self._lock:
            for db in [db for db in self._kept if db not in wanted]:
                del self._kept[db]


def _stats(db: Path, touched: tuple[Path, ...]) -> _Stats:
    wal = db.with_name(db.name + "-wal")
    return (signature(db), signature(wal), *(signature(path) for path in touched))


def _trusted(stats: _Stats) -> bool:
    """The database there without a log, and nothing written in the last few seconds (a
    project file that is not there is trusted: one made later has a stat)."""
    database, log, *files = stats
    return log is None and settled((database,)) and settled(tuple(files), missing_ok=True)


def _to_json(entry: _Entry) -> dict[str, Any]:
    stats, touched, summary = entry
    return {
        "stats": [None if found is None else list(found) for found in stats],
        "touched": [str(path) for path in touched],
        "summary": {
            **asdict(summary),
            "changed_files": list(summary.changed_files),
            "conflicted_files": list(summary.conflicted_files),
        },
    }


def _from_json(data: dict[str, Any]) -> _Entry:
    kept = data["summary"]
    files = {key: tuple(kept[key]) for key in ("changed_files", "conflicted_files")}
    summary = WorkspaceSummary(**{**kept, **files})
    stats = tuple(None if found is None else _signature(found) for found in data["stats"])
    return stats, tuple(Path(path) for path in data["touched"]), summary


def _signature(found: list[int]) -> Signature:
    inode, size, modified, mode = found
    return inode, size, modified, mode
