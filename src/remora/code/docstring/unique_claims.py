"""A summary that promises unique values rests on code that keeps them apart.

"Generate a unique identifier for an element within a specified range." on dicttoxml's
``make_id``, which appends a random number to the element's name: nothing there keeps
two identifiers apart (its neighbour ``get_unique_id`` does, by looking each new one up
among those already made). Its blind reviewer: false. "unique" (``uniquely``,
``deduplicate``) claims something the code must show: a set (a ``set``/``frozenset``
call, a set display or comprehension, ``dict.fromkeys``, a ``set`` return annotation),
a look-up among what it has already (``x not in seen``), a fresh identifier
(``uuid``), a counter (``itertools.count``, ``next(...)``), or a call whose name says it
(``unique_everseen``, ``get_unique_id``). A function or method that shows none of these
in its body is refused such a summary. Read with :mod:`ast`; the summary as words.
"""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import node_definition
from remora.code.docstring.facts import name_words, word_tokens
from remora.code.parsing import SourceNode

__all__ = ["unshown_uniqueness"]

_CLAIMS = frozenset({"unique", "uniquely", "deduplicate", "deduplicates", "deduplicated"})
_SET_CALLS = frozenset({"set", "frozenset", "fromkeys", "count", "next"})
_SAYING_WORDS = frozenset({"unique", "uniq", "uuid", "uuid1", "uuid4", "dedup", "dedupe"})


def unshown_uniqueness(node: SourceNode, summary: str) -> str:
    """Why the summary's "unique" is refused ('' when it says none, or the code shows it)."""
    if not _CLAIMS & set(word_tokens(summary)):
        return ""
    function = node_definition(node)
    if function is None or _keeps_apart(function):
        return ""
    return (
        f"it says 'unique', but nothing in {node.ref.full_name} keeps values apart (no set, no "
        "check of what it already has, no counter or uuid); say what it builds, not a "
        "property it does not ensure"
    )


def _keeps_apart(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    if function.returns is not None and _called_name(function.returns) in ("set", "frozenset"):
        return True
    for node in ast.walk(function):
        if isinstance(node, ast.Set | ast.SetComp):
            return True
        if isinstance(node, ast.Compare) and _looks_up_own(node):
            return True
        if isinstance(node, ast.Call):
            name = _called_name(node.func)
            if name in _SET_CALLS or _SAYING_WORDS & name_words(name):
                return True
    return False


def _looks_up_own(node: ast.Compare) -> bool:
    """``x in seen`` or ``x not in seen``: a look-up among what the code holds, not among
    constants written out (``kind in ("a", "b")``)."""
    return any(
        isinstance(op, ast.In | ast.NotIn) and not _written_out(right)
        for op, right in zip(node.ops, node.comparators, strict=True)
    )


def _written_out(node: ast.expr) -> bool:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(isinstance(item, ast.Constant) for item in node.elts)
    return isinstance(node, ast.Constant)


def _called_name(node: ast.expr) -> str:
    """``set`` of ``set``, ``typing.Set[int]`` and ``dict.fromkeys``: the last name."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr.lower() if node.attr != "Set" else "set"
    if isinstance(node, ast.Name):
        return node.id.lower() if node.id != "Set" else "set"
    return ""
