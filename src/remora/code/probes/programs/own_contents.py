"""What a method call changed in the container its instance is: the items it stored or removed.

Sent ahead of :mod:`remora.code.probes.programs.call_probe`, in one program text
(:data:`remora.code.probes.sandboxed.PROGRAM_PARTS`). A method of a class that is a
mapping, a sequence or a set (a ``dict``, ``list`` or ``set`` subclass, or one of the
``collections.abc`` kinds) may change its instance's own items (``self[key] = default``,
``self.append(item)``, ``super().__setitem__(...)``) rather than an attribute. The
instance's contents are read before and after the call and compared by their reprs, so a
change inside a nested value counts too; no code text is read. A change is reported as a
test asserts it (:func:`remora.code.values.contents_asserts`): the contents whole as
``dict(instance)``, ``list(...)`` or ``set(...)`` reads them, whether the instance
compares equal to them as it is (a test may then write ``d == {...}``), and for a mapping
the keys whose value is new or changed, each with its value as ``instance[key]`` reads it,
and the keys it removed; and how many items it held before (a test's name says whether
the call stored items or removed them: :mod:`remora.code.testgen.stored_items`), and a
mapping's keys in the order it iterates them where its class defines that order (a sorted
mapping: a test that checked the keys one by one would pass on a plain ``dict``).
``values`` off (the node stores a clock's or a random value: the host says so), no value
is reported, only the keys and the count.
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Mapping, Sequence, Set
from typing import Any

from remora.code.probes.programs.returned_values import (
    equals,
    every_attribute,
    observed_value,
)

# A larger instance is not read: its test would not write its contents anyway.
MAX_CONTENT_ITEMS = 200
# A mapping's changed (or removed) keys reported one by one, at most.
MAX_CHANGED_KEYS = 6
# Containers whose contents cannot change, or whose items are characters or bytes.
_NOT_CONTAINERS = (
    str,
    bytes,
    bytearray,
    memoryview,
    range,
    tuple,
    frozenset,
    type,
    types.ModuleType,
)


def _plain_kind(instance: Any) -> type | None:
    """``dict``, ``list`` or ``set``: the plain container a test reads the instance's
    contents into; None where it is none of those kinds."""
    if instance is None or isinstance(instance, _NOT_CONTAINERS):
        return None
    if isinstance(instance, Mapping):
        return dict
    if isinstance(instance, Sequence):
        return list
    return set if isinstance(instance, Set) else None


def instance_size(target: Any) -> int | None:
    """How many items the method's instance holds, where it is a container (None else)."""
    instance: Any = getattr(target, "__self__", None)
    if _plain_kind(instance) is None:
        return None
    try:  # the project's own __len__ runs here
        return len(instance)
    except Exception:
        return None


def contents_snapshot(target: Any) -> tuple[type, Any] | None:
    """The contents of the method's instance as they are now, compared by repr: a mapping's
    ``{key: repr(value)}``, else the reprs of a sequence's items, or a set's sorted; None
    where the instance is no container, is larger than ``MAX_CONTENT_ITEMS``, or cannot be
    read."""
    return _contents(getattr(target, "__self__", None))


def instance_state(instance: Any) -> tuple[dict[str, str], Any] | None:
    """Every attribute of ``instance`` (:func:`every_attribute`) by repr, and its
    contents: what a set-up call (a filled instance's ``__calls__``) may change; None where
    it cannot be read. A set-up call after which this reads the same set nothing up
    (``DecodedURL().remove("a")`` returns a new URL and leaves its instance as it was)."""
    try:  # the project's own __repr__ runs here
        found = every_attribute(instance)
        return {str(name): repr(value) for name, value in found.items()}, _contents(instance)
    except Exception:
        return None


