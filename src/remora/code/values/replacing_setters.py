"""Whether a method replaces what its instance holds rather than adding to it.

A parser state's ``process(src)`` sets ``self.src = src``: called twice, it holds the
second text alone, so a test built by calling it twice and named ``holding_2_entries``
claims a state the instance never had (a blind reviewer: "process() replaces src, so
there is only one string"). :func:`replaces_state` says so of such an adder: every change
it makes (itself or through the methods of its class it calls) to the attributes a method
reads is a plain assignment ``self.x = ...`` whose value does not read ``self.x``; an
augmented assignment, an item or a mutator call (``self.items.append(...)``), or a value
built from the old one (``self.total = self.total + n``) adds. Read with :mod:`ast`.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping

from remora.code.values.method_state import (
    MUTATORS,
    first_parameter,
    is_self_attribute,
    reached_methods,
)

__all__ = ["replaces_state"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _reads_attribute(value: ast.AST, self_name: str, attribute: str) -> bool:
    return any(
        isinstance(node, ast.Attribute)
        and node.attr == attribute
        and is_self_attribute(node, self_name)
        for node in ast.walk(value)
    )


def _changes(method: Function, read: Collection[str]) -> list[bool]:
    """For each change ``method``'s own body makes to an attribute in ``read``, whether it
    replaces the attribute (True) or adds to it (False)."""
    self_name = first_parameter(method)
    if self_name is None:
        return []
    found: list[bool] = []
    for node in ast.walk(method):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and is_self_attribute(target, self_name):
                    if target.attr in read:
                        value = node.value
                        kept = value is not None and _reads_attribute(value, self_name, target.attr)
                        found.append(not kept)
                elif isinstance(target, ast.Subscript) and _on_read(target.value, self_name, read):
                    found.append(False)
        elif isinstance(node, ast.AugAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Delete) else [node.target]
            found += [False for target in targets if _on_read(target, self_name, read)]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
            and _on_read(node.func.value, self_name, read)
        ):
            found.append(False)
    return found


def _on_read(node: ast.AST, self_name: str, read: Collection[str]) -> bool:
    """Whether ``node`` is ``self.x`` or ``self.x[...]`` for an ``x`` in ``read``."""
    inner = node.value if isinstance(node, ast.Subscript) else node
    return (
        isinstance(inner, ast.Attribute)
        and inner.attr in read
        and is_self_attribute(inner, self_name)
    )


def replaces_state(
    adder: Function, read: Collection[str], siblings: Mapping[str, Function]
) -> bool:
    """Whether every change ``adder`` makes to the attributes in ``read`` (through the
    methods of its class it calls too) replaces the attribute; False where it makes none."""
    changes = [
        change for method in reached_methods(adder, siblings) for change in _changes(method, read)
    ]
    return bool(changes) and all(changes)
