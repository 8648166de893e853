"""Two collections of a call that share an item: the boundary of every operation on a pair.

The typical set gives each collection parameter items of its own (``base=["sample base",
"other base"]``, ``nxt=["sample nxt", "other nxt"]``), so a union, an intersection, a
difference or a merge that drops duplicates never meets an item both hold: ``append_unique``
tested so reads as plain ``append`` (a blind reviewer: "neither input contains a duplicate,
so the test never exercises the de-duplication"). For each pair of parameters whose typical
values are collections of one kind (two lists, two sets), the later one gets the earlier
one's first item in place of its own first: ``nxt_shares_an_item_with_base``. The search
keeps such a call only where it adds a line, a branch or a killed mutant. Nothing runs here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from remora.code.values.unspelled_values import SET_MARKER, set_of

__all__ = ["overlapping_arguments"]


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
