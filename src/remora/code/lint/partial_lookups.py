"""A loop's lookup fix that leaves the same lookup behind is refused.

Ruff's safe fix of PLR1733 (PLR1736 for ``enumerate``) replaces the reads of ``d[k]``
inside ``for k, v in d.items()`` with ``v``, but not a lookup it cannot replace: the
object of a store (``d[k][new] = d[k][old]`` becomes ``d[k][new] = v[old]``) or of a
``del``. The loop then names one object two ways, and a blind reviewer sent such a fix
back as "halfway". A fix is kept only when, together with the loop's other fixes made in
the same change, it leaves no lookup of the same form in the loop.
"""

from __future__ import annotations

import ast
from typing import Any

from remora import python_ast
from remora.code.lint.record_edits import Edit
from remora.code.parsing import line_starts

__all__ = ["partial_lookup_refusal"]

_LOOKUP_RULES = frozenset({"PLR1733", "PLR1736"})

_Loop = ast.For | ast.AsyncFor


def _span(node: ast.expr | ast.stmt, starts: list[int]) -> tuple[int, int]:
    """The byte span of ``node`` (``ast`` columns count UTF-8 bytes)."""
    end_line = node.end_lineno or node.lineno
    end_col = node.end_col_offset if node.end_col_offset is not None else node.col_offset
    return starts[node.lineno - 1] + node.col_offset, starts[end_line - 1] + end_col


def _lookup(data: bytes, edit: Edit) -> ast.Subscript | None:
    """The lookup an edit replaces (None when it replaces no subscript: the loop target
    ruff rewrites to name the value)."""
    try:
        expr = python_ast.parse_expression(data[edit[0] : edit[1]].decode("utf-8").strip())
    except (SyntaxError, UnicodeDecodeError):
        return None
    return expr if isinstance(expr, ast.Subscript) else None


def _keyed_loop(
    tree: ast.Module, lookup: ast.Subscript, offset: int, starts: list[int]
) -> _Loop | None:
    """The innermost ``for`` loop whose body holds byte ``offset`` and whose target's first
    name is the lookup's key (``for k, v in d.items()``: ``d[k]``)."""
    key = ast.unparse(lookup.slice)
    found: _Loop | None = None
    for node in ast.walk(tree):
        if not isinstance(node, _Loop) or not isinstance(node.target, ast.Tuple):
            continue
        first = node.target.elts[0] if node.target.elts else None
        start, end = _span(node.body[0], starts)[0], _span(node, starts)[1]
        if (
            first is not None
            and ast.unparse(first) == key
            and start <= offset <= end
            and (found is None or node.lineno >= found.lineno)
        ):
            found = node
    return found


def partial_lookup_refusal(
    data: bytes, record: dict[str, Any], edits: list[Edit], made: set[Edit]
) -> str:
    """Why ``record``'s fix (its ``edits`` of ``data``) is refused ('' when it is not): its
    loop keeps a lookup of the form it replaces that none of the fixes ``made`` with it
    replaces."""
    if record.get("code") not in _LOOKUP_RULES:
        return ""
    try:
        tree = python_ast.parse(data)
    except SyntaxError:  # syntax newer than this Python's: ruff's fix stands as it is
        return ""
    starts = line_starts(data)
    replaced = {(start, end) for start, end, _ in made}
    for edit in edits:
        lookup = _lookup(data, edit)
        loop = _keyed_loop(tree, lookup, edit[0], starts) if lookup else None
        if lookup is None or loop is None:
            continue
        text = ast.unparse(lookup)
        for node in ast.walk(loop):
            if (
                isinstance(node, ast.Subscript)
                and ast.unparse(node) == text
                and _span(node, starts) not in replaced
            ):
                return (
                    f"the fix names `{text}` by the loop's value but leaves `{text}` at "
                    f"line {node.lineno} (a store or `del` ruff does not rewrite): one object "
                    "under two names; rename it by hand, or leave the finding"
                )
    return ""
