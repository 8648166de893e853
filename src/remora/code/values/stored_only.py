"""Whether a method only keeps what it is given for a parameter, or works with it.

A method that fills an instance before the call (:mod:`.filled_instances`) is given a
second typical value for each required parameter. Where nothing says what that value is,
the search makes one up (``"other value"``). A cache's ``put(key, value)`` only keeps its
value (``self.slots[key] = value``): any value shows what the method under test does
with the entry, and the made-up one is as good as another. A writer's ``handle(data)``
feeds its text to a parser: ``handle("other data")`` fills it with words no page holds
(html2text's tests of what it emits: "made-up text, not HTML", a blind reviewer). So a
made-up value is given only to a parameter the method keeps as it is or looks up as it
is: stored under a key or an attribute, put in a container (``append``, ``add``,
``insert``, ``setdefault``, ...), returned, or used as a key (``value in self._seen``,
``self.store[value]``, ``self.store.get(value)``); never one it calls, reads an attribute
or an item of, computes with, compares with a value, or hands to another function. Read
with :mod:`ast`.
"""

from __future__ import annotations

import ast

__all__ = ["only_stored"]

Function = ast.FunctionDef | ast.AsyncFunctionDef

# The methods of the built-in containers that keep an argument, or look it up, as it is.
_KEEPING = frozenset(
    {"append", "appendleft", "add", "insert", "setdefault", "extend", "update", "push", "put"}
    | {"get", "pop", "remove", "discard", "index", "count", "__contains__"}
)


def only_stored(function: Function, name: str) -> bool:
    """Whether every read of the parameter ``name`` in ``function`` keeps it as it is (see
    the module's words); True where the function never reads it."""
    kept: set[int] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.Return | ast.Yield):
            kept.add(id(node.value))  # stored or handed back
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _KEEPING
        ):
            kept |= {id(a) for a in node.args} | {id(k.value) for k in node.keywords}
        elif isinstance(node, ast.Compare) and all(
            isinstance(op, ast.In | ast.NotIn) for op in node.ops
        ):
            kept.add(id(node.left))  # a look-up: ``value in self._seen``
        elif isinstance(node, ast.Subscript):
            kept.add(id(node.slice))  # a key: ``self.store[value]``
        elif isinstance(node, ast.Tuple | ast.List) and isinstance(node.ctx, ast.Load):
            kept |= {id(e) for e in node.elts if id(node) in kept}
    reads = [
        n
        for n in ast.walk(function)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]
    return all(id(read) in kept for read in reads)
