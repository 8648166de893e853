"""The type of an unannotated parameter, from the constants the code compares it with.

``def days(year, month)`` says nothing of ``month``; ``month in (1, 3, 5)`` and
``year % 4 == 0`` say both are numbers. A string there (``"sample month"``, guessed
from the name) passes every ``in`` and ``==`` test as not equal and reaches a branch by
accident, and its test pins an accident. :func:`compared_kinds` reads, for each
parameter compared (itself, or arithmetic of it) only with numbers or only with
strings, that kind and a typical value of it: a number in none of the literals it is
tested ``in`` (``month``: 2, the one that falls through), else the parameter's typical
number; the first string it is compared with. A parameter compared with both, or asked
``isinstance`` about, takes several kinds: none. Read with :mod:`ast`; nothing runs.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from remora.code.values.input_sources import Scope, derived_locals, local_constants
from remora.code.values.input_sources import module_constants as read_module_constants
from remora.code.values.parameters import Parameter, parameter_names
from remora.code.values.solved_values import anchor_of, is_arithmetic

__all__ = [
    "asked_about",
    "compared_base",
    "compared_kinds",
    "listed_members",
    "outside_member",
]

Function = ast.FunctionDef | ast.AsyncFunctionDef


def outside_member(values: list[Any], listed: set[Any]) -> Any:
    """A number in none of the literals the parameter is tested ``in``: in a gap of
    ``values`` where there is one (``(1, 3, 4)`` -> 2), else in a gap of all the literals
    (``(4, 6)`` beside ``(1, 3, 5)`` -> 2, not 7), else just above them all."""
    numbers = [*values, *(v for v in listed if isinstance(v, int))]
    for low, high in ((min(values), max(values)), (min(numbers), max(numbers))):
        for number in range(low, high):
            if number not in listed:
                return number
    return max(numbers) + 1


def listed_members(function: ast.AST, scope: Scope) -> dict[str, set[Any]]:
    """Each parameter's members of every literal it is tested ``in``."""
    found: dict[str, set[Any]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn):
            name = scope.parameter_in(node.left)
            if name is not None:
                found.setdefault(name, set()).update(scope.members(node.comparators[0]))
    return found


def _kind(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "other"
    return (
        "number" if isinstance(value, int | float) else "str" if isinstance(value, str) else "other"
    )


def _compared(node: ast.Compare, scope: Scope) -> list[tuple[str, Any]]:
    """``(parameter, constant)`` for each constant ``node`` compares a parameter (or
    arithmetic of it) with; a literal's members for ``in``."""
    found: list[tuple[str, Any]] = []
    operands = [node.left, *node.comparators]
    for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
        if isinstance(op, ast.Is | ast.IsNot):
            continue
        for subject, other in ((left, right), (right, left)):
            name = scope.parameter_in(subject)
            plain = isinstance(subject, ast.Name) and subject.id in scope.params
            if name is None or not (plain or is_arithmetic(subject, name)):
                continue
            if isinstance(op, ast.In | ast.NotIn):
                if subject is left:
                    found += [(name, v) for v in scope.members(other)]
                continue
            known, value = scope.constant(other)
            if known:
                found.append((name, value))
    return found


def asked_about(function: Function) -> set[str]:
    """Parameters given to ``isinstance``/``type``/``hasattr``: they take several kinds."""
    return {
        node.args[0].id
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("isinstance", "type", "hasattr")
        and node.args
        and isinstance(node.args[0], ast.Name)
    }


def compared_kinds(
    function: Function, module: ast.Module | None = None, kinds: Mapping[str, str] | None = None
) -> dict[str, tuple[str, Any]]:
    """``parameter -> (kind, typical value)`` for each parameter compared with constants of
    one kind only (``"number"`` or ``"str"``); ``kinds`` (an annotation's builtin type)
    only shapes the typical number (a float parameter's)."""
    params = parameter_names(function)
    constants = local_constants(function, read_module_constants(module)) if module else {}
    scope = Scope(params, derived_locals(function, params), constants, dict(kinds or {}))
    pairs = [
        pair
        for node in ast.walk(function)
        if isinstance(node, ast.Compare)
        for pair in _compared(node, scope)
    ]
    seen: dict[str, set[str]] = {}
    for name, value in pairs:
        seen.setdefault(name, set()).add(_kind(value))
    listed = listed_members(function, scope)
    several = asked_about(function)
    found: dict[str, tuple[str, Any]] = {}
    for name, found_kinds in seen.items():
        if len(found_kinds) != 1 or name in several:
            continue
        kind = next(iter(found_kinds))
        numbers = [v for v in listed.get(name, set()) if isinstance(v, int)]
        if kind == "number":
            typical = outside_member(sorted(numbers), listed[name]) if numbers else None
            found[name] = (
                "number",
                anchor_of(name, (kinds or {}).get(name)) if typical is None else typical,
            )
        elif kind == "str":
            found[name] = ("str", next(v for n, v in pairs if n == name and isinstance(v, str)))
    return found


def compared_base(
    function: Function, module: ast.Module, params: Sequence[Parameter], base: Mapping[str, Any]
) -> dict[str, Any]:
    """The typical set's values to replace: each unannotated parameter whose derived value
    is not of the kind the code compares it with (``month="sample month"`` -> 2)."""
    unannotated = {p.name for p in params if p.annotation is None}
    found: dict[str, Any] = {}
    for name, (kind, value) in compared_kinds(function, module).items():
        have = base.get(name)
        number = isinstance(have, int | float) and not isinstance(have, bool)
        fits = number if kind == "number" else isinstance(have, str)
        if name in base and name in unannotated and not fits:
            found[name] = value
    return found
