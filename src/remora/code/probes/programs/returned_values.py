"""What the call probe reports of a value a call returned, and what tells it from its input.

Sent ahead of :mod:`remora.code.probes.programs.call_probe`, in one program text
(:data:`remora.code.probes.sandboxed.PROGRAM_PARTS`). A value: its repr, whether that is
its literal form, else the calls that rebuild it
(:mod:`remora.code.probes.programs.constructed_values`),
its type, a collection's length, an object's own public attributes.

A method that returns a copy of its instance (``copy``, ``deepcopy``) or a conversion
of it (``to_dict``) gives a value ``==`` to the instance, so a test asserting ``==``
alone passes were the method to return the instance unchanged. :func:`returned_twin`
reports what tells them apart, as the host writes it
(:func:`remora.code.testgen.observed_asserts.twin_lines`): whether the type differs, and
for the mutable objects nested in it (breadth first, bounded) whether each is the
instance's own at the same place (a shallow copy) and its type where that differs.
"""

from __future__ import annotations

import ast
import math
import sys
import types
from typing import Any

from remora.code.probes.programs.constructed_values import (
    class_display,
    constructed,
    enum_member,
)

MAX_REPR_CHARS = 400
MAX_ATTRIBUTES = 8
# The most items of a plain tuple asserted one by one (``result[0] == ...``).
MAX_PARTS = 4
# The longest repr of a class's own an assert quotes for each item of a returned list.
MAX_OWN_REPR = 80
# How far a returned copy's nested objects are compared with the original's.
MAX_NESTED = 6
MAX_DEPTH = 3
# Values whose identity is no behaviour: an equal one may or may not be the same object.
_IMMUTABLE = (int, float, complex, str, bytes, bool, type(None), tuple, frozenset, range)
_NUMBERS = (int, float, complex)


def _returned(value: Any) -> dict[str, Any]:
    text = repr(value)
    literal = False
    if len(text) <= MAX_REPR_CHARS:
        try:
            literal = bool(ast.literal_eval(text) == value)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            literal = False
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        literal = False
    kind = type(value)
    seen = {
        "repr": text[:MAX_REPR_CHARS],
        "literal": literal,
        "type": kind.__qualname__,
        "type_module": kind.__module__,
    }
    rebuilt = enum_member(value)
    if rebuilt is None and not literal and len(text) <= MAX_REPR_CHARS:
        rebuilt = constructed(value, text) or class_display(value, MAX_REPR_CHARS)
    if rebuilt is not None:
        seen["constructed"] = rebuilt
    return seen


def observed_value(value: Any) -> dict[str, Any]:
    """``{repr, literal, type, type_module}``, ``constructed`` where the repr rebuilds it,
    ``items`` (a plain tuple's repr) for a tuple subclass's, ``each_items`` (a list of
    plain tuples' repr) for a list of them, ``each_repr`` (the list of their reprs) for a
    list of objects whose class writes its own, ``parts`` (each item's) for a plain tuple's,
    and ``length`` for a collection without any (a tuple aside; ``module_held`` instead for
    one a project module holds as a global)."""
    seen = _returned(value)
    # A tuple subclass's length is its class's, whatever it holds (``len(result) == 2`` held
    # for every token of a parser): a namedtuple's fields say what it holds
    # (:func:`own_attributes`), another's items as a plain tuple (``items``).
    if _unnamed_tuple_subclass(value) and not seen["literal"]:
        items = _returned(tuple(value))
        if items["literal"]:
            seen["items"] = items["repr"]
    # A list of them (a tokenizer's tokens): each one's items, not how many there are.
    if isinstance(value, list) and value and all(map(_unnamed_tuple_subclass, value)):
        rows = _returned([tuple(item) for item in value])
        if rows["literal"]:
            seen["each_items"] = rows["repr"]
    elif isinstance(value, list) and not seen["literal"] and "constructed" not in seen:
        # No item's repr is taken where their list could not fit (5 chars an item at least).
        shown = [_own_repr(item) for item in value] if len(value) <= MAX_REPR_CHARS // 5 else []
        if shown and all(shown) and len(repr(shown)) <= MAX_REPR_CHARS:
            seen["each_repr"] = repr(shown)
    written = seen["literal"] or "constructed" in seen
    # A plain tuple's length is its arity, which its ``return (a, b)`` fixes (``len(result)
    # == 2`` held whatever ``Markdown.parse`` parsed): its items are each asserted
    # (``parts``), and its length never.
    if type(value) is tuple and not written:
        if len(value) <= MAX_PARTS:
            seen["parts"] = [observed_value(item) for item in value]
        return seen
    if not written and isinstance(value, list | dict | set | frozenset):
        if _module_held(value):  # a registry's size is what the environment registered
            seen["module_held"] = True
        else:
            seen["length"] = len(value)
    return seen


