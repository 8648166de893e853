"""A ruff record's fix as byte edits of the text it was found in.

Ruff's JSON gives each edit as 1-based (row, character column) locations and the content
that replaces the span between them; the lint agent applies, compares and tidies them as
``(start, end, content)`` byte spans.
"""

from __future__ import annotations

from typing import Any

from remora.code.parsing import line_starts

__all__ = ["Edit", "byte_offset", "fix_edits", "flagged_code"]

Edit = tuple[int, int, bytes]


def byte_offset(data: bytes, starts: list[int], row: int, column: int) -> int:
    """Byte offset of ruff's 1-based (row, character column).

    A fix that removes a file's last line ends at (last row + 1, 1): one past the last byte.
    """
    if row > len(starts):
        return len(data)
    line_start = starts[row - 1]
    line = data[line_start : starts[row] if row < len(starts) else len(data)]
    return line_start + len(line.decode("utf-8")[: column - 1].encode("utf-8"))


def fix_edits(data: bytes, record: dict[str, Any], starts: list[int] | None = None) -> list[Edit]:
    """The byte edits of the record's fix ([] when it has none); ``starts``: ``data``'s line
    starts, where the caller has them."""
    fix = record.get("fix") or {}
    starts = starts if starts is not None else line_starts(data)
    return [
        (
            byte_offset(data, starts, e["location"]["row"], e["location"]["column"]),
            byte_offset(data, starts, e["end_location"]["row"], e["end_location"]["column"]),
            str(e.get("content") or "").encode("utf-8"),
        )
        for e in fix.get("edits") or []
    ]


def flagged_code(data: bytes, record: dict[str, Any]) -> bytes:
    """The code a record flags, as it reads (its place moves when lines are removed)."""
    starts = line_starts(data)
    begin, end = (record[k] for k in ("location", "end_location"))
    return data[
        byte_offset(data, starts, begin["row"], begin["column"]) : byte_offset(
            data, starts, end["row"], end["column"]
        )
    ]
