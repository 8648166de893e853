"""Values JSON cannot spell: a tuple, bytes and a class, as the probe's markers say them.

JSON has no tuple, no bytes and no class. A set of arguments sends a tuple as
``{"__tuple__": [items]}``, bytes as ``{"__bytes__": text}`` (each byte the character of
that code point, as Latin-1 decodes it) and a class as ``{"__type__": "int"}`` (a builtin,
by its name) or ``{"__type__": "Name"}`` (a class of the node's module, looked up as
``{"__class__"}`` is); the probe builds them
(:mod:`remora.code.probes.programs.call_arguments`) and a test writes them as Python
(``(1, 2)``, ``b"abc"``, ``int``, ``Name`` with its import:
:mod:`remora.code.values.call_render`). :func:`stand_in` is the Python value a JSON value
stands for, where the host can make it without the project (a builtin class, a tuple of
plain values), for the checks that ask a value's kind or attributes
(:mod:`remora.code.values.argument_fit`).
"""

from __future__ import annotations

import builtins
from typing import Any

from remora.code.values.function_arguments import FUNCTION_MARKER

__all__ = [
    "BUILTIN_TYPES",
    "BYTES_MARKER",
    "EXCEPTION_SAMPLES",
    "SET_MARKER",
    "TUPLE_MARKER",
    "TYPE_MARKER",
    "UNKNOWN",
    "bytes_of",
    "is_bytes",
    "is_tuple",
    "is_type",
    "set_of",
    "stand_in",
    "tuple_of",
    "type_of",
]

TUPLE_MARKER = "__tuple__"
BYTES_MARKER = "__bytes__"
TYPE_MARKER = "__type__"
# A set has no JSON form: the probe builds ``{"__set__": [items]}`` as one.
SET_MARKER = "__set__"
# The classes given a parameter that takes an exception class (``type[Exception]``):
# two a caller raises, told apart, never ``list`` or ``dict`` for an exception type.
EXCEPTION_SAMPLES = ("ValueError", "KeyError")
# The builtin classes a set may pass by name (the probe's list is its own copy).
BUILTIN_TYPES = frozenset(
    {"int", "str", "float", "bool", "bytes", "complex", "object", "list", "tuple", "dict"}
    | {"set", "frozenset", "type"}
    | set(EXCEPTION_SAMPLES)
)
# Markers whose value only the project's code can make.
_PROJECT_MARKERS = frozenset(
    {"__class__", "__callable__", "__returns__", "__expression__", "__unread__", FUNCTION_MARKER}
)


class _Unknown:
    """What :func:`stand_in` gives for a value only the project's code makes."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()


def set_of(items: list[Any]) -> dict[str, Any]:
    """A set of these JSON items, as a set of arguments sends it."""
    return {SET_MARKER: list(items)}


def tuple_of(items: list[Any]) -> dict[str, Any]:
    """A tuple of these JSON items, as a set sends it."""
    return {TUPLE_MARKER: list(items)}


def bytes_of(data: bytes) -> dict[str, Any]:
    """These bytes, as a set sends them (Latin-1 maps each byte to one character)."""
    return {BYTES_MARKER: data.decode("latin-1")}


def is_bytes(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {BYTES_MARKER}
        and isinstance(value[BYTES_MARKER], str)
    )


def type_of(name: str) -> dict[str, Any]:
    """The class ``name`` (a builtin's name, or a class of the node's module)."""
    return {TYPE_MARKER: name}


def is_tuple(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {TUPLE_MARKER}
        and isinstance(value[TUPLE_MARKER], list)
    )


def is_type(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {TYPE_MARKER}


def stand_in(value: Any) -> Any:
    """The Python value a JSON value of a set stands for (a tuple for ``{"__tuple__"}``,
    ``int`` for ``{"__type__": "int"}``, a set for ``{"__set__"}``); :data:`UNKNOWN` where
    only the project makes it (an instance, a class of the module, a callable)."""
    if is_tuple(value):
        items = [stand_in(item) for item in value[TUPLE_MARKER]]
        return UNKNOWN if any(item is UNKNOWN for item in items) else tuple(items)
    if is_bytes(value):
        return str(value[BYTES_MARKER]).encode("latin-1")
    if is_type(value):
        name = value[TYPE_MARKER]
        return getattr(builtins, name) if name in BUILTIN_TYPES else UNKNOWN
    if isinstance(value, dict) and set(value) == {"__set__"}:
        items = [stand_in(item) for item in value["__set__"]]
        try:
            return UNKNOWN if any(item is UNKNOWN for item in items) else set(items)
        except TypeError:  # an unhashable item: the probe could not build it either
            return UNKNOWN
    if isinstance(value, dict):
        if _PROJECT_MARKERS & set(value):
            return UNKNOWN
        pairs = [(key, stand_in(item)) for key, item in value.items()]
        return UNKNOWN if any(item is UNKNOWN for _, item in pairs) else dict(pairs)
    if isinstance(value, list):
        items = [stand_in(item) for item in value]
        return UNKNOWN if any(item is UNKNOWN for item in items) else items
    return value
