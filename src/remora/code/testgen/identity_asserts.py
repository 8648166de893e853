"""A test that asserts only that a call returned its instance, or how many items it
returned, pins nothing of its values: left out.

``result = grid.set_style(style=7); assert result is grid`` kills the mutant that turns
``return self`` into ``return None``, so the mutation check would keep it, yet it says
nothing of what the builder is for (the style it stores): every fluent method passes it.
A test whose every assert is an identity between two names (``result is grid``) or an
``isinstance`` is dropped before it is written, whoever wrote it (the search, a model's
source); one that also asserts the state the call changed, a value, or a raise stays.
So is one whose asserts are only such and lengths (``assert len(result) == 2``, where the
probe could write no value of the items): it would pass were every item wrong, and a
blind reviewer rejected mistletoe's ``embed_span`` test so ("would still pass if the
trailer did not default to the leader"). Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from typing import Any

from remora import python_ast

__all__ = ["asserts_only_identity", "without_identity_only"]


def _length(test: ast.expr) -> bool:
    """``len(x) == 2``: a count, none of the items."""
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Call)
        and getattr(test.left.func, "id", "") == "len"
        and all(isinstance(c, ast.Constant) for c in test.comparators)
    )


def _identity(test: ast.expr) -> bool:
    """``a is b`` between two names, or ``isinstance(...)``."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is):
        return isinstance(test.left, ast.Name) and isinstance(test.comparators[0], ast.Name)
    return isinstance(test, ast.Call) and getattr(test.func, "id", "") == "isinstance"


def _asserts(source: str) -> list[ast.expr] | None:
    """The tests of the asserts in ``source``; None where it does not parse or checks a
    raise or a warning (``pytest.raises``)."""
    try:
        tree = python_ast.parse(source)
    except SyntaxError:
        return None
    asserts: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            asserts.append(node.test)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("raises", "warns"):
            return None
    return asserts


def _only_identity(asserts: list[ast.expr] | None) -> bool:
    return bool(asserts) and all(_identity(a) for a in asserts or [])


def asserts_only_identity(source: str) -> bool:
    """Whether the test functions in ``source`` assert something and each assert is an
    identity or an ``isinstance`` (no ``pytest.raises`` either)."""
    return _only_identity(_asserts(source))


def _only_counts(asserts: list[ast.expr] | None) -> bool:
    """Whether every assert is an identity, an ``isinstance`` or a length, one a length."""
    found = asserts or []
    return any(map(_length, found)) and all(_identity(a) or _length(a) for a in found)


def without_identity_only(pieces: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """(the pieces that assert more than their call's identity or how many items it
    returned, why each other is dropped)."""
    kept: list[dict[str, Any]] = []
    dropped: list[str] = []
    for piece in pieces:
        asserts = _asserts(str(piece.get("source", "")))  # parsed once for both questions
        if _only_identity(asserts):
            dropped.append(f"{piece['name']}: it asserts only that the call returned its instance")
        elif _only_counts(asserts):
            dropped.append(f"{piece['name']}: it asserts only how many items there are")
        else:
            kept.append(piece)
    return kept, dropped
