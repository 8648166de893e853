"""A summary of deprecated code says that it is deprecated.

A function or class whose own body (a class's ``__init__`` or ``__new__``) warns with
``DeprecationWarning`` (``PendingDeprecationWarning``, ``FutureWarning``), or that a
``@deprecated`` decorator marks, is kept for old callers: the one thing its docstring
must tell a reader is not to use it. Blind reviewers rejected "Connect to the receiver
without any additional context." on such an alias ("a deprecated alias that warns, and
the docstring mentions neither"). A summary without a word of
deprecation is refused, and the model is shown the warning's own text.
"""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import own_nodes
from remora.code.docstring.facts import word_tokens
from remora.code.parsing import SourceNode, located_definition
from remora.code.values.annotations import called_name, head_name

__all__ = ["unsaid_deprecation"]

_WARNINGS = frozenset({"DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"})
_SHOWN = 120  # characters of the warning's text quoted to the model


def _category(call: ast.Call) -> str:
    """The last name of a ``warn`` call's category (its second argument or ``category=``)."""
    given = [*call.args[1:2], *(k.value for k in call.keywords if k.arg == "category")]
    return head_name(given[0]) if given else ""


def _text(args: list[ast.expr]) -> str:
    """The first argument when it is a string written out ('' otherwise)."""
    first = args[0] if args else None
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""


def _warning(definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str | None:
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


def unsaid_deprecation(node: SourceNode, summary: str) -> str:
    """Why ``summary`` may not stand for a deprecated function ('' when the function is not
    deprecated, or the summary says it is)."""
    if node.definition is None or any(t.startswith("deprecat") for t in word_tokens(summary)):
        return ""
    line = node.file.positions[node.definition].start.line
    definition = located_definition(node.file.text, node.ref.full_name, line)
    if definition is None:
        return ""
    warned = _warning(definition)
    if warned is None:
        return ""
    quoted = f" ({' '.join(warned.split())[:_SHOWN]!r})" if warned else ""
    return (
        f"it leaves out that {definition.name} is deprecated: it warns{quoted}; say so, and "
        "what to use instead: 'Deprecated: use … instead.'"
    )
