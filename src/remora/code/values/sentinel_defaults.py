"""A parameter the code compares with the name its default is: a set that leaves it out.

``def first(pred, seq=MISSING): if seq is MISSING: ...`` branches on whether the
caller passed the parameter at all. Its default is a sentinel object (a module's
``MISSING = object()``, an imported ``no_default``) that no value a test can write
is, so every set that passes the parameter takes the other side. A set without it
takes this one. Read from the syntax tree: a comparison (``is``, ``is not``, ``==``,
``!=``) of the parameter with an expression written as its default is, where that
default is a name or attribute, not a literal (``x is None`` with ``x=None`` is a
boundary of its own: :mod:`remora.code.values.input_search`).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from remora import python_ast
from remora.code.values.parameters import parameter_names

__all__ = ["sentinel_parameters"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
_IDENTITY = (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)


def _named(source: str | None) -> str | None:
    """The ``ast.dump`` of a default written as a name or dotted name, else None."""
    if source is None:
        return None
    try:
        tree = python_ast.parse_expression(source)
    except SyntaxError:
        return None
    node: ast.expr = tree
    while isinstance(node, ast.Attribute):
        node = node.value
    if not isinstance(node, ast.Name) or node.id in ("None", "True", "False"):
        return None
    return ast.dump(tree)


def sentinel_parameters(function: Function, defaults: Mapping[str, str | None]) -> list[str]:
    """The parameters ``function`` compares with their own default's name (``defaults``: a
    parameter's default as written, None without one), in ``defaults``' order."""
    params = parameter_names(function)
    wanted = {n: d for n in defaults if n in params and (d := _named(defaults[n])) is not None}
    found: set[str] = set()
    for node in ast.walk(function):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
            if not isinstance(op, _IDENTITY):
                continue
            for subject, other in ((left, right), (right, left)):
                if isinstance(subject, ast.Name) and wanted.get(subject.id) == ast.dump(other):
                    found.add(subject.id)
    return [n for n in wanted if n in found]
