"""A parameter looked for in a text another holds: ``search in subject``, ``s.endswith(end)``.

The typical set gives each parameter a value of its own (``"sample subject"``,
``"sample search"``), so the one looked for is never found and a predicate's every call
answers no: ``contains(subject="sample subject", search="sample search") is False``,
which ``return False`` passes too. Where the code asks whether one parameter holds
another (``a in b``, ``a not in b``, ``b.startswith(a)``, ``b.endswith(a)``) and the
typical set gives both texts, the one looked for gets a part of the other's value, where
it sits: its last word for ``in`` and ``endswith``, its first for ``startswith`` (half of
a one-word text). Where the typical set has it found already, a text longer than the
other, so not found. A key looked up in a dict parameter is
:mod:`.collection_arguments`'s (``key_is_a_key_of_d``). Read with :mod:`ast`; nothing
runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from remora.code.values.parameters import parameter_names

__all__ = ["held_arguments"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# The string methods asking whether a text begins or ends with their argument.
_ENDS = {"startswith": "starts", "endswith": "ends"}


def _asked(function: Function, params: set[str]) -> Iterator[tuple[str, str, str]]:
    """``(sought, holder, where)`` for each test of one parameter in another; ``where`` is
    ``in``, ``starts`` or ``ends``."""
    for node in ast.walk(function):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
                if (
                    isinstance(op, ast.In | ast.NotIn)
                    and isinstance(left, ast.Name)
                    and isinstance(right, ast.Name)
                    and left.id != right.id
                    and {left.id, right.id} <= params
                ):
                    yield left.id, right.id, "in"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _ENDS
            and isinstance(node.func.value, ast.Name)
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.func.value.id != node.args[0].id
            and {node.func.value.id, node.args[0].id} <= params
        ):
            yield node.args[0].id, node.func.value.id, _ENDS[node.func.attr]


def _text_part(text: str, where: str) -> str:
    words = text.split()
    if len(words) > 1:
        return words[0] if where == "starts" else words[-1]
    half = len(text) // 2
    return text[: max(half, 1)] if where == "starts" else text[half:]


def _found(sought: str, text: str, where: str) -> bool:
    if where == "in":
        return sought in text
    return text.startswith(sought) if where == "starts" else text.endswith(sought)


def held_arguments(function: Function, base: Mapping[str, Any]) -> list[tuple[str, Any, str]]:
    """``(parameter, value, words)`` for each text parameter the code looks for in another:
    a part of the other's text in ``base`` (``search_in_subject``,
    ``text_ends_with_suffix``), or, where ``base`` has it found already, a text the other
    does not hold (``search_not_in_subject``)."""
    out: list[tuple[str, Any, str]] = []
    for sought, holder, where in _asked(function, parameter_names(function)):
        if sought not in base or holder not in base:
            continue
        value, held = base[sought], base[holder]
        if not (isinstance(value, str) and isinstance(held, str) and held):
            continue
        found_words = (
            f"{sought}_in_{holder}" if where == "in" else f"{holder}_{where}_with_{sought}"
        )
        missing_words = (
            f"{sought}_not_in_{holder}"
            if where == "in"
            else f"{holder}_does_not_{where.removesuffix('s')}_with_{sought}"
        )
        if _found(value, held, where):
            out.append((sought, f"{held} {held}x", missing_words))  # longer than the other
        else:
            out.append((sought, _text_part(held, where), found_words))
    return out
