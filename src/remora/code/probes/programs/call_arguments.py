"""The call probe's arguments: a request's JSON values built, and a set spread over a signature.

Sent ahead of :mod:`remora.code.probes.programs.call_probe`, in one program text
(:data:`remora.code.probes.sandboxed.PROGRAM_PARTS`). A value ``{"__class__":
"Name", "args": {...}}`` is an instance of the module's class ``Name`` built from
those arguments; ``{"__callable__": "str"}`` is that builtin, for a parameter the
code calls, ``{"__returns__": VALUE}`` a function that takes anything and
returns VALUE (``lambda *args, **kwargs: VALUE`` in a test; with ``"__takes__":
["item"]``, the names the code passes it, ``lambda item: VALUE``), ``{"__set__":
[items]}`` a set of those items (JSON has none), ``{"__tuple__": [items]}`` a tuple of
them, ``{"__bytes__": text}`` bytes (Latin-1: one byte per character),
``{"__type__": "int"}`` a builtin class and ``{"__type__": "Name"}`` the module's
class ``Name`` (a type passed as a value), and ``{"__unread__": true}`` a stand-in
that records any use of it (:mod:`remora.code.probes.programs.unread_argument`);
``{"__function__": NAME}`` a function the test defines, which records each call made of
it (:mod:`remora.code.values.function_arguments`).
``{"__expression__": {"call": NAME, "args": [...], "keywords": {...}, "steps":
[["attribute", NAME] | ["item", KEY]]}}`` is
the value of the module's ``NAME`` called with those arguments, then each step's
attribute or item of it: an instance built as the project writes it (``where('name')``,
``Query().name``: :mod:`remora.code.values.owner_expressions`). Parameters that are positional-only
are passed by position, the node's and an instance's constructor's alike (:func:`instance_of`);
a set that names a ``*args`` parameter passes its list as positional arguments (and the
parameters before it by position), a ``**kwargs`` one its dict as keywords.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import sys
import types
from typing import Any

from remora.code.probes.programs.recorded_calls import recording_function
from remora.code.probes.programs.unread_argument import Unread

# Builtins a set may pass where the code calls a parameter ({"__callable__": "str"}).
_CALLABLES = frozenset(
    {"str", "bool", "len", "repr", "abs", "int", "sorted", "dict", "list", "tuple", "set"}
)
# Builtin classes a set may pass as values ({"__type__": "int"}); any other name is the
# module's (remora.code.values.unspelled_values.BUILTIN_TYPES, copied: the probe imports
# nothing of the host).
_TYPES = frozenset(
    {"int", "str", "float", "bool", "bytes", "complex", "object", "list", "tuple", "dict"}
    | {"set", "frozenset", "type", "ValueError", "KeyError"}
)


def lookup(module: types.ModuleType, dotted: str) -> Any:
    """A name of the module (``Order``, ``Outer.Inner``), else a standard library class
    by its module's path (``datetime.datetime``, whatever the module imported)."""
    found: Any = module
    try:
        for part in dotted.split("."):
            found = getattr(found, part)
    except AttributeError:
        head, _, rest = dotted.partition(".")
        if not rest or head not in sys.stdlib_module_names:
            raise
        found = importlib.import_module(head)
        for part in rest.split("."):
            found = getattr(found, part)
    return found


