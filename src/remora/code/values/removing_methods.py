"""Methods that only take items away: ``pop``, ``remove``, ``del self.cache[key]``.

A method that changes what another reads may fill an instance for that other's test
(:mod:`.filled_instances`), unless every change it makes takes something away: an
instance "filled" by ``pop(index=-1)`` holds nothing a test may say it stored. Read with
:mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from remora.code.values.method_state import (
    MUTATORS,
    first_parameter,
    is_self_attribute,
    reached_methods,
)

__all__ = ["only_takes_away"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# The in-place changes that take items away: a method making only these fills nothing.
_REMOVERS = frozenset({"pop", "popitem", "remove", "discard", "clear", "popleft"})


def only_takes_away(candidate: Function, siblings: Mapping[str, Function]) -> bool:
    """Whether every change ``candidate`` makes to its instance's state, itself or through
    the methods it calls on it, takes something away (``self._set.remove(value)``,
    ``self.items.pop(index)``, ``del self.cache[key]``): such a method (``pop(index=-1)``)
    fills nothing, and an instance "filled" by it holds nothing a test may say it stored."""
    for current in reached_methods(candidate, siblings):
        self_name = first_parameter(current)
        for node in ast.walk(current):
            if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                inner = [t.value if isinstance(t, ast.Subscript) else t for t in targets]
                if self_name and any(is_self_attribute(t, self_name) for t in inner):
                    return False
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in MUTATORS - _REMOVERS
            ):
                return False
    return True
