"""What a call stored in or removed from its instance's own items, as a test name's words.

The probe reports what a method changed in the container its instance is
(:mod:`remora.code.probes.programs.own_contents`): a mapping's changed and removed keys,
and for any kind how many items it held before and after. A test asserting that change is
named for it, in the family of ``sets_attr``/``changes_attr``: ``stores_beta`` (a key
stored, new or changed), ``removes_tea``, ``stores_a_and_b``; ``stores_item`` for a key no
identifier spells (``1``, ``"Content-Type"``), ``stores_items`` for more than two; a
sequence's or set's by its count: ``stores_item``/``stores_items`` where it grew,
``removes_item``/``removes_items`` where it shrank, ``changes_items`` where the count held;
``removes_all_items`` where it left none of several, or of one it was not handed (a blind
reviewer on a ``clear`` named ``removes_beta``: "picks out one key when clear removes
everything"; cachetools' on two named ``removes_alpha``: "it empties the whole cache").
A key the call handed over is no value to spell (the search made it up, ``stores_zz``): one
an argument is, by that argument's words (``stores_key`` for ``setdefault(key="beta")``),
one held in an argument (a dict's key, a ``**kwargs`` keyword, a list's item) as
``given_key``/``given_keys``.

Beside it, whether the call's outcome shows a key it was handed: a key of the items it
stored, or held in the value it returned or an attribute it set. A ``**kwargs`` keyword
that none of the code's keyed reads names (``kwargs.pop("k")``) may still be read whole
(``other.update(kwargs)``): ``update(zz=1)`` storing ``zz`` shows it was. Seen, not read
from the code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remora import python_ast
from remora.code.values import snake_name

__all__ = ["GIVEN_KEY", "shows_key", "stored_words"]

# A key longer than this is worded generically (``stores_item``): a name is no place for it.
_MAX_KEY = 20
# A key held in an argument the call handed over (``update({"a": 1})``, ``update(zz=1)``).
GIVEN_KEY = "given_key"
# (a key the call handed over, the words for it)
Given = Sequence[tuple[Any, str]]


def _literal(seen: dict[str, Any] | None) -> tuple[bool, Any]:
    """(whether it has a literal form, its value) of an observed value."""
    if not seen or not seen.get("literal"):
        return False, None
    try:
        return True, python_ast.literal_eval(seen["repr"])
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _key_word(seen: dict[str, Any], given: Given) -> str | None:
    """``beta`` for the key ``"beta"``, the words of the argument that handed it over
    (``given``) where one did; None for one no short identifier spells."""
    known, key = _literal(seen)
    if not known:
        return None
    handed = {words for value, words in given if type(value) is type(key) and value == key}
    if handed:
        return handed.pop() if len(handed) == 1 else GIVEN_KEY
    if not isinstance(key, str) or not key.isascii() or not key.isidentifier():
        return None
    return snake_name(key) if len(key) <= _MAX_KEY and key.strip("_") else None


def _handed(seen: dict[str, Any], given: Given) -> bool:
    """Whether an argument of the call handed over the key ``seen``."""
    known, key = _literal(seen)
    return known and any(type(value) is type(key) and value == key for value, _ in given)


def _keys_words(keys: list[dict[str, Any]], every: bool, given: Given) -> str:
    """One key by its word, two by theirs, else ``item``/``items``; ``every``: whether
    ``keys`` are all the keys the call changed (the probe reports a few)."""
    words = [_key_word(key, given) for key in keys]
    if every and len(words) == 1:
        return words[0] or "item"
    if every and words == [GIVEN_KEY, GIVEN_KEY]:
        return f"{GIVEN_KEY}s"
    if every and len(words) == 2 and all(words):
        return "_and_".join(w for w in words if w)
    return "items"


def _counted(contents: dict[str, Any]) -> str:
    before, after = contents.get("length_before"), contents.get("length")
    if not isinstance(before, int) or not isinstance(after, int) or before == after:
        return "changes_items"
    verb = "stores" if after > before else "removes"
    return f"{verb}_{'item' if abs(after - before) == 1 else 'items'}"


def stored_words(contents: dict[str, Any] | None, given: Given = ()) -> str:
    """What the probe's ``contents`` say the call stored or removed, as words
    (``stores_beta``, ``removes_tea``, ``stores_a_and_removes_b``, ``stores_items``); ""
    where it changed no item. ``given``: the keys the call handed over, with their words
    (``("beta", "key")``: ``stores_key``)."""
    if not contents:
        return ""
    stored: list[dict[str, Any]] = [item["key"] for item in contents.get("items") or []]
    removed: list[dict[str, Any]] = contents.get("removed") or []
    every = bool(contents.get("all_keys"))
    before = contents.get("length_before") or 0
    emptied = contents.get("length") == 0 and (
        before > 1 or (before == 1 and not any(_handed(key, given) for key in removed))
    )
    if removed and not stored and emptied:
        # clear(): "removes_beta" named one key of two, "removes_alpha" the one key of a
        # cache it emptied ("it empties the whole cache"); pop("alpha") was handed it.
        return "removes_all_items"
    parts = [
        f"{verb}_{_keys_words(keys, every, given)}"
        for verb, keys in (("stores", stored), ("removes", removed))
        if keys
    ]
    return "_and_".join(parts) if parts else _counted(contents)


def _holds(value: Any, key: Any) -> bool:
    """Whether ``value`` is ``key``, or holds it as a mapping's key or a collection's item,
    at any depth."""
    if type(value) is type(key) and value == key:
        return True
    if isinstance(value, dict):
        return any(_holds(k, key) or _holds(v, key) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return any(_holds(item, key) for item in value)
    return False


def shows_key(row: dict[str, Any], key: Any) -> bool:
    """Whether the probed call's outcome (``row``) shows ``key``: a key of the items it
    stored in its instance (a sequence's or set's contents, where they changed), held by
    the value it returned (or one of that value's attributes) or by an attribute of the
    instance that reads otherwise than before the call."""
    contents = row.get("contents") or {}
    keys = [item["key"] for item in contents.get("items") or []]
    whole = contents.get("whole") if contents.get("kind") != "dict" else None
    returned = row.get("returned") or {}
    before = row.get("state_before") or {}
    changed = [
        seen
        for name, seen in (row.get("state") or {}).items()
        if (before.get(name) or {}).get("repr") != seen.get("repr")
    ]
    seen = [*keys, whole, returned, *(returned.get("attributes") or {}).values(), *changed]
    for observed in seen:
        known, value = _literal(observed)
        if known and _holds(value, key):
            return True
    return False
