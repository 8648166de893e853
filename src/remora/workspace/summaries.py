"""What a listing shows of each workspace, kept while nothing it was read from changed.

A review queue of all of SQLAlchemy (21,563 changes) opened every workspace's database
and diffed its files on each listing: ~17 s for each view of the web queue. A workspace's
summary (its operation and node, the files it changes and their line counts, whether an
accept is under way) only changes when its database or a project file it touches does,
so it is kept with their stats (filestat.py) and used again while they hold. A file
written in the last few seconds is never trusted to show a later change, and a database
with a write-ahead log beside it (an accept under way, a process that died) is read again
each time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from remora.workspace.filestat import Signature, settled, signature

__all__ = ["Summaries", "WorkspaceSummary"]


@dataclass(frozen=True, slots=True)
class WorkspaceSummary:
    operation: str
    node_id: str
    accepting: bool
    changed_files: tuple[str, ...]  # what accepting would change, against the project now
    additions: int
    deletions: int


# What a summary was read from: the database, its log, each touched project file.
_Stats = tuple[Signature, ...]
# Reads a workspace: its summary and the project files it touches (the overlay's paths).
Reader = Callable[[], tuple[WorkspaceSummary, tuple[Path, ...]]]


class Summaries:
    """The summaries of one store's workspaces, by database file."""

    def __init__(self) -> None:
        self._kept: dict[Path, tuple[_Stats, tuple[Path, ...], WorkspaceSummary]] = {}
        self._lock = threading.Lock()  # a web server lists from several threads

    def get(self, db: Path, read: Reader) -> WorkspaceSummary:
        """``db``'s summary: the kept one while its sources keep their stats, else ``read``."""
        with self._lock:
            kept = self._kept.get(db)
        if kept is not None and _stats(db, kept[1]) == kept[0]:
            return kept[2]
        before = _stats(db, ())  # the database's own, before it is read
        summary, touched = read()
        stats = (*before, *_stats(db, touched)[2:])
        with self._lock:
            if _trusted(stats):
                self._kept[db] = (stats, touched, summary)
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
