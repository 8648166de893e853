"""An import a ``# type:`` comment uses is used: ruff's F401 does not read type comments.

Code that supports Python 2 annotates in comments (``# type: (URL, bool) -> None``);
mypy and pyflakes read them, ruff does not, so its F401 calls ``Callable`` unused where
only a type comment names it, and its safe fix removes the import: hyperlink's blind
reviewer rejected both such fixes ("removing them breaks the mypy tox environment").
The comments are read by Python's own parser (:func:`remora.python_ast.parse` with
``type_comments`` puts each on its node), each parsed again as the signature or the
expression it is.
"""

from __future__ import annotations

import ast
import functools
from typing import Any

from remora import python_ast

__all__ = ["used_in_type_comment"]


def _names(comment: str, signature: bool) -> set[str]:
    """The names a type comment reads (``typing.List`` reads ``typing``); none for one
    that does not parse (``# type: ignore[...]`` is no annotation)."""
    try:
        tree: ast.AST = (
            python_ast.parse_signature_comment(comment)
            if signature
            else python_ast.parse_expression(comment)
        )
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _positions(alias: ast.alias) -> list[tuple[int, int]]:
    """Where ruff may point at an imported name (line, 1-based column): the module's start,
    and an ``as`` name's (``t`` of ``import typing as t``)."""
    found = [(alias.lineno, alias.col_offset + 1)]
    if alias.asname and alias.end_lineno and alias.end_col_offset:
        found.append((alias.end_lineno, alias.end_col_offset - len(alias.asname) + 1))
    return found


@functools.lru_cache(maxsize=32)
def _read_by_comments(text: str) -> frozenset[tuple[int, int]]:
    """The positions of the imports whose bound name a type comment of ``text`` reads,
    from one parse that keeps the comments; none where it does not parse."""
    try:
        tree = python_ast.parse(text, type_comments=True)
    except (SyntaxError, ValueError):
        return frozenset()
    read: set[str] = set()
    imports: list[tuple[ast.alias, bool]] = []
    for node in ast.walk(tree):
        comment = getattr(node, "type_comment", None)
        if isinstance(comment, str):
            read |= _names(comment, isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))
        if isinstance(node, ast.Import | ast.ImportFrom):
            imports += [(alias, isinstance(node, ast.ImportFrom)) for alias in node.names]
    return frozenset(
        at
        for alias, named in imports
        if (alias.asname or (alias.name if named else alias.name.split(".")[0])) in read
        for at in _positions(alias)
    )


def used_in_type_comment(record: dict[str, Any], text: str) -> bool:
    """Whether ruff's record is an F401 of ``text`` whose import a type comment reads."""
    if record.get("code") != "F401":
        return False
    location = record.get("location") or {}
    return (location.get("row"), location.get("column")) in _read_by_comments(text)
