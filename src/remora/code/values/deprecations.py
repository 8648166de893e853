"""Whether a function or class is deprecated, read from its own code with :mod:`ast`.

A function or class whose own body (a class's ``__init__`` or ``__new__``) warns with
``DeprecationWarning`` (``PendingDeprecationWarning``, ``FutureWarning``), or that a
``@deprecated`` decorator marks, is kept for old callers. Its docstring must say so
(:mod:`remora.code.docstring.deprecated`), and a test of it pins code on its way out
(:mod:`remora.code.testgen.shadowed_builtins`).
"""

from __future__ import annotations

import ast

from remora.code.values.annotations import called_name, head_name
from remora.python_ast import own_nodes

__all__ = ["deprecation_warning"]

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
_WARNINGS = frozenset({"DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"})


def _category(call: ast.Call) -> str:
    """The last name of a ``warn`` call's category (its second argument or ``category=``)."""
    given = [*call.args[1:2], *(k.value for k in call.keywords if k.arg == "category")]
    return head_name(given[0]) if given else ""


def _text(args: list[ast.expr]) -> str:
    """The first argument when it is a string written out ('' otherwise)."""
    first = args[0] if args else None
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""


def deprecation_warning(definition: Definition) -> str | None:
    """The text of the deprecation the definition warns of ('' when it has none to quote);
    None when it is not deprecated. A class warns through its ``__init__`` or ``__new__``."""
    for decorator in definition.decorator_list:
        if head_name(decorator) == "deprecated":  # @deprecated, @deprecated("…")
            return _text(decorator.args if isinstance(decorator, ast.Call) else [])
    statements = definition.body
    if isinstance(definition, ast.ClassDef):
        statements = [
            line
            for item in definition.body
            if isinstance(item, ast.FunctionDef) and item.name in ("__init__", "__new__")
            for line in item.body
        ]
    for node in own_nodes(statements):
        if not isinstance(node, ast.Call) or called_name(node) != "warn":
            continue
        if _category(node) in _WARNINGS:
            return _text(node.args)
    return None
