"""Where lines start and end in a file's bytes, lines broken at LF, CRLF and CR (as LibCST
and ruff break them).

A CR is looked for only between the offset and the nearest LF: an LF file has none, and
``data.find(b"\\r", offset)`` then read the rest of the file on every call (once per
definition of a file when a change was placed, quadratic in the file's size).
"""

from __future__ import annotations

import itertools

__all__ = ["line_break_at", "line_start_at", "line_starts"]


def line_starts(data: bytes) -> list[int]:
    """Byte offset of each line's start (``str.splitlines`` also breaks at form feeds and
    other separators, while ``bytes.splitlines`` breaks at these three only)."""
    starts = [0, *itertools.accumulate(map(len, data.splitlines(keepends=True)))]
    if len(starts) > 1 and not data.endswith((b"\n", b"\r")):
        starts.pop()  # the end of a last line without a line break starts no line
    return starts


def line_break_at(data: bytes, offset: int) -> int:
    """The first line break at or after ``offset`` (its CR of a CRLF); ``len(data)``: none."""
    lf = data.find(b"\n", offset)
    stop = len(data) if lf < 0 else lf
    cr = data.find(b"\r", offset, stop)
    return stop if cr < 0 else cr


def line_start_at(data: bytes, offset: int) -> int:
    """Where the line holding ``offset`` starts (just past the last line break before it)."""
    lf = data.rfind(b"\n", 0, offset)
    cr = data.rfind(b"\r", lf + 1, offset)
    return max(lf, cr) + 1
