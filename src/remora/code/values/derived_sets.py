"""Example argument sets derived from parameters: names, annotations (read with ast), defaults.

A set is ``{"name": "typical", "args": {parameter: JSON value}}``; an instance
of a class of the same module is ``{"__class__": "Name", "args": {...}}``, built
from that class's constructor parameters (:mod:`remora.code.values.constructor`).
Nothing here runs the project's code: whether a set binds and calls without a
TypeError is checked separately (:mod:`remora.code.probes.calls`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypedDict

from remora import python_ast
from remora.code.values.annotations import (
    MAPPING_HEADS,
    SEQUENCE_HEADS,
    head_name,
    parsed_annotation,
    union_parts,
)
from remora.code.values.kind_samples import MOMENT_KINDS, moment
from remora.code.values.named_values import NAMED_NUMBERS, NAMED_STRINGS, by_name
from remora.code.values.parameters import Parameter
from remora.code.values.placeholders import MADE_UP_KEYS, made_up_text, singular_of
from remora.code.values.unspelled_values import (
    BUILTIN_TYPES,
    EXCEPTION_SAMPLES,
    bytes_of,
    set_of,
    tuple_of,
    type_of,
)

__all__ = [
    "PLANS",
    "ArgumentSet",
    "argument_sets",
    "literal_default",
    "sample_value",
]


class ArgumentSet(TypedDict):
    """An argument set: its name (``defaults``, ``typical``, ...), the arguments by name."""

    name: str
    args: dict[str, Any]


# (name, variant, use literal defaults): typical values, another typical one, an edge case.
PLANS: tuple[tuple[str, int, bool], ...] = (
    ("defaults", 0, True),
    ("typical", 1, False),
    ("alternative", 0, False),
    ("edge", 2, False),
)

# The exception classes a ``type[...]`` names to take any exception (a TypeVar's bound too).
_EXCEPTION_BASES = frozenset({"BaseException", "Exception", "builtins.BaseException"})

# How a class of the module is constructed: its parameters, or None when unknown.
ClassLookup = Callable[[str], "Sequence[Parameter] | None"]


def literal_default(source: str | None) -> tuple[bool, Any]:
    """(True, value) when a default's source is a JSON-able literal, else (False, None)."""
    if source is None:
        return False, None
    if source in {"list()", "tuple()", "set()", "frozenset()"}:
        return True, []
    if source == "dict()":
        return True, {}
    try:
        value = python_ast.literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None
    if isinstance(value, tuple | set | frozenset):
        value = list(value)
    if value is None or isinstance(value, bool | int | float | str | list | dict):
        return True, value
    return False, None


def _head(tree: ast.expr) -> str:
    """The last name of ``typing.List``/``List``/``list``, lower case."""
    return head_name(tree).lower()


def _type_args(tree: ast.expr) -> list[ast.expr]:
    if not isinstance(tree, ast.Subscript):
        return []
    return list(tree.slice.elts) if isinstance(tree.slice, ast.Tuple) else [tree.slice]


# A ``set``-annotated parameter gets a set: ``base | nxt`` of two lists raises.
_SET_HEADS = frozenset({"set", "frozenset", "abstractset", "mutableset"})


def sample_value(
    name: str, annotation: str | None, variant: int, classes: ClassLookup, depth: int = 0
) -> Any:
    """An example value for a parameter: variants 0 and 1 typical, 2 an edge case."""
    tree = parsed_annotation(annotation)
    return _value_for(name, tree, variant, classes, depth)


def _value_for(
    name: str, tree: ast.expr | None, variant: int, classes: ClassLookup, depth: int
) -> Any:
    edge = variant >= 2
    parts = union_parts(tree) if tree is not None else []
    if edge and any(_head(p) == "none" for p in parts):
        return None
    real = [p for p in parts if _head(p) != "none"]
    chosen = real[0] if real else None
    head = _head(chosen) if chosen is not None else ""
    inner = _type_args(chosen) if chosen is not None else []
    singular = singular_of(name)
    if head == "tuple":  # a tuple, not a list: ``isinstance(p, tuple)`` holds
        return tuple_of(_tuple_items(singular, inner, variant, classes, depth))
    if head in SEQUENCE_HEADS:
        if edge:
            return set_of([]) if head in _SET_HEADS else []
        item = inner[0] if inner and not isinstance(inner[0], ast.Constant) else None
        # The two typical values, whichever comes first: a typical list holds no edge
        # value (``["other base", None]``: the second of variant 1 was the edge's None).
        items = [
            _value_for(singular, item, variant, classes, depth + 1),
            _value_for(singular, item, variant ^ 1, classes, depth + 1),
        ]
        # Items of a named type no value was found for: ``[None, None]`` for lines of text
        # is no sample of them (a blind reviewer: "a meaningless input").
        if item is not None and items == [None, None]:
            return None
        return set_of(items) if head in _SET_HEADS else items
    if head in MAPPING_HEADS:
        if edge:
            return {}
        value_type = inner[1] if len(inner) > 1 else None
        return {
            key: _value_for("value", value_type, variant ^ index, classes, depth + 1)
            for index, key in enumerate(MADE_UP_KEYS)
        }
    if head == "literal":
        options = [item.value for item in inner if isinstance(item, ast.Constant)]
        return options[variant % len(options)] if options else None
    if head == "bool":
        return variant == 0
    if head in {"int", "float", "decimal"}:
        return _number(name, head == "int", variant)
    if head in {"str", "path", "purepath", "anystr"}:  # typing.AnyStr: str or bytes
        return _string(name, variant)
    if head in {"bytes", "bytearray", "memoryview"}:  # the probe builds bytes for each
        return bytes_of(_string(name, variant).encode("utf-8"))
    if head in MOMENT_KINDS:
        return moment(head, variant)
    if head == "type":  # a class as a value: ``type[Node]`` that class, else a builtin one
        named = ast.unparse(inner[0]) if inner else ""
        if named in _EXCEPTION_BASES:  # ``type[Exception]``: one a caller would raise
            return type_of(EXCEPTION_SAMPLES[variant % 2])
        if named in BUILTIN_TYPES or (named and classes(named) is not None):
            return type_of(named)
        return type_of(("list", "dict")[variant % 2])
    if chosen is None or head in {"any", "object"}:
        return _untyped(name, singular, variant, classes, depth)
    if chosen is not None and depth < 2:
        params = classes(ast.unparse(chosen.value if isinstance(chosen, ast.Subscript) else chosen))
        if params is not None:
            return _instance(ast.unparse(chosen), params, variant, classes, depth)
    return None


