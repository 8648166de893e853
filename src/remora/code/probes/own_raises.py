"""Whether an exception a probed call raised is the node's behaviour or its set-up's failure.

A test that pins an exception says the node raises it. That holds when the node's
own code states it: a ``raise`` in the node (or in a function nested in it, a
method of a class node, a private helper of the node's module, which only the
module's own code reaches), stopped at by the probe
(:mod:`remora.code.probes.programs.call_probe` reports the frame an exception left and
whether a ``raise`` statement raised it). It does not hold for an exception raised
in other public code the call reached: a lookup on the empty registry the test
built, a ``KeyError`` of a container the set left empty is the fixture failing,
not a behaviour of the node (issue 56). Nor for one no ``raise`` states (an index
out of range, a division by zero): the set caused it. Nor for one a helper several
methods of the class share raises on its instance's own state alone (``if not
self._path: raise``, :mod:`.instance_guards`): the test built the instance unusable.
Nor a ``NotImplementedError`` of a stub its subclasses override, which the call reached
on an instance of the abstract base, nor the ``TypeError`` of ``raise NotImplemented``.
Unless the node's docstring names it: documented behaviour is pinned whichever code
raises it.
"""

from __future__ import annotations

import ast
from typing import Any

from remora.code.context import CodeContext
from remora.code.parsing import ast_definitions, ast_tree, located_definition, overridden_stub
from remora.code.probes.instance_guards import unusable_instance
from remora.code.values import CallTarget

__all__ = [
    "documented_exceptions",
    "in_file",
    "is_node_behaviour",
    "raise_is_behaviour",
    "raises_no_exception",
    "setup_failure",
    "setup_reason",
    "unusable_reason",
]


def documented_exceptions(docstring: str) -> frozenset[str]:
    """The words of a docstring that name an exception class (``KeyError``, ``OutOfStock``
    as an identifier of its own: ``Raises:`` sections and prose alike)."""
    spaced = "".join(c if c.isalnum() or c == "_" else " " for c in docstring)
    return frozenset(w for w in spaced.split() if w.isidentifier() and w[0].isupper())


def in_file(reported: str, file_path: str) -> bool:
    """Whether a file a probe reported (a frame's, where the sandbox had the project) is the
    project's file at ``file_path`` (relative to its root)."""
    where = reported.replace("\\", "/")
    return where == file_path or where.endswith("/" + file_path)


def is_node_behaviour(
    raised: dict[str, Any], qualname: str, file_path: str, documented: frozenset[str]
) -> bool:
    """Whether ``raised`` (a probe row's ``raised``) is the node's: named by its docstring
    (``documented``), or stated by a ``raise`` in the node's file, in the node itself, in
    code nested in it, or in a private helper of that file."""
    if str(raised.get("type", "")) in documented:
        return True
    frame = raised.get("frame")
    if not raised.get("stated") or not isinstance(frame, dict):
        return False
    if not in_file(str(frame.get("file", "")), file_path):
        return False
    function = str(frame.get("function", ""))
    if function == qualname or function.startswith(qualname + "."):
        return True
    outer = function.split(".<locals>.")[0].split(".")[-1]
    return outer.startswith("_") and not outer.endswith("__")


def _documented(context: CodeContext) -> frozenset[str]:
    node = context.bound_node()
    found = located_definition(context.node_file_text(), node.full_name, node.start_line)
    return documented_exceptions((ast.get_docstring(found) or "") if found is not None else "")


def setup_reason(context: CodeContext, target: CallTarget, row: dict[str, Any]) -> str | None:
    """Why a row's exception is a failure of the call's own set-up, in words for a skip
    list; None for a row that raised nothing or what the node itself raises
    (:func:`is_node_behaviour`, less a shared helper's guard on an instance the test built
    unusable: :func:`~remora.code.probes.instance_guards.unusable_instance`)."""
    raised = row.get("raised")
    if not raised:
        return None
    documented = context.kept("documented exceptions", lambda: _documented(context))
    file_path = context.bound_node().file_path
    if not is_node_behaviour(raised, str(target["qualname"]), file_path, documented):
        return setup_failure(row)
    if _abstract_stub(context.node_file_text(), raised, str(target["qualname"])):
        return ABSTRACT_REASON
    if raises_no_exception(context.node_file_text(), raised):
        return NO_EXCEPTION_REASON
    return unusable_reason(context, target, row)


