"""The classes and functions of a LibCST tree, found by walking only what can hold them."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Sequence

import libcst as cst

__all__ = [
    "Definition",
    "child_nodes",
    "field_names",
    "qualified_definitions",
    "statement_children",
]

Definition = cst.FunctionDef | cst.ClassDef


# What a statement body's definitions can be found under: indented suites, compound
# statements and their clauses (a body's own ``else``, ``except``, ``finally``, ``case``);
# a one-line suite (``if x: y()``) holds simple statements only.
_HOLD_STATEMENTS = (
    cst.BaseSuite,
    cst.BaseCompoundStatement,
    cst.Else,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.Finally,
    cst.MatchCase,
)


def qualified_definitions(
    module: cst.CSTNode, outer: Sequence[str] = ()
) -> Iterator[tuple[str, Definition]]:
    """Every class and function with its qualified name, in file order (also under if/try).

    ``module`` may also be one definition, ``outer`` the names of the definitions around it.
    """
    found: list[tuple[str, Definition]] = []
    stack: list[tuple[cst.CSTNode, tuple[str, ...]]] = [(module, tuple(outer))]
    while stack:
        node, names = stack.pop()
        if isinstance(node, cst.FunctionDef | cst.ClassDef):
            names = (*names, node.name.value)
            found.append((".".join(names), node))
        stack.extend((child, names) for child in reversed(statement_children(node)))
    return iter(found)


def statement_children(node: cst.CSTNode, *, simple: bool = False) -> list[cst.CSTNode]:
    """The children of ``node`` that may hold a class or function (``simple``: and its
    simple statement lines), in source order (a body before its ``else``/handlers):
    expressions, simple statements, whitespace, decorators and parameters hold none."""
    return [
        item
        for item in child_nodes(node)
        if (isinstance(item, _HOLD_STATEMENTS) and not isinstance(item, cst.SimpleStatementSuite))
        or (simple and isinstance(item, cst.SimpleStatementLine))
    ]


def child_nodes(node: cst.CSTNode, names: Sequence[str] | None = None) -> Iterator[cst.CSTNode]:
    """The nodes in ``node``'s fields (``names``: in these only), in field order: read from
    the fields, where LibCST's ``children`` and visits build every node they pass anew."""
    for name in field_names(type(node)) if names is None else names:
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            yield value
        elif isinstance(value, tuple | list):
            yield from (item for item in value if isinstance(item, cst.CSTNode))


@functools.cache
def field_names(kind: type[cst.CSTNode]) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(kind))
