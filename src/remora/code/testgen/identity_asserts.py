"""A test that asserts only that a call returned its instance pins nothing: left out.

``result = grid.set_style(style=7); assert result is grid`` kills the mutant that turns
``return self`` into ``return None``, so the mutation check would keep it, yet it says
nothing of what the builder is for (the style it stores): every fluent method passes it.
A test whose every assert is an identity between two names (``result is grid``) or an
``isinstance`` is dropped before it is written, whoever wrote it (the search, a model's
source); one that also asserts the state the call changed, a value, or a raise stays.
Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from typing import Any

from remora import python_ast

__all__ = ["asserts_only_identity", "without_identity_only"]


def _identity(test: ast.expr) -> bool:
    """``a is b`` between two names, or ``isinstance(...)``."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is):
        return isinstance(test.left, ast.Name) and isinstance(test.comparators[0], ast.Name)
    return isinstance(test, ast.Call) and getattr(test.func, "id", "") == "isinstance"


def asserts_only_identity(source: str) -> bool:
    """Whether the test functions in ``source`` assert something and each assert is an
    identity or an ``isinstance`` (no ``pytest.raises`` either)."""
    try:
        tree = python_ast.parse(source)
    except SyntaxError:
        return False
    asserts: list[ast.Assert] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            asserts.append(node)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("raises", "warns"):
            return False
    return bool(asserts) and all(_identity(a.test) for a in asserts)


def without_identity_only(pieces: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """(the pieces that assert more than their call's identity, why each other is dropped)."""
    kept = [p for p in pieces if not asserts_only_identity(str(p.get("source", "")))]
    dropped = [
        f"{p['name']}: it asserts only that the call returned its instance"
        for p in pieces
        if p not in kept
    ]
    return kept, dropped