def _contents(instance: Any) -> tuple[type, Any] | None:
    kind = _plain_kind(instance)
    if kind is None:
        return None
    try:  # the project's own __len__, __iter__ and __repr__ run here
        if len(instance) > MAX_CONTENT_ITEMS:
            return None
        plain = kind(instance)
        if kind is dict:
            return kind, {key: repr(value) for key, value in plain.items()}
        return kind, sorted(map(repr, plain)) if kind is set else list(map(repr, plain))
    except Exception:
        return None


def _keyed(instance: Any, key: Any, values: bool) -> dict[str, Any]:
    """One changed key of a mapping, with its value as ``instance[key]`` reads it (a test
    reads it so) when ``values``; the key alone where that read raises."""
    item: dict[str, Any] = {"key": observed_value(key)}
    if values:
        with contextlib.suppress(Exception):  # the key alone: a test asserts it is there
            item["value"] = observed_value(instance[key])
    return item


def plain_equality(instance: Any) -> bool:
    """Whether the instance's ``==`` is a builtin container's or ``collections.abc``'s, so
    ``assert shelf == [1, 2]`` says what it holds. A class's own ``__eq__`` may say
    something else (equal when the two share any item): the test reads it into a plain
    container instead."""
    for klass in type(instance).__mro__:
        if "__eq__" in vars(klass):
            return klass.__module__ in ("builtins", "collections.abc", "_collections_abc")
    return False


def _own_order(instance: Any) -> bool:
    """Whether the instance's class says in what order it iterates (its own ``__iter__``:
    a sorted mapping's keys), rather than a builtin's or ``collections.abc``'s."""
    for klass in type(instance).__mro__:
        if "__iter__" in vars(klass):
            return klass.__module__ not in ("builtins", "collections.abc", "_collections_abc")
    return False


def equals_its_plain_kind(value: Any) -> bool:
    """Whether a container of a class of its own equals a plain container of what it holds
    (``SortedList([1]) == [1]``, ``SortedSet([1]) == {1}``, a ``dict`` subclass and its
    ``dict``): ``assert result == ...`` would then pass were the code to return the plain
    kind, so a test asserts the type beside it."""
    if _plain_kind(value) is None or type(value) in (dict, list, set):
        return False
    kinds = [(Mapping, dict), (Sequence, list), (Set, set)]  # a sorted set is both of the last
    try:  # the project's own __iter__ and __eq__ run here
        return len(value) <= MAX_CONTENT_ITEMS and any(
            isinstance(value, abc) and equals(value, kind(value)) for abc, kind in kinds
        )
    except Exception:
        return False


def contents_change(
    target: Any, before: tuple[type, Any] | None, values: bool
) -> dict[str, Any] | None:
    """What the call changed in the instance's contents since ``before``
    (:func:`contents_snapshot`): ``{kind, length, length_before, whole?, as_is?, order?,
    items?, removed?, all_keys?}``; None where nothing changed or the contents could not be read."""
    after = contents_snapshot(target)
    if before is None or after is None or after == before:
        return None
    instance = target.__self__
    kind, now = after
    try:
        plain = kind(instance)
        change: dict[str, Any] = {"kind": kind.__name__, "length": len(plain)}
        change["length_before"] = len(before[1])  # a test name says stored or removed
        if values:
            change["whole"] = observed_value(plain)
            change["as_is"] = plain_equality(instance) and equals(instance, plain)
            if kind is dict and _own_order(instance):  # its keys' order is its behaviour
                change["order"] = observed_value(list(instance))
        if kind is dict and before[0] is dict:
            was: dict[Any, str] = before[1]
            changed = [key for key, text in now.items() if key not in was or was[key] != text]
            removed = [key for key in was if key not in now]
            change["items"] = [_keyed(instance, k, values) for k in changed[:MAX_CHANGED_KEYS]]
            change["removed"] = [observed_value(key) for key in removed[:MAX_CHANGED_KEYS]]
            change["all_keys"] = max(len(changed), len(removed)) <= MAX_CHANGED_KEYS
    except Exception:
        return None
    return change