def _module_held(value: Any) -> bool:
    """Whether a module of the project (not the standard library's, not an installed one's,
    not the probe's ``__main__``) holds ``value`` itself as one of its globals: a registry
    (``services``) whose size any plugin or other module changes; a blind reviewer
    rejected ``len(get_services()) == 4`` as "a magic count"."""
    outside = tuple({sys.prefix, sys.base_prefix, sys.exec_prefix})
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if name == "__main__" or not path or path.startswith(outside):
            continue
        if any(held is value for held in list(vars(module).values())):
            return True
    return False


def _own_repr(value: Any) -> str:
    """The repr a project's class writes for ``value`` (a parser's ``Selector[Element[a]]``),
    where it is one short line and names no address; '' for any other: a repr only a
    builtin base writes (an ``Exception``'s, which a reviewer said "would break if Invalid
    gained a __repr__"), or a tree drawn over lines (parsimonious's ``Node``: "asserts on
    repr strings")."""
    kind = type(value)
    own = any("__repr__" in vars(cls) for cls in kind.__mro__ if cls.__module__ != "builtins")
    if kind.__module__ == "builtins" or not own:
        return ""
    text = repr(value)
    return text if len(text) <= MAX_OWN_REPR and "0x" not in text and "\n" not in text else ""


def _unnamed_tuple_subclass(value: Any) -> bool:
    return isinstance(value, tuple) and type(value) is not tuple and not hasattr(value, "_fields")


def every_attribute(value: Any) -> dict[Any, Any]:
    """An object's own attributes, private ones too: its ``__dict__``, the ``__slots__`` its
    classes declare that hold a value, a namedtuple's fields (no property runs)."""
    own = dict(getattr(value, "__dict__", None) or {})
    fields = getattr(type(value), "_fields", None)
    if isinstance(value, tuple) and isinstance(fields, tuple):  # a namedtuple's fields
        own.update({name: value[i] for i, name in enumerate(fields) if isinstance(name, str)})
    for cls in reversed(type(value).__mro__):
        slots = cls.__dict__.get("__slots__", ())
        for name in [slots] if isinstance(slots, str) else slots:
            slot = cls.__dict__.get(name)
            if isinstance(slot, types.MemberDescriptorType) and hasattr(value, name):
                own[name] = slot.__get__(value, type(value))
    return own


def own_attributes(value: Any) -> dict[str, Any]:
    """A returned object's own public attributes (:func:`every_attribute`), each as
    :func:`observed_value` reports it; at most ``MAX_ATTRIBUTES``."""
    if isinstance(value, type | types.ModuleType | types.FunctionType | types.MethodType):
        return {}
    own = every_attribute(value)
    public = [name for name in own if isinstance(name, str) and not name.startswith("_")]
    return {name: observed_value(own[name]) for name in public[:MAX_ATTRIBUTES]}


def exception_attributes(error: BaseException) -> dict[str, Any]:
    """A raised exception's public attributes and the properties of its own classes (not
    the builtin ones': ``args``), each as :func:`observed_value` reports it: what a test
    asserts in place of a message its ``__str__`` assembles (``reason``, ``platform``);
    one that raises when read is left out; at most ``MAX_ATTRIBUTES``."""
    names = [n for n in every_attribute(error) if isinstance(n, str) and not n.startswith("_")]
    for kind in type(error).__mro__:
        if kind.__module__ != "builtins":
            names += [
                name
                for name, member in vars(kind).items()
                if isinstance(member, property) and not name.startswith("_") and name not in names
            ]
    found: dict[str, Any] = {}
    for name in names[:MAX_ATTRIBUTES]:
        try:
            found[name] = observed_value(getattr(error, name))
        except Exception:
            continue
    return found