def built_value(data: Any, module: types.ModuleType) -> Any:
    """A JSON value with ``{"__class__", "args"}`` objects built as instances."""
    if isinstance(data, list):
        return [built_value(item, module) for item in data]
    if isinstance(data, dict):
        if set(data) == {"__unread__"}:
            return Unread()
        if set(data) == {"__function__"}:
            return recording_function(str(data["__function__"]))
        if set(data) == {"__callable__"} and data["__callable__"] in _CALLABLES:
            return getattr(builtins, data["__callable__"])
        if set(data) in ({"__returns__"}, {"__returns__", "__takes__"}):
            return _returning(built_value(data["__returns__"], module))
        if set(data) == {"__set__"} and isinstance(data["__set__"], list):
            return {built_value(item, module) for item in data["__set__"]}
        if set(data) == {"__tuple__"} and isinstance(data["__tuple__"], list):
            return tuple(built_value(item, module) for item in data["__tuple__"])
        if set(data) == {"__bytes__"} and isinstance(data["__bytes__"], str):
            return data["__bytes__"].encode("latin-1")
        if set(data) == {"__type__"}:
            return _type(str(data["__type__"]), module)
        if set(data) == {"__expression__"} and isinstance(data["__expression__"], dict):
            return _expression_value(data["__expression__"], module)
        if set(data) == {"__class__", "args"} and isinstance(data["args"], dict):
            cls = lookup(module, str(data["__class__"]))
            return instance_of(cls, {k: built_value(v, module) for k, v in data["args"].items()})
        return {k: built_value(v, module) for k, v in data.items()}
    return data


def instance_of(cls: Any, args: dict[str, Any]) -> Any:
    """``cls`` called with ``args`` spread over its signature as a node's own call is
    (:func:`split_arguments`): ``Box(2, 3)`` for ``__init__(self, width, height, /)`` or a
    ``__new__(cls, amount, /)``, where ``Box(width=2, height=3)`` raises TypeError. A class
    with no signature to read (a C type's) takes them all by name."""
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return cls(**args)
    positional, keywords = split_arguments(signature, args)
    return cls(*positional, **keywords)


def _type(name: str, module: types.ModuleType) -> type:
    """The builtin class ``name``, else the module's class of that name; TypeError where the
    module's name is no class."""
    found = getattr(builtins, name) if name in _TYPES else lookup(module, name)
    if not isinstance(found, type):
        raise TypeError(f"{name} is no class: {type(found).__name__}")
    return found


def _expression_value(expression: dict[str, Any], module: types.ModuleType) -> Any:
    """The value of a call of one of the module's names, then of each attribute or item
    the expression's steps read on it."""
    function = lookup(module, str(expression["call"]))
    args = [built_value(a, module) for a in expression.get("args") or []]
    keywords = {k: built_value(v, module) for k, v in (expression.get("keywords") or {}).items()}
    value = function(*args, **keywords)
    for kind, key in expression.get("steps") or []:
        value = getattr(value, key) if kind == "attribute" else value[built_value(key, module)]
    return value


def _returning(value: Any) -> Any:
    def returns(*_args: Any, **_kwargs: Any) -> Any:
        return value

    return returns


def split_arguments(
    signature: inspect.Signature, args: dict[str, Any]
) -> tuple[list[Any], dict[str, Any]]:
    """Positional-only parameters by position (in order), the rest by name; a ``*args``
    list spread after the parameters before it (by position), a ``**kwargs`` dict merged."""
    keywords = dict(args)
    parameters = list(signature.parameters.values())
    star = next((p for p in parameters if p.kind is inspect.Parameter.VAR_POSITIONAL), None)
    spread = star is not None and isinstance(keywords.get(star.name), list)
    positional: list[Any] = []
    for parameter in parameters:
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            positional.extend(keywords.pop(parameter.name) if spread else [])
            break
        by_position = parameter.kind is inspect.Parameter.POSITIONAL_ONLY or (
            spread and parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        )
        if not by_position or parameter.name not in keywords:
            break
        positional.append(keywords.pop(parameter.name))
    double = next((p for p in parameters if p.kind is inspect.Parameter.VAR_KEYWORD), None)
    if double is not None and isinstance(keywords.get(double.name), dict):
        for key, value in keywords.pop(double.name).items():
            keywords.setdefault(key, value)  # a named parameter's own value wins
    return positional, keywords


class Unbound:
    """Stands for a method whose instance could not be built: binds, never runs."""

    def __init__(self, signature: inspect.Signature) -> None:
        self.__signature__ = signature

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("not called: no instance")
