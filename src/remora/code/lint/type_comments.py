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


@functools.lru_cache(maxsize=32)
def _comment_names(text: str) -> frozenset[str]:
    """Every name the type comments of ``text`` read; none where it does not parse."""
    try:
        tree = python_ast.parse(text, type_comments=True)
    except (SyntaxError, ValueError):
        return frozenset()
    names: set[str] = set()
    for node in ast.walk(tree):
        comment = getattr(node, "type_comment", None)
        if isinstance(comment, str):
            signature = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            names |= _names(comment, signature)
    return frozenset(names)


@functools.lru_cache(maxsize=32)
def _bindings(text: str) -> dict[tuple[int, int], str]:
    """Each imported name's positions (line, 1-based column, as ruff reports them: the
    module's, and an ``as`` name's) and the name it binds."""
    try:
        tree = python_ast.parse(text)
    except SyntaxError:
        return {}
    bound: dict[tuple[int, int], str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                name = alias.asname or (
                    alias.name if isinstance(node, ast.ImportFrom) else alias.name.split(".")[0]
                )
                bound[(alias.lineno, alias.col_offset + 1)] = name
                if alias.asname and alias.end_lineno and alias.end_col_offset:
                    # ruff points at the name bound: ``t`` of ``import typing as t``
                    at = alias.end_col_offset - len(alias.asname) + 1
                    bound[(alias.end_lineno, at)] = name
    return bound


def used_in_type_comment(record: dict[str, Any], text: str) -> bool:
    """Whether ruff's record is an F401 of ``text`` whose import a type comment reads."""
    if record.get("code") != "F401":
        return False
    location = record.get("location") or {}
    row, column = location.get("row"), location.get("column")
    if not isinstance(row, int) or not isinstance(column, int):
        return False
    name = _bindings(text).get((row, column))
    return name is not None and name in _comment_names(text)