def _number(name: str, integer: bool, variant: int) -> int | float:
    if variant >= 2:
        return 0 if integer else 0.0
    found, value = by_name(name, NAMED_NUMBERS, variant)
    if not found:
        value = (1, 7)[variant % 2] if integer else (1.5, 42.0)[variant % 2]
    return int(value) if integer else float(value)


def _string(name: str, variant: int) -> str:
    if variant >= 2:
        return ""
    found, value = by_name(name, NAMED_STRINGS, variant)
    if found:
        return str(value)
    return made_up_text(name, variant)


def _untyped(name: str, singular: str, variant: int, classes: ClassLookup, depth: int) -> Any:
    """A value guessed from the name alone: a number, a string, or a list of either."""
    found, number = by_name(name, NAMED_NUMBERS, variant)
    if found:
        return _number(name, isinstance(number, int), variant)
    found, _text = by_name(name, NAMED_STRINGS, variant)
    if found:
        return _string(name, variant)
    if singular != name:
        if variant >= 2:
            return []
        return [_untyped(singular, singular, variant, classes, depth + 1)]
    return None if variant >= 2 else _string(name, variant)


def _tuple_items(
    name: str, inner: list[ast.expr], variant: int, classes: ClassLookup, depth: int
) -> list[Any]:
    """A tuple annotation's items: one per position of ``tuple[str, int]``, two of
    ``tuple[str, ...]`` or a bare ``tuple``; none at the edge (variant 2) where the length
    is open."""
    fixed = bool(inner) and not any(
        isinstance(item, ast.Constant) and item.value is Ellipsis for item in inner
    )
    if not fixed and variant >= 2:
        return []
    kinds: list[ast.expr | None] = list(inner) if fixed else [inner[0] if inner else None] * 2
    return [
        _value_for(
            name, kind, variant if variant >= 2 else (variant + offset) % 2, classes, depth + 1
        )
        for offset, kind in enumerate(kinds)
    ]


def _instance(
    class_name: str, params: Sequence[Parameter], variant: int, classes: ClassLookup, depth: int
) -> dict[str, Any]:
    return {
        "__class__": class_name,
        "args": _arguments(params, variant % 2, variant == 0, classes, depth + 1),
    }


def _arguments(
    params: Sequence[Parameter], variant: int, use_defaults: bool, classes: ClassLookup, depth: int
) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for param in params:
        if param.kind in ("var_positional", "var_keyword"):
            continue
        if param.default is not None and depth > 0:
            continue  # a nested instance keeps its defaults: fewer ways to break
        has_literal, default = literal_default(param.default)
        if use_defaults and has_literal:
            args[param.name] = default
            continue
        value = sample_value(param.name, param.annotation, variant, classes, depth)
        if variant < 2 and _repeats(value, args.values()):
            # Two paths both "data/example.txt", a box 1 by 1: a test could not tell the
            # arguments apart (a swap, `*` for `**`); the other typical value, where it differs.
            other = sample_value(param.name, param.annotation, variant ^ 1, classes, depth)
            value = value if _repeats(other, args.values()) else other
        args[param.name] = value
    return args


def _repeats(value: Any, given: Iterable[Any]) -> bool:
    """Whether ``value``, a text or a number, equals one of ``given`` of its type."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return False
    return any(type(other) is type(value) and other == value for other in given)


def argument_sets(
    params: Sequence[Parameter], classes: ClassLookup, count: int = 4
) -> list[ArgumentSet]:
    """Up to ``count`` distinct sets: defaults, typical, alternative, edge (duplicates dropped).

    The first set is named ``defaults`` only when a parameter has a literal
    default it uses, else ``example``: a set's name (and a test named after it)
    says nothing that is not so.
    """
    plans = list(PLANS) if count >= 4 else [PLANS[0], PLANS[1], PLANS[3]][: max(count, 1)]
    uses_a_default = any(literal_default(p.default)[0] for p in params)
    sets: list[ArgumentSet] = []
    for name, variant, use_defaults in plans:
        args = _arguments(params, variant, use_defaults, classes, 0)
        if use_defaults and not uses_a_default:
            name = "example"
        if all(args != existing["args"] for existing in sets):
            sets.append({"name": name, "args": args})
    return sets
