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
from remora.code.values.annotations import called_name, head_name

__all__ = ["unshown_uniqueness"]

_CLAIMS = frozenset({"unique", "uniquely", "deduplicate", "deduplicates", "deduplicated"})
_SETS = frozenset({"set", "frozenset"})
_SET_CALLS = _SETS | {"fromkeys", "count", "next"}
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
    if function.returns is not None and head_name(function.returns).lower() in _SETS:
        return True
    for node in ast.walk(function):
        if isinstance(node, ast.Set | ast.SetComp):
            return True
        if isinstance(node, ast.Compare) and _looks_up_own(node):
            return True
        if isinstance(node, ast.Call):
            name = called_name(node).lower()
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
