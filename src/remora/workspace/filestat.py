"""A file's stat, to tell whether it changed since it was read without reading it again.

The inode, size and modification time change with every write, but the time
only moves at the kernel clock's tick: a file written twice within one tick, to
the same size, looks unchanged. As git does with its index, a file changed in
the last few seconds is not trusted to show a later change: what was read from
it is not kept (:func:`settled`).
"""

from __future__ import annotations

import os
import time

__all__ = ["Signature", "settled", "signature"]

# (inode, size, mtime in ns, mode); None: no such file
Signature = tuple[int, int, int, int] | None
_RACY_NS = 3_000_000_000


def signature(path: str | os.PathLike[str]) -> Signature:
    """``path``'s stat (symlinks followed), or None when there is nothing there to read."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns, found.st_mode


def settled(signatures: tuple[Signature, ...], *, missing_ok: bool = False) -> bool:
    """Whether every file is there (``missing_ok``: or not there, which a file made
    later changes) and none changed within the last few seconds."""
    recent = time.time_ns() - _RACY_NS
    return all(found[2] < recent if found is not None else missing_ok for found in signatures)