def _abstract_stub(text: str, raised: dict[str, Any], qualname: str) -> bool:
    """Whether ``raised`` is a ``NotImplementedError`` of a stub other than the node that a
    subclass in the module overrides: the instance is the abstract base."""
    frame = raised.get("frame") or {}
    function, line = str(frame.get("function", "")), frame.get("line")
    if raised.get("type") != "NotImplementedError" or function == qualname or line is None:
        return False
    short = function.rsplit(".", 1)[-1]
    return any(
        isinstance(d, ast.FunctionDef | ast.AsyncFunctionDef)
        and d.name == short
        and d.lineno <= line <= (d.end_lineno or d.lineno)
        and overridden_stub(text, d)
        for d in ast_definitions(text)
    )


def raises_no_exception(text: str, raised: dict[str, Any]) -> bool:
    """Whether ``raised`` is the ``TypeError`` of a ``raise`` whose operand is no exception
    (``raise NotImplemented``, a constant): Python refuses the statement, the code meant
    another exception."""
    frame = raised.get("frame") or {}
    line = frame.get("line")
    if raised.get("type") != "TypeError" or not isinstance(line, int):
        return False
    tree = ast_tree(text)
    return tree is not None and any(
        isinstance(node, ast.Raise)
        and node.lineno == line
        and (
            isinstance(node.exc, ast.Constant)
            or (isinstance(node.exc, ast.Name) and node.exc.id in ("NotImplemented", "None"))
        )
        for node in ast.walk(tree)
    )


def unusable_reason(context: CodeContext, target: CallTarget, row: dict[str, Any]) -> str | None:
    """The words of :func:`setup_reason` when the row's exception is a shared helper's
    guard on an instance the test built unusable
    (:func:`~remora.code.probes.instance_guards.unusable_instance`), not documented; else
    None: an instance built otherwise may run the method."""
    raised = row.get("raised")
    documented = context.kept("documented exceptions", lambda: _documented(context))
    if not raised or str(raised.get("type", "")) in documented:
        return None
    return unusable_instance(context.node_file_text(), str(target["qualname"]), raised)


def raise_is_behaviour(context: CodeContext, target: CallTarget, row: dict[str, Any]) -> bool:
    """True for a row that raised nothing or raised what the node itself raises; False
    for a failure of the call's own set-up (:func:`setup_reason`)."""
    return setup_reason(context, target, row) is None


# ``Expression().as_rule()`` reaching ``self._as_rhs()``, a stub every subclass defines:
# the test pins the base's placeholder, not what ``as_rule`` does (a blind reviewer:
# "only checks that the abstract base class raises NotImplementedError").
# jsonmerge's ``Strategy.merge``: ``raise NotImplemented`` fails with "exceptions must
# derive from BaseException"; two tests pinned that TypeError (its blind reviewer: "locks
# in the accidental TypeError", rejected as wrong).
NO_EXCEPTION_REASON = (
    "its raise statement raised no exception (``raise NotImplemented``): Python's TypeError "
    "is the code's bug, not a behaviour of the node"
)
ABSTRACT_REASON = (
    "it raised the NotImplementedError of an abstract base's stub that its subclasses "
    "override: the failure of the call's own set-up (an instance of the base), not a "
    "behaviour of the node"
)


def setup_failure(row: dict[str, Any]) -> str:
    """Why a row's exception is no behaviour of the node, in words for a skip list."""
    raised = row.get("raised") or {}
    frame = raised.get("frame") or {}
    where = f" in {frame['function']}" if frame.get("function") else ""
    how = "raised" if raised.get("stated") else "raised without a `raise` of the code"
    return (
        f"{how} {raised.get('type', 'an exception')}{where}: the failure of the call's own "
        "set-up, not the node's documented behaviour"
    )