def as_given(value: Any, given: list[Any], before: list[dict[str, Any]]) -> list[str]:
    """The public attributes of a returned object that read as they did, before the call,
    on the argument of its type (the same object, changed and handed back, first; ``before``:
    each argument's :func:`own_attributes` then): ``result.path == ""`` after
    ``xpath_disabled_pseudo(XPathExpr())`` is the argument's, no work of the call's, which
    set only ``condition``; a method's instance, given last, stands for the copy it returns
    (``URIBuilder().add_port(0)``: only ``port`` is the call's). Empty where no argument of
    its type was given."""
    at = next((i for i, g in enumerate(given) if g is value), None)
    if at is None:
        at = next((i for i, g in enumerate(given) if type(g) is type(value)), None)
    if at is None:
        return []
    after = own_attributes(value)
    return [
        name
        for name, seen in after.items()
        if name in before[at] and seen["literal"] and before[at][name]["repr"] == seen["repr"]
    ]


def equals(one: Any, other: Any) -> bool:
    """Whether ``one == other`` holds; False where ``==`` raises or gives no truth value."""
    try:  # an `==` that raises or gives no truth value (an array's) tells nothing
        return bool(one == other)
    except Exception:
        return False


def _keyed_parts(value: Any) -> list[tuple[str | int, Any]]:
    """A dict's items under str or int keys (a test writes them), a list's or tuple's by index."""
    if isinstance(value, dict):
        return [(k, v) for k, v in value.items() if type(k) in (str, int)]
    return list(enumerate(value)) if isinstance(value, list | tuple) else []


def _nested_objects(value: Any, other: Any) -> list[dict[str, Any]]:
    """The mutable objects nested in ``value`` (breadth first, at most ``MAX_NESTED``, down
    to ``MAX_DEPTH``), each with its path, whether it is ``other``'s at the same path, and
    its type where that differs from ``other``'s."""
    found: list[dict[str, Any]] = []
    queue: list[tuple[list[str | int], Any, Any]] = [([], value, other)]
    while queue and len(found) < MAX_NESTED:
        path, mine, theirs = queue.pop(0)
        if len(path) >= MAX_DEPTH or not isinstance(theirs, dict | list | tuple):
            continue
        theirs_by_key = dict(_keyed_parts(theirs))  # no lookup: a `__missing__` may add the key
        for key, item in _keyed_parts(mine):
            if key not in theirs_by_key:  # equal by `==` only, not part by part
                continue
            their = theirs_by_key[key]
            if not isinstance(item, _IMMUTABLE):
                found.append(
                    {"path": [*path, key], "same": item is their, **_type_apart(item, their)}
                )
            queue.append(([*path, key], item, their))
    return found[:MAX_NESTED]


def _type_apart(value: Any, other: Any) -> dict[str, Any]:
    """``{type, type_module}`` of ``value`` where its type is not ``other``'s; else empty."""
    kind = type(value)
    return (
        {} if kind is type(other) else {"type": kind.__qualname__, "type_module": kind.__module__}
    )


def returned_twin(value: Any, receiver: Any, arguments: list[Any]) -> dict[str, Any] | None:
    """What tells a returned value from the instance or argument it equals while being
    another object (a copy, a conversion): ``{of, type_differs, nested}`` (``of``:
    ``instance`` or ``argument``). A test asserting ``==`` alone would pass were the
    node to return that instance or argument unchanged. None when it equals neither, or
    is an immutable value (its identity is no behaviour) of the same type, or a number
    equal to a number of another type (``nCk(2, 1) == 2.0``: a coincidence of the value,
    and pinning ``type(result) is float`` pins how it was computed; a blind reviewer
    rejected it)."""
    if isinstance(receiver, type | types.ModuleType):
        receiver = None  # a classmethod's class
    candidates = [("instance", receiver)] if receiver is not None else []
    candidates += [("argument", argument) for argument in arguments]
    for of, other in candidates:
        if other is value or not equals(value, other):
            continue
        differs = type(value) is not type(other)
        if isinstance(value, _IMMUTABLE) and not differs:
            continue
        if isinstance(value, _NUMBERS) and isinstance(other, _NUMBERS):
            continue
        return {"of": of, "type_differs": differs, "nested": _nested_objects(value, other)}
    return None
