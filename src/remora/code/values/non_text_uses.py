"""Parameters no string stands in for: a type, a mapping, a collection of non-text items.

A string is a sequence: code that walks a parameter's items walks a string's characters
and finishes, and its test pins a value of characters, not of the items the code was
written for (issue 56, blind reviewers: a string given for a signature of types, for a
path's segments, for a node's children whose ``children[0]`` is ``"s"``). Read with
:mod:`ast` (nothing runs), for each parameter and each value the code reads from one with
a constant key (``node["children"]``), with the names bound only to copies of it
(``p = tuple(p)``, ``rest = p[1:]``) and its items: ``for x in p``, ``p[i]`` (and a name
bound only to one, ``x = p[i]``), what ``enumerate``/``zip`` over it give a loop
(:mod:`~remora.code.values.parameter_reads`), what ``map(issubclass, p, q)`` hands on.

- **a type**: handed to ``issubclass`` or as the class of ``isinstance(x, p)``. No string is
  one. (An attribute no string has, ``p.__name__``, is
  :func:`~remora.code.values.argument_fit.excluded_value`'s rule.)
- **a mapping**: read with a string key (``p["type"]``), which no string can be.
- **items that are no text**: its items handed to ``issubclass``/``isinstance`` as types,
  called, read with a string key (``x["type"]``), unpacked (``for k, v in p``), or read an
  attribute no string has (``x.begin``). Neither a string nor a list of strings fits.
- **items that are no characters**: its items asked ``isinstance`` about (items of several
  kinds: a text's are all strings), measured with ``len``, indexed, walked again, used in
  arithmetic (``x - 1``), or compared with a text longer than one character (``item ==
  "eof"``). A string's items are one-character strings: no string fits, a list may.
- **a collection**: walked (``for x in p``, ``*p``) or handed whole to what takes items
  (``sorted(p)``, ``max(p)``, ``sep.join(p)``, ``list(p)``, ``zip``, ``map``): alone this
  is weaker (``sorted(set(word))`` is text code too), so it excludes only the placeholder
  the search made up (:func:`~remora.code.values.derived_sets.made_up`), not a string the
  project's own code or docs pass.

A text use says the value may be text, and then no rule holds: the value compared with a
string, added to one, handed to ``ord``/``int``/``float`` or to ``re``, a method only text
has called on it (``p.lower()``), or asked ``isinstance`` about (several kinds); its items
compared with a one-character string, looked for in a string (``ch in "+-"``), handed to
``ord`` or a text method called on them (``ch.isdigit()``), unless the code asks what kind
each item is. ``len(p)`` and ``p[0]`` say nothing: text has both. A parameter rebound to
anything but a copy of itself (``p = p.split()``) is left alone.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from remora.code.values.parameter_reads import (
    Loop,
    Place,
    ValueReads,
    call_name,
    item_reads,
    plain_name,
    text_constant,
)
from remora.code.values.placeholders import made_up, made_up_items

__all__ = ["NonText", "Place", "non_text_places", "string_misfit", "walked_lists"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
Kind = Literal["type", "mapping", "items", "characters", "collection"]
# What one use says: a Kind, ``text``, ``kinds`` (asked isinstance about), ``asked`` (an
# item asked isinstance about: items of several kinds).
Use = tuple[str, str]

# Builtins whose first argument is a collection they take the items of (``max``/``min``
# only when given one argument: ``max(a, b)`` compares two values).
_TAKE_ITEMS = frozenset(
    {"sorted", "sum", "list", "tuple", "set", "frozenset", "enumerate", "reversed"}
    | {"any", "all", "dict", "iter"}
)
_ONE_TAKES_ITEMS = frozenset({"max", "min"})
# Methods a string has and no list, tuple or dict has: a call of one is a text use.
_TEXT_METHODS = frozenset(dir(str)) - frozenset(dir(list)) - frozenset(dir(tuple))
_TEXT_METHODS -= frozenset(dir(dict))
_TEXT_READERS = frozenset({"ord", "int", "float"})
_NUMBER_OPERATORS = ast.Sub | ast.Div | ast.FloorDiv | ast.Pow
_A_CHARACTER = "a"
_RECEIVERS = frozenset({"self", "cls"})  # ``self.join(p)`` is the class's, not str.join


@dataclass(frozen=True)
class NonText:
    """What the code's uses say a place is: ``kind`` the rule, ``use`` the first use read."""

    kind: Kind
    use: str


def _texts(node: ast.AST) -> list[str]:
    """The strings a comparison's side holds: a string constant, or a tuple, list or set
    of them (``("eq", "ne")``); empty for anything else."""
    if (text := text_constant(node)) is not None:
        return [text]
    if isinstance(node, ast.Tuple | ast.List | ast.Set) and node.elts:
        texts = [text_constant(e) for e in node.elts]
        return [t for t in texts if t is not None] if None not in texts else []
    return []


