"""Whole lines a fix removes take the blank lines they would double with them.

Ruff's fix of an unused or needless import (F401, UP010) removes the statement's line
and nothing around it. Between a blank line above and one below, two blank lines are
left where the file had one; at the file's start or end, blank lines are left where it
had none. A formatter (ruff format, black) would take them out, and a maintainer reads
them as the fix's mess. So a run of removed lines (removals with only blank lines
between them count as one) leaves as many blank lines as the longer run of blank lines
beside it had (``max(above, below)``), and none at the file's start or end. The text
is otherwise the fix's: :func:`tidied` keeps the widened edits only when Python reads
the result as the same module as the fix's own (a blank line inside a string is never
taken).
"""

from __future__ import annotations

import ast

from remora import python_ast
from remora.code.lint.record_edits import Edit
from remora.code.parsing import line_starts

__all__ = ["syntax_tree", "tidied"]


def _widened(data: bytes, edits: list[Edit]) -> list[Edit]:
    bounds = sorted({*line_starts(data), len(data)})
    line_at = {offset: index for index, offset in enumerate(bounds)}
    count = len(bounds) - 1

    def blank(index: int) -> bool:
        return not data[bounds[index] : bounds[index + 1]].strip()

    removals = sorted(
        (line_at[edit[0]], line_at[edit[1]], edit)
        for edit in edits
        if not edit[2] and edit[0] < edit[1] and edit[0] in line_at and edit[1] in line_at
    )
    others = [edit for edit in edits if all(edit is not r[2] for r in removals)]
    groups: list[tuple[int, int, list[Edit]]] = []
    for first, stop, edit in removals:
        if groups and all(blank(i) for i in range(groups[-1][1], first)):
            touched = bounds[groups[-1][1]], bounds[first]
            if not any(s < touched[1] and touched[0] < e for s, e, _ in others):
                groups[-1] = (groups[-1][0], stop, [*groups[-1][2], edit])
                continue
        groups.append((first, stop, [edit]))
    out = list(others)
    for first, stop, members in groups:
        above = next((n for n in range(first) if not blank(first - 1 - n)), first)
        below = next((n for n in range(count - stop) if not blank(stop + n)), count - stop)
        edge = first == above or stop + below == count  # blank lines only, to an end
        up, down = (above, below) if edge else (0, min(above, below))
        if up or down or len(members) > 1:
            out.append((bounds[first - up], bounds[stop + down], b""))
        else:
            out += members
    return out


def syntax_tree(data: str | bytes) -> str | None:
    """The text's syntax tree, dumped (formatting and comments aside); None where it does
    not parse."""
    try:
        return ast.dump(python_ast.parse(data))
    except (SyntaxError, ValueError):
        return None


def apply(data: bytes, edits: list[Edit]) -> bytes:
    """``data`` with each (start, end, content) edit made; the edits do not overlap."""
    for start, end, content in sorted(edits, reverse=True):
        data = data[:start] + content + data[end:]
    return data


def tidied(data: bytes, edits: list[Edit]) -> bytes:
    """``data`` with the edits made, removed lines taking the blank lines they would double
    (the edits as they are when the result would read otherwise, or not parse)."""
    plain = apply(data, edits)
    widened = _widened(data, edits)
    if sorted(widened) == sorted(edits):
        return plain
    tidy = apply(data, widened)
    same = (reads := syntax_tree(plain)) is not None and reads == syntax_tree(tidy)
    return tidy if same else plain
