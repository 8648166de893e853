"""A call given ``None`` for every argument, where the node never tells ``None`` apart.

``fake_isbn(None, author=None, publisher=None, sid=None) == "None663243286"``: each ``None``
went through ``"%s" %`` formatting as the text "None", and a blind reviewer rejected the
test: it "locks in a value for input that never happens". A call of two or more arguments,
each ``None``, is no candidate unless the node compares one of those parameters with
``None`` (``is None``, ``== None``) or tests its truth (``if not title``, ``title or ""``),
where ``None`` is a case it handles, or hands one on as it is to a call of other code
(``is_valid(scheme, ...)``; not a builtin's, ``str(sid)``), which may. Read with
:mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping
from typing import Any

__all__ = ["unhandled_nones"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _named(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
    return isinstance(node, ast.Name) and node.id in names


def _builtin(func: ast.expr) -> bool:
    return isinstance(func, ast.Name) and func.id in vars(builtins)


def _handles_none(function: Function, names: set[str]) -> bool:
    """Whether the function compares one of ``names`` with ``None``, tests its truth or
    hands it to a call as it is."""
    for node in ast.walk(function):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            none = any(isinstance(o, ast.Constant) and o.value is None for o in operands)
            if none and any(_named(o, names) for o in operands):
                return True
        elif isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            if _named(node.test, names):
                return True
        elif isinstance(node, ast.BoolOp) and any(_named(v, names) for v in node.values):
            return True
        elif isinstance(node, ast.Call) and not _builtin(node.func):
            # handed on as it is: the callee may tell it apart (``str(sid)`` does not)
            given = [*node.args, *(k.value for k in node.keywords)]
            if any(isinstance(a, ast.Name) and a.id in names for a in given):
                return True
    return False


def unhandled_nones(row: Mapping[str, Any], function: Function) -> bool:
    """Whether the probed call gave ``None`` for each of its two or more arguments and the
    node handles ``None`` for none of them."""
    args = row.get("args") or {}
    if len(args) < 2 or any(value is not None for value in args.values()):
        return False
    return not _handles_none(function, set(args))