def _compared_item(compare: ast.Compare, item: ast.expr) -> Use | None:
    """An item compared with strings: a character where each is one character long or
    the item is looked for in one (``ch in "+-"``), no character where each is longer
    (``token == "eof"``, ``g in ("**", "*/")``)."""
    sides = [compare.left, *compare.comparators]
    for index, op in enumerate(compare.ops):
        left, right = sides[index], sides[index + 1]
        if item is not left and item is not right:
            continue
        other = right if left is item else left
        texts = _texts(other)
        if not texts or (isinstance(op, ast.In | ast.NotIn) and other is left):
            continue
        if isinstance(op, ast.In | ast.NotIn) and isinstance(other, ast.Constant):
            return "text", f"looked for in {texts[0]!r}"
        if all(len(t) == 1 for t in texts):
            return "text", "compared with a character"
        if all(len(t) > 1 for t in texts):
            return "characters", f"compared with {texts[0]!r}"
    return None


def _item_use(reader: ValueReads, item: ast.expr) -> Use | None:
    """What one use of an item says: ``items`` (no text), ``characters`` (no character),
    ``asked`` (asked isinstance about), ``text`` (a character), or nothing (None)."""
    if isinstance(item, ast.Tuple | ast.List):
        return "items", "unpacked"
    parent = reader.parent(item)
    name = call_name(parent)
    if isinstance(parent, ast.Call) and item in parent.args:
        position = parent.args.index(item)
        if name == "issubclass" or (name == "isinstance" and position == 1):
            return "items", f"handed to {name} as types"
        if name == "isinstance":
            return "asked", "asked isinstance about"
        if name in _TEXT_READERS:
            return "text", f"handed to {name}"
        if name in ("len", "zip", *_TAKE_ITEMS, *_ONE_TAKES_ITEMS):
            return "characters", f"handed to {name}"
    if isinstance(parent, ast.Call) and parent.func is item:
        return "items", "called"
    if isinstance(parent, ast.Subscript) and parent.value is item:
        if text_constant(parent.slice) is not None:
            return "items", "read with a string key"
        return "characters", "indexed"
    if isinstance(parent, ast.Attribute) and parent.value is item:
        if parent.attr in _TEXT_METHODS:
            return "text", f"given .{parent.attr}"
        if not hasattr(_A_CHARACTER, parent.attr):
            return "items", f"read .{parent.attr}"
    if isinstance(parent, Loop) and parent.iter is item:
        return "characters", "walked"
    if isinstance(parent, ast.Starred):
        return "characters", "unpacked with *"
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, _NUMBER_OPERATORS):
        return "characters", "used in arithmetic"
    return _compared_item(parent, item) if isinstance(parent, ast.Compare) else None


def _mapped_use(reader: ValueReads, occurrence: ast.expr) -> Use | None:
    """``map(issubclass, a, b)``: the items handed to ``issubclass`` as types."""
    parent = reader.parent(occurrence)
    if call_name(parent) != "map" or not isinstance(parent, ast.Call):
        return None
    if occurrence in parent.args[1:] and plain_name(parent.args[0]) == "issubclass":
        return "items", "handed to issubclass as types"
    return None


def _whole_use(reader: ValueReads, occurrence: ast.expr) -> Use | None:
    """What one use of the value itself says: ``collection`` (its items taken), ``text``,
    ``type``, ``kinds`` (asked ``isinstance`` about), or None."""
    parent = reader.parent(occurrence)
    name = call_name(parent)
    if isinstance(parent, ast.Call) and occurrence in parent.args:
        position = parent.args.index(occurrence)
        if name == "issubclass" or (name == "isinstance" and position == 1):
            return "type", f"handed to {name} as a type"
        if name in ("isinstance", "type", "hasattr", "getattr"):
            return "kinds", name
        if name in _TEXT_READERS:
            return "text", name
        function = parent.func
        if isinstance(function, ast.Attribute) and plain_name(function.value) == "re":
            return "text", f"re.{function.attr}"
        if position == 0 and (
            name in _TAKE_ITEMS or (name in _ONE_TAKES_ITEMS and len(parent.args) == 1)
        ):
            return "collection", f"handed to {name}"
        if name == "zip" or (name in ("map", "filter") and position > 0):
            return "collection", f"handed to {name}"
        if _joined(parent):
            return "collection", "joined"
    if isinstance(parent, ast.Attribute) and parent.value is occurrence:
        return ("text", f".{parent.attr}") if parent.attr in _TEXT_METHODS else None
    if isinstance(parent, ast.Subscript) and parent.value is occurrence:
        key = text_constant(parent.slice)
        return ("mapping", f"read with the key {key!r}") if key is not None else None
    if isinstance(parent, Loop) and parent.iter is occurrence:
        return "collection", "walked"
    if isinstance(parent, ast.Starred):
        return "collection", "unpacked with *"
    if isinstance(parent, ast.Compare):
        held = parent.left is not occurrence and isinstance(parent.ops[0], ast.In | ast.NotIn)
        others = [s for s in [parent.left, *parent.comparators] if s is not occurrence]
        if not held and any(_texts(s) for s in others):
            return "text", "compared with a string"  # ``"x" in p``: a list's member test too
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
        other = parent.right if parent.left is occurrence else parent.left
        if text_constant(other) is not None or isinstance(other, ast.JoinedStr):
            return "text", "added to a string"
    return None


