"""Tuples and classes where the code asks for them: values JSON cannot spell, searched for.

A set's values are JSON, so until a tuple and a class had markers
(:mod:`remora.code.values.unspelled_values`) code that asks ``isinstance(p, tuple)``, whose
items are asked ``isinstance(t, tuple) and len(t) == 2``, or that takes a class
(``issubclass(a, b)``, ``p.__name__``) only ever got lists and strings, and its tests
pinned the other side (blind reviewers: "lacks the positive case [('a', 1)]", "doesn't
cover the tuple branch"; ``typename(int)``, ``supercedes((int,), (object,))`` wanted).
Read with :mod:`ast` (nothing runs), over the reads
:mod:`remora.code.values.parameter_reads` finds and the uses
:mod:`remora.code.values.non_text_uses` reads:

- **a tuple**: the parameter asked ``isinstance(p, tuple)`` (or with ``tuple`` among the
  classes) gets its base value's items as a tuple; one whose items are asked so gets a list
  of one tuple, of the length the code compares ``len(item)`` with (two where it does not).
- **a class**: a parameter used as a type (handed to ``issubclass``, the class of
  ``isinstance(x, p)``, read an attribute only a class has: ``p.__mro__``; ``p.__name__``
  only where the code also walks or measures it, as a function has one too) gets ``int``
  in the base set and, one at a time, ``object`` (its base class: ``issubclass`` goes
  both ways between the two) and ``str`` (one apart), and the module's first public class
  where it defines one; one whose items are used as types gets a tuple of them (``(int,)``,
  then ``(object,)``, ``(str,)`` and ``(int, str)``); a class the code also walks or
  measures (``len(p)``, ``map(f, p)``) also gets a tuple of two (``(int, float)``).

A list the search made for a parameter annotated ``tuple`` alone (``Tuple[str, ...]``,
``Optional[tuple]``) is sent as a tuple (:func:`annotated_tuples`).

At most four values a parameter: the search grows by a few candidates a node, never by a
product of them.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from remora.code.values.annotations import head_name, parsed_annotation, union_parts
from remora.code.values.argument_fit import read_attributes
from remora.code.values.call_render import snake_name
from remora.code.values.non_text_uses import NonText, non_text_places
from remora.code.values.parameter_reads import ValueReads, call_name, item_reads, plain_name
from remora.code.values.parameters import Parameter
from remora.code.values.placeholders import made_up_items
from remora.code.values.unspelled_values import is_tuple, is_type, tuple_of, type_of

__all__ = ["annotated_tuples", "class_base", "tuple_type_values"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# Attributes a class has and no function, str, int, list or dict has.
_CLASS_ATTRIBUTES = frozenset({"__mro__", "__bases__", "mro", "__base__", "__subclasses__"})
# Attributes a class and a function have (a name): a class only with a collection use too.
_NAMED_ATTRIBUTES = frozenset({"__name__", "__qualname__"})
# The builtin classes searched: the base's, its base class, one apart, and a second one.
_TYPICAL, _BASE, _APART, _SECOND = "int", "object", "str", "float"
# What a class parameter is: one class, a collection of classes, or either.
_ONE, _SEVERAL, _EITHER = "class", "classes", "class or classes"


def _class_uses(function: Function) -> dict[str, str]:
    """Each parameter the code uses as a class (``class``), as a collection of classes
    (``classes``), or as a class it also walks or measures (``class or classes``)."""
    places: Mapping[tuple[str, str | None], NonText] = non_text_places(function)
    found: dict[str, str] = {}
    for (name, key), read in places.items():
        if key is not None:
            continue
        if read.kind == "type":
            found[name] = _ONE
        elif read.kind == "items" and read.use.endswith("as types"):
            found[name] = _SEVERAL
    for name, attributes in read_attributes(function, guarded=True).items():
        if found.get(name) == _SEVERAL:
            continue
        walked = places.get((name, None))
        several = walked is not None and walked.kind != "type"
        if attributes & _NAMED_ATTRIBUTES and several:
            found[name] = _EITHER  # ``p.__name__``, else the name of each of ``p``'s
        elif attributes & _CLASS_ATTRIBUTES:
            found[name] = _EITHER if several else _ONE
    return found


def _names_tuple(node: ast.expr) -> bool:
    """Whether an ``isinstance`` class argument names ``tuple`` (alone or among others)."""
    if isinstance(node, ast.Tuple):
        return any(_names_tuple(item) for item in node.elts)
    return plain_name(node) == "tuple"


def _asked_tuple(reader: ValueReads, node: ast.expr) -> bool:
    """Whether ``node`` is the value of an ``isinstance(node, tuple)``."""
    parent = reader.parent(node)
    return (
        isinstance(parent, ast.Call)
        and call_name(parent) == "isinstance"
        and len(parent.args) == 2
        and parent.args[0] is node
        and _names_tuple(parent.args[1])
    )


def _compared_length(reader: ValueReads, node: ast.expr) -> int | None:
    """N where the code compares ``len(node) == N`` (either side, a constant above 0)."""
    call = reader.parent(node)
    if not (isinstance(call, ast.Call) and call_name(call) == "len" and call.args == [node]):
        return None
    compare = reader.parent(call)
    if not isinstance(compare, ast.Compare) or len(compare.ops) != 1:
        return None
    if not isinstance(compare.ops[0], ast.Eq):
        return None
    other = compare.comparators[0] if compare.left is call else compare.left
    value = other.value if isinstance(other, ast.Constant) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _tuple_uses(function: Function) -> dict[str, list[int]]:
    """Each parameter asked ``isinstance(p, tuple)`` (0), and whose items are (the length
    the code compares an item's with; 2 where it compares none)."""
    reader = ValueReads(function)
    found: dict[str, list[int]] = {}
    for (name, key), occurrences in reader.places():
        copies = reader.copies_of(name, occurrences) if key is None else None
        if not copies:
            continue
        if any(_asked_tuple(reader, o) for o in copies):
            found.setdefault(name, []).append(0)
        items = [item for o in copies for item in item_reads(reader, o)]
        if any(_asked_tuple(reader, item) for item in items):
            lengths = [n for item in items if (n := _compared_length(reader, item))]
            found.setdefault(name, []).append(lengths[0] if lengths else 2)
    return found


def _items(name: str, count: int) -> list[Any]:
    """``count`` made-up items for the parameter ``name`` (``sample x``, ``other x``...)."""
    made = made_up_items(name)
    return [made[index % len(made)] for index in range(count)]


def _module_class(module: ast.Module | None) -> str | None:
    """The first public class the module defines at its top level."""
    classes = [s.name for s in module.body if isinstance(s, ast.ClassDef)] if module else []
    return next((name for name in classes if not name.startswith("_")), None)


def class_base(function: Function, base: Mapping[str, Any]) -> dict[str, Any]:
    """The base set's value of each parameter the code uses as a class (``int``) or as a
    collection of classes (``(int,)``), where the base holds no instance of the project."""
    out: dict[str, Any] = {}
    for name, use in _class_uses(function).items():
        held = base.get(name)
        if name not in base or (isinstance(held, dict) and "__class__" in held):
            continue
        out[name] = tuple_of([type_of(_TYPICAL)]) if use == _SEVERAL else type_of(_TYPICAL)
    return out


def tuple_type_values(
    function: Function, base: Mapping[str, Any], module: ast.Module | None
) -> list[tuple[str, Any, str]]:
    """(parameter, value, why) for the search to try one at a time: tuples where the code
    asks for one, classes where it uses a parameter as one."""
    values: list[tuple[str, Any, str]] = []
    for name, lengths in _tuple_uses(function).items():
        held = base.get(name)
        if name not in base or is_tuple(held):
            continue
        for length in lengths:
            if length == 0:
                items = list(held) if isinstance(held, list) and held else _items(name, 2)
                values.append((name, tuple_of(items), f"{name}_is_a_tuple"))
            else:
                pairs = [tuple_of(_items(name, length))]
                values.append((name, pairs, f"{name}_holds_tuples"))
    own = _module_class(module)
    for name, use in _class_uses(function).items():
        if name not in base or not (is_type(base[name]) or is_tuple(base[name])):
            continue
        one = [_BASE, _APART] + ([own] if own and use != _SEVERAL else [])
        if use == _SEVERAL:
            values += [(name, tuple_of([type_of(k)]), f"{name}_holds_{k}") for k in one]
            pair = tuple_of([type_of(_TYPICAL), type_of(_APART)])
            values.append((name, pair, f"{name}_holds_two_classes"))
            continue
        values += [(name, type_of(k), f"{name}_is_{snake_name(k)}") for k in one]
        if use == _EITHER:
            pair = tuple_of([type_of(_TYPICAL), type_of(_SECOND)])
            values.append((name, pair, f"{name}_holds_two_classes"))
    return values


def _tuple_annotated(annotation: str | None) -> bool:
    """Whether every alternative of the annotation but None is a tuple (``Tuple[str, int]``,
    ``tuple | None``)."""
    tree = parsed_annotation(annotation)
    heads = [head_name(part) for part in union_parts(tree)] if tree is not None else []
    kept = [head for head in heads if head != "None"]
    return bool(kept) and all(head.lower() == "tuple" for head in kept)


def annotated_tuples(args: Mapping[str, Any], parameters: Sequence[Parameter]) -> dict[str, Any]:
    """``args`` with each list given to a parameter annotated ``tuple`` alone sent as a
    tuple: the annotation says which sequence the code takes."""
    tupled = {p.name for p in parameters if _tuple_annotated(p.annotation)}
    return {
        name: tuple_of(value) if name in tupled and isinstance(value, list) else value
        for name, value in args.items()
    }
