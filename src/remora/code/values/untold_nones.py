"""A ``None`` the code neither declares nor tells apart: a value it was never written for.

A parameter without an annotation whose default, if any, is not ``None``, and that the
function never compares with ``None`` (``is None``, ``== None``, its type's name with
``"NoneType"``) nor tests for truth (``if not title``, ``title or ""``), takes ``None``
only by accident: handed on, it reaches other code's most trivial path
(``str_coerce(None) == "None"``, ``dumps(None) == "null"``), stored, it is a value no
reader of the instance expects. The test agent asks whether a call reads such a
``None`` (:mod:`remora.code.testgen.unread_arguments`); the sample-data agent keeps no
set with one (:mod:`remora.code.samples.kept_sets`). Read with :mod:`ast`; nothing runs
here.
"""

from __future__ import annotations

import ast

from remora.code.values.parameters import function_parameters
from remora.code.values.type_tests import type_name_argument

__all__ = ["Function", "handles_none", "untold_none"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _named(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
    return isinstance(node, ast.Name) and node.id in names


def handles_none(function: Function, names: set[str]) -> bool:
    """Whether the function compares one of ``names`` with ``None`` or tests its truth."""
    for node in ast.walk(function):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            none = any(isinstance(o, ast.Constant) and o.value is None for o in operands)
            if none and any(_named(o, names) for o in operands):
                return True
            if _none_type_named(operands, names):
                return True
        elif isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            if _named(node.test, names):
                return True
        elif isinstance(node, ast.BoolOp) and any(_named(v, names) for v in node.values):
            return True
    return False


def _none_type_named(operands: list[ast.expr], names: set[str]) -> bool:
    """``type(x).__name__ == "NoneType"`` (or ``in (..., "NoneType")``): ``None`` told apart
    by its type's name."""
    typed = any(
        (argument := type_name_argument(o)) is not None and argument.id in names for o in operands
    )
    written = [
        item
        for o in operands
        for item in (o.elts if isinstance(o, ast.Tuple | ast.List | ast.Set) else [o])
    ]
    return typed and any(isinstance(i, ast.Constant) and i.value == "NoneType" for i in written)


def _undeclared(function: Function) -> set[str]:
    """The parameters without an annotation whose default (if any) is not ``None``."""
    parameters = function_parameters(function.args)
    return {p.name for p in parameters if p.annotation is None and p.default != "None"}


def untold_none(function: Function, name: str) -> bool:
    """Whether ``None`` for parameter ``name`` is a value the node neither declares (an
    annotation, a ``None`` default) nor tells apart."""
    return name in _undeclared(function) and not handles_none(function, {name})