def _joined(call: ast.Call) -> bool:
    """``sep.join(p)``, ``", ".join(p)``: a string's join of one collection (not
    ``os.path.join(a, b)`` nor the class's own ``self.join(p)``)."""
    function = call.func
    if not (isinstance(function, ast.Attribute) and function.attr == "join"):
        return False
    if len(call.args) != 1 or call.keywords:
        return False
    receiver = function.value
    return plain_name(receiver) not in ("", *_RECEIVERS) or text_constant(receiver) is not None


def _first(uses: list[Use], kind: str) -> str | None:
    return next((use for found, use in uses if found == kind), None)


def _read(reader: ValueReads, occurrences: list[ast.expr]) -> NonText | None:
    whole = [u for u in (_whole_use(reader, o) for o in occurrences) if u is not None]
    if _first(whole, "text") is not None or _first(whole, "kinds") is not None:
        return None
    strong: tuple[Kind, ...] = ("type", "mapping")
    for kind in strong:
        if (use := _first(whole, kind)) is not None:
            return NonText(kind, use)
    items = [u for o in occurrences if (u := _mapped_use(reader, o))]
    items += [u for o in occurrences for i in item_reads(reader, o) if (u := _item_use(reader, i))]
    if (use := _first(items, "asked")) is not None:  # items of several kinds: text's are not
        return NonText("characters", f"its items {use}")
    if _first(items, "text") is not None:
        return None
    of_items: tuple[Kind, ...] = ("items", "characters")
    for kind in of_items:
        if (use := _first(items, kind)) is not None:
            return NonText(kind, f"its items {use}")
    use = _first(whole, "collection")
    return NonText("collection", use) if use is not None else None


@functools.lru_cache(maxsize=16)  # asked once per candidate of the same node: read once
def non_text_places(function: Function) -> Mapping[Place, NonText]:
    """Each parameter, or value read from one with a constant key, whose uses say no string
    (or, for a ``collection``, no made-up string) stands in for it."""
    reader = ValueReads(function)
    found: dict[Place, NonText] = {}
    for place, occurrences in reader.places():
        copies = reader.copies_of(place[0], occurrences)
        read = _read(reader, copies) if copies else None
        if read is not None:
            found[place] = read
    return found


def _misfit(place: Place, read: NonText, value: Any) -> str | None:
    name, key = place
    where = name if key is None else f"{name}[{key!r}]"
    items = isinstance(value, list | tuple)
    if read.kind == "items" and items and any(isinstance(v, str) for v in value):
        return f"{where}: {read.use}, not strings"
    if not isinstance(value, str):
        return None
    if read.kind == "collection":
        made = made_up(key or name, value)
        return f"{where}: {read.use}, a collection, not a made-up str" if made else None
    what = {
        "type": "a type",
        "mapping": "a mapping",
        "items": "a collection of no text",
        "characters": "a collection of no characters",
    }[read.kind]
    return f"{where}: {read.use}, {what}, not a str"


def string_misfit(places: Mapping[Place, NonText], name: str, value: Any) -> str | None:
    """Why ``value`` for the parameter ``name`` (or a value of it at a key the code reads)
    cannot stand for what :func:`non_text_places` read; None when it may."""
    own = places.get((name, None))
    if own is not None and (why := _misfit((name, None), own, value)):
        return why
    for key, item in value.items() if isinstance(value, dict) else ():
        read = places.get((name, key)) if isinstance(key, str) else None
        if read is not None and (why := _misfit((name, key), read, item)):
            return why
    return None


def walked_lists(function: Function, base: Mapping[str, Any]) -> dict[str, list[str]]:
    """Two made-up items for each parameter read as a ``collection`` whose value in ``base``
    is one the search made up for it, a string or a list of one made-up item
    (``seq=["sample seq", "other seq"]`` for ``for item in seq``): the string is excluded,
    and two items make a walk, a sort or a ``max`` do something. Items the code uses (as
    types, keys, characters...) say more than a placeholder can: none is offered there."""
    return {
        name: made_up_items(name)
        for (name, key), read in non_text_places(function).items()
        if key is None and read.kind == "collection" and made_up(name, base.get(name))
    }
