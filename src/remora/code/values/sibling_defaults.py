"""A required constructor parameter takes the default the module gives that name elsewhere.

pyfiglet's ``FigletBuilder(text, font, direction: str, width: int, justify: str)``
requires all five and says nothing of their values; the module's ``Figlet(font=...,
direction='auto', justify='auto', width=80)`` does, and the builder is built from a
``Figlet``'s attributes of those names. Derived from the names alone, the builder was
given ``direction=""`` and ``width=1``: a blind reviewer's "nonsensical arguments; pass a
real value such as 'right-to-left'". Where every ``def`` of the module that defaults a
parameter of that name gives it the same literal, and that literal is of the annotated
kind (a non-empty text, a number, a truth value), it is the module's own word for it.

Read with :mod:`ast` only; nothing of the project runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from remora.code.values.annotations import annotation_head, parsed_annotation
from remora.code.values.derived_sets import literal_default
from remora.code.values.parameters import Parameter, function_parameters

__all__ = ["sibling_defaults"]

# The annotations a default may stand for, and the values of each kind.
_KINDS: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
    "": (str, int, float, bool),  # no annotation
}


def _module_defaults(module: ast.Module) -> dict[str, list[Any]]:
    """``{parameter name: the literal defaults the module's functions give it}``."""
    found: dict[str, list[Any]] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for parameter in function_parameters(node.args):
                known, value = literal_default(parameter.default)
                if known and value is not None:
                    found.setdefault(parameter.name, []).append(value)
    return found


def _fits(value: Any, annotation: str | None) -> bool:
    tree = parsed_annotation(annotation)
    kinds = _KINDS.get(annotation_head(tree) if tree is not None else "")
    if kinds is None or not isinstance(value, kinds) or value == "":
        return False
    return bool in kinds or not isinstance(value, bool)  # True is an int, not a number


def sibling_defaults(module: ast.Module, own: Sequence[Parameter]) -> dict[str, Any]:
    """``{parameter: value}`` for each required one of ``own`` that the module's other
    functions all default to one literal of its annotated kind."""
    defaults = _module_defaults(module)
    values: dict[str, Any] = {}
    for parameter in own:
        given = defaults.get(parameter.name, [])
        if not parameter.required or not given:
            continue
        first = given[0]
        same = all(type(value) is type(first) and value == first for value in given)
        if same and _fits(first, parameter.annotation):
            values[parameter.name] = first
    return values
