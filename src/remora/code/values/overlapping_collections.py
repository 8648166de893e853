"""Collections that hold an item twice: two of a call that share one, or one that repeats one.

The typical set gives each collection parameter items of its own (``base=["sample base",
"other base"]``, ``nxt=["sample nxt", "other nxt"]``), so a union, an intersection, a
difference or a merge that drops duplicates never meets an item both hold: ``append_unique``
tested so reads as plain ``append`` (a blind reviewer: "neither input contains a duplicate,
so the test never exercises the de-duplication"). For each pair of parameters whose typical
values are collections of one kind (two lists, two sets), the later one gets the earlier
one's first item in place of its own first: ``nxt_shares_an_item_with_base``. The search
keeps such a call only where it adds a line, a branch or a killed mutant. Nothing runs here.

One list alone hides the same boundary: code that drops repeated items (a ``seen`` set,
``groupby``) returns distinct items unchanged, so a test of them pins nothing of what it
drops (a blind reviewer: "two distinct items come back unchanged, so nothing about
deduplication is tested"). Each list parameter of distinct items gets them with its first
item next to itself and again at the end (``[a, a, b, a]``: a run and a later repeat):
``items_has_a_repeated_item``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from remora.code.values.unspelled_values import SET_MARKER, set_of

__all__ = ["overlapping_arguments", "repeated_item_arguments"]


def _items(value: Any) -> tuple[str, list[Any]] | None:
    """(the collection's kind, its items) for a list or a set of simple values."""
    if isinstance(value, dict) and set(value) == {SET_MARKER}:
        kind, items = "set", value[SET_MARKER]
    elif isinstance(value, list):
        kind, items = "list", value
    else:
        return None
    simple = all(isinstance(item, str | int | float) for item in items)
    return (kind, list(items)) if items and simple else None


def overlapping_arguments(
    names: Sequence[str], base: Mapping[str, Any]
) -> list[tuple[str, Any, str]]:
    """``(parameter, value, words)``: each later collection parameter given the first item
    of an earlier one of its kind (see the module's docstring)."""
    found: list[tuple[str, Any, str]] = []
    collections = [(n, shape) for n in names if n in base and (shape := _items(base[n]))]
    for at, (first, (kind, items)) in enumerate(collections):
        for second, (other_kind, other_items) in collections[at + 1 :]:
            if other_kind != kind or items[0] in other_items:
                continue
            shared = [items[0], *other_items[1:]]
            value = set_of(shared) if kind == "set" else shared
            found.append((second, value, f"{second}_shares_an_item_with_{first}"))
    return found


def repeated_item_arguments(
    names: Sequence[str], base: Mapping[str, Any]
) -> list[tuple[str, Any, str]]:
    """``(parameter, value, words)``: each list parameter of distinct items with its first
    item repeated, next to itself and at the end (see the module's docstring)."""
    found: list[tuple[str, Any, str]] = []
    for name in names:
        shape = _items(base[name]) if name in base else None
        if shape is None or shape[0] != "list" or len(set(shape[1])) != len(shape[1]):
            continue
        first, *rest = shape[1]
        found.append((name, [first, first, *rest, first], f"{name}_has_a_repeated_item"))
    return found
