"""The workspace folder's ids, listed at most every few seconds and kept up to date in between.

A run that leaves a change supersedes the older workspaces of its node, which
needs the ids starting with ``<operation>-<node_id>``. Globbing for them reads
every entry of the folder (54 ms at 60,000 workspaces), once per changed run:
quadratic over a large project's analyze. Here the sorted ids are kept; this
store's own creates and removes update them, and the folder is listed again
once the list is ``REFRESH_S`` old, so workspaces another process made are
seen within that time; a listing of them all, to show, reads the folder each
time. (The folder's modification time cannot tell: sqlite adds and removes
each database's side files there as it writes.) What a workspace not seen yet
can cost is a supersede missed, an older change left in the review queue
beside the newer one; nothing is lost.
"""

from __future__ import annotations

import bisect
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["REFRESH_S", "FolderIds"]

REFRESH_S = 5.0


class FolderIds:
    """The stems of the ``*.db`` files of ``directory`` that ``keep`` accepts, sorted."""

    def __init__(self, directory: Path, keep: Callable[[str], bool]) -> None:
        self._directory = directory
        self._keep = keep
        self._ids: list[str] | None = None
        self._listed_at = 0.0
        self._lock = threading.Lock()  # runs create and remove from worker threads too

    def starting_with(self, prefix: str = "", *, fresh: bool = False) -> list[str]:
        """The ids starting with ``prefix``; with ``fresh`` the folder is listed now."""
        with self._lock:
            if fresh or self._ids is None or time.monotonic() - self._listed_at > REFRESH_S:
                try:
                    with os.scandir(self._directory) as entries:
                        stems = [e.name[:-3] for e in entries if e.name.endswith(".db")]
                except (FileNotFoundError, NotADirectoryError):
                    return []
                self._ids = sorted(stem for stem in stems if self._keep(stem))
                self._listed_at = time.monotonic()
            ids = self._ids
            start = bisect.bisect_left(ids, prefix)
            stop = start
            while stop < len(ids) and ids[stop].startswith(prefix):
                stop += 1
            return ids[start:stop]

    def note(self, workspace_id: str, *, present: bool) -> None:
        """This store just made (``present``) or removed ``workspace_id``'s file."""
        with self._lock:
            ids = self._ids
            if ids is None:
                return
            at = bisect.bisect_left(ids, workspace_id)
            there = at < len(ids) and ids[at] == workspace_id
            if present and not there:
                ids.insert(at, workspace_id)
            elif not present and there:
                del ids[at]
