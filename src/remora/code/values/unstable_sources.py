"""Values that differ from run to run: a clock's or a random source's, not to be asserted.

A method that sets an attribute (``self.stamp = time.time()``) or stores an item
(``self[key] = random.random()``) from one of these calls, or from a local it assigned
from one, leaves a value no test can pin; so does a function that returns one
(``return cls(*date.today().isocalendar()[:2])``: a test would pin this week).
Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast

__all__ = ["from_unstable_source", "returns_unstable", "unstable_locals"]

Function = ast.FunctionDef | ast.AsyncFunctionDef

# Calls whose value differs from run to run: an attribute or item set from one is not asserted.
_UNSTABLE_CALLS = {"now", "utcnow", "today", "time", "time_ns", "monotonic", "perf_counter"}
_UNSTABLE_CALLS |= {"random", "randint", "uniform", "choice", "uuid1", "uuid4", "getpid", "id"}


def from_unstable_source(node: ast.AST, names: set[str]) -> bool:
    """Whether ``node`` calls a clock or a random source, or reads one of ``names`` (locals
    assigned from one: :func:`unstable_locals`)."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and inner.id in names:
            return True
        if isinstance(inner, ast.Call):
            callee = inner.func
            called = callee.id if isinstance(callee, ast.Name) else getattr(callee, "attr", "")
            if called in _UNSTABLE_CALLS:
                return True
    return False


def unstable_locals(method: Function) -> set[str]:
    """The local names ``method`` assigns from a clock or a random source."""
    return {
        target.id
        for node in ast.walk(method)
        if isinstance(node, ast.Assign) and from_unstable_source(node.value, set())
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def returns_unstable(function: Function) -> bool:
    """Whether a ``return`` of the function's own body hands back a value from a clock or
    a random source, or from a local assigned from one."""
    names = unstable_locals(function)
    return any(
        isinstance(node, ast.Return)
        and node.value is not None
        and from_unstable_source(node.value, names)
        for node in ast.walk(function)
    )
