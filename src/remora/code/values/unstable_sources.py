"""Values that differ from run to run: a clock's or a random source's, not to be asserted.

A method that sets an attribute (``self.stamp = time.time()``) or stores an item
(``self[key] = random.random()``) from one of these calls, or from a local it assigned
from one, leaves a value no test can pin; so does a function that returns one
(``return cls(*date.today().isocalendar()[:2])``: a test would pin this week), and a
method or property that returns what another of its class gives from a clock
(``return format(self.elapsed)`` where ``elapsed`` reads ``time.monotonic()``): a fresh
object's "0 seconds" holds until the machine is slow. A local is from such a source when
any assignment to it reads one (``total += now - start``). Read with :mod:`ast`;
nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

__all__ = ["from_unstable_source", "returns_unstable", "unstable_locals", "unstable_members"]

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


def _assigned(method: Function) -> list[tuple[str, ast.expr]]:
    """(local name, the value it is given) for every ``x = v``, ``x += v``, ``x: T = v``."""
    found: list[tuple[str, ast.expr]] = []
    for node in ast.walk(method):
        if isinstance(node, ast.Assign):
            found += [(t.id, node.value) for t in node.targets if isinstance(t, ast.Name)]
        elif (
            isinstance(node, ast.AugAssign | ast.AnnAssign)
            and node.value is not None
            and isinstance(node.target, ast.Name)
        ):
            found.append((node.target.id, node.value))
    return found


def unstable_locals(method: Function, members: Iterable[str] = ()) -> set[str]:
    """The local names ``method`` assigns from a clock or a random source, from another
    such local, or from ``self.<member>`` for one of ``members``."""
    assigned, read, owner = _assigned(method), set(members), _owner(method)
    names: set[str] = set()
    while True:
        grown = {n for n, value in assigned if _reads_unstable(value, names, read, owner)}
        if grown <= names:
            return names
        names |= grown


def _owner(method: Function) -> str:
    """The name a method's instance goes by (its first parameter's)."""
    positional = [*method.args.posonlyargs, *method.args.args]
    return positional[0].arg if positional else ""


def _reads_unstable(node: ast.AST, names: set[str], members: set[str], owner: str) -> bool:
    return from_unstable_source(node, names) or any(
        isinstance(inner, ast.Attribute)
        and isinstance(inner.value, ast.Name)
        and inner.value.id == owner
        and inner.attr in members
        for inner in ast.walk(node)
    )


def unstable_members(methods: Mapping[str, Function]) -> set[str]:
    """The methods and properties of one class (``methods``: by name) whose return reads
    a clock or a random source, directly, through a local or through another of them."""
    found: set[str] = set()
    while True:
        grown = {
            name
            for name, method in methods.items()
            if name not in found and _returns_from(method, found)
        }
        if not grown:
            return found
        found |= grown


def _returns_from(function: Function, members: set[str]) -> bool:
    names, owner = unstable_locals(function, members), _owner(function)
    return any(
        isinstance(node, ast.Return)
        and node.value is not None
        and _reads_unstable(node.value, names, members, owner)
        for node in ast.walk(function)
    )


def returns_unstable(function: Function, siblings: Mapping[str, Function] | None = None) -> bool:
    """Whether a ``return`` of the function's own body hands back a value from a clock or
    a random source, from a local assigned from one, or (``siblings``: the methods of its
    class, by name) from another method or property of its class that does."""
    if siblings:
        return function.name in unstable_members({**siblings, function.name: function})
    return _returns_from(function, set())
