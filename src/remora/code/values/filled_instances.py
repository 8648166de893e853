"""Instances that already hold content: built, then filled through the class's own methods.

A method whose code reads what its instance holds (``if key in self.cache``,
``len(self.cache) > self.capacity``, ``list(self.cache)``) takes its real cases only on an
instance with content: an empty one gives the empty answer every reader of an empty store
gives. The project fills its instances through their public methods, never by hand, so
:func:`filled_owners` builds owners the way :mod:`.instance_search` does (the constructor
arguments the search already has), then gives them content with an *adder*: the method
under test itself where it changes its instance's state, else a public sibling that
changes what the method reads (inherited ones too, :func:`.method_state.class_methods`), or
the class's ``__setitem__``, a mapping's only adder, set as its users set an item
(``obj[key] = value``), called with values of the kinds the search already has:

- ``KEY_is_already_stored``: the adder (never a method that only takes items away:
  ``pop(index=-1)`` fills nothing) called once with the call's own value for each
  parameter the method looks up (``key in self.cache``, ``self.cache.get(key)``) and the
  other typical value for the rest: the overwrite, the hit;
- ``KEY_is_the_oldest_of_2``: that entry, then another one: the order it moves in;
- ``full``: another entry alone, with a small bound (1) where the constructor takes a
  number the method compares its state with (``self.length > self.capacity``): the
  eviction; ``holding_another_KEY`` where it takes none;
- ``holding_2_entries``: for a method that looks nothing up (``list(self.cache)``, a
  count), two entries of different values, in the order a reader shows;
- ``after_ADDER``: one call alone where the adder replaces what the method reads rather
  than adding to it (:mod:`.replacing_setters`: ``process(src)`` sets ``self.src``), and
  none where that adder is the method itself.

Where the adder takes a function the test defines (:mod:`.function_arguments`:
``connect(receiver)``), the words name the call that took it: ``after_connect``,
``after_connect_twice``, ``after_connect_for_another_sender`` (``without_sender`` where the
adder's other call leaves that optional parameter out).

A made-up value goes only to an adder's parameter it keeps as given (:mod:`.stored_only`).

An owner is its constructor arguments with :data:`CALLS_KEY`: ``[{"method": NAME,
"args": [...], "keywords": {...}}, ...]``, the calls the probe
(:mod:`remora.code.probes.programs.call_probe`) makes on the built instance before the
method's, and the test writes after building it
(:meth:`remora.code.values.call_render.CallRender.setup`). Read with :mod:`ast`.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from remora.code.values.derived_sets import ClassLookup, sample_value
from remora.code.values.function_arguments import (
    function_value,
    hands_a_function,
    takes_a_function,
)
from remora.code.values.method_state import (
    changed_attributes,
    first_parameter,
    is_self_attribute,
    reached_methods,
)
from remora.code.values.parameters import Parameter
from remora.code.values.placeholders import made_up
from remora.code.values.removing_methods import only_takes_away
from remora.code.values.replacing_setters import replaces_state
from remora.code.values.stored_only import only_stored
from remora.code.values.type_aliases import resolved_annotation

__all__ = [
    "CALLS_KEY",
    "ITEM_SETTER",
    "constructor_arguments",
    "filled_owners",
    "given_values",
    "is_filled",
    "is_item_assignment",
]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# (the owner's constructor arguments and calls, words for the test name)
FilledOwner = tuple[dict[str, Any], str]

CALLS_KEY = "__calls__"
ITEM_SETTER = "__setitem__"
# The bound an instance is built with where the method compares its state with one: the
# one other entry it is filled with reaches it, the call's own goes past it.
SMALL_BOUND = 1
_ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def is_filled(owner_args: Mapping[str, Any] | None) -> bool:
    """Whether an owner is given content by calls after it is built."""
    return bool(owner_args) and CALLS_KEY in (owner_args or {})


def constructor_arguments(owner_args: Mapping[str, Any]) -> dict[str, Any]:
    """The owner's constructor arguments, without the calls that fill it."""
    return {k: v for k, v in owner_args.items() if k != CALLS_KEY}


def given_values(owner_args: Mapping[str, Any]) -> list[Any]:
    """The values an owner is given as passed: its constructor arguments and those of the
    calls that fill it (not the calls' own keys)."""
    values = list(constructor_arguments(owner_args).values())
    for step in owner_args.get(CALLS_KEY) or []:
        values += [*step.get("args", []), *(step.get("keywords") or {}).values()]
    return values


def _is_plain_method(function: Function) -> bool:
    """A public instance method (no property, static or class method, no special name)."""
    decorated = {
        d.id if isinstance(d, ast.Name) else d.attr if isinstance(d, ast.Attribute) else ""
        for d in function.decorator_list
    }
    named = {"property", "staticmethod", "classmethod", "setter", "cached_property"}
    return (
        not function.name.startswith("_")
        and not decorated & named
        and first_parameter(function) is not None
    )


def _is_item_setter(function: Function) -> bool:
    """A ``__setitem__`` that needs a key and a value (more only with defaults:
    ``cache_setitem=Cache.__setitem__``): the adder of a mapping class, called as its
    users call it (``obj[key] = value``)."""
    positional = [*function.args.posonlyargs, *function.args.args]
    required = len(positional) - len(function.args.defaults)
    keywords = all(d is not None for d in function.args.kw_defaults)
    return function.name == ITEM_SETTER and required == 3 and keywords


def is_item_assignment(step: Mapping[str, Any]) -> bool:
    """Whether a filling call is an item set: ``__setitem__`` with its key and value."""
    args = step.get("args") or []
    return step.get("method") == ITEM_SETTER and len(args) == 2 and not step.get("keywords")


def _parameters(function: Function) -> list[tuple[ast.arg, bool, bool]]:
    """``(parameter, required, keyword_only)`` after the instance; none of ``*``/``**``."""
    positional = [*function.args.posonlyargs, *function.args.args][1:]
    defaults = len(function.args.defaults)
    rows = [(a, i < len(positional) - defaults, False) for i, a in enumerate(positional)]
    rows += [
        (a, d is None, True)
        for a, d in zip(function.args.kwonlyargs, function.args.kw_defaults, strict=True)
    ]
    return rows


def _self_reads(method: Function, siblings: Mapping[str, Function]) -> set[str]:
    """The attributes of its instance the method reads, itself or through the methods of
    its class it calls (private ones too)."""
    read: set[str] = set()
    for current in reached_methods(method, siblings):
        self_name = first_parameter(current)
        read |= {
            node.attr
            for node in ast.walk(current)
            if self_name
            and isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and is_self_attribute(node, self_name)
        }
    return read


def _adders(method: Function, siblings: Mapping[str, Function], read: set[str]) -> list[Function]:
    """The public methods (and a ``__setitem__``) that change what ``method`` reads and
    take something to store: the method itself first, then its siblings in the class's
    order."""
    found: list[Function] = []
    for candidate in [method, *(f for f in siblings.values() if f is not method)]:
        if not (_is_plain_method(candidate) or _is_item_setter(candidate)):
            continue
        if not _parameters(candidate):
            continue
        if candidate.args.vararg or candidate.args.kwarg:
            continue
        changes = set(changed_attributes(candidate, siblings, private=True))
        if changes & read and not only_takes_away(candidate, siblings):
            found.append(candidate)
    return found


def _looked_up(method: Function, names: set[str]) -> list[str]:
    """The method's parameters it looks its state up with: compared (``key in
    self.cache``), a subscript's key, or an argument of a call on its state
    (``self.cache.get(key)``), in the order of its parameters."""
    self_name = first_parameter(method) or "self"
    used: set[str] = set()
    for node in ast.walk(method):
        subjects: list[ast.expr] = []
        if isinstance(node, ast.Compare):
            subjects = [node.left, *node.comparators]
        elif isinstance(node, ast.Subscript) and not isinstance(node.value, ast.Name):
            subjects = [node.slice]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and is_self_attribute(node.func.value, self_name)
        ):
            subjects = list(node.args)
        used |= {s.id for s in subjects if isinstance(s, ast.Name) and s.id in names}
    order = [a.arg for a, _required, _keyword in _parameters(method)]
    return [name for name in order if name in used]


def _bounds(
    method: Function, siblings: Mapping[str, Function], attributes: Mapping[str, Parameter]
) -> list[str]:
    """The constructor parameters whose attribute the method (or a method it calls) orders
    its state against (``self.length > self.capacity``): a bound a small number reaches."""
    found: list[str] = []
    for current in reached_methods(method, siblings):
        self_name = first_parameter(current) or "self"
        for node in ast.walk(current):
            if not isinstance(node, ast.Compare) or not any(
                isinstance(op, _ORDERING) for op in node.ops
            ):
                continue
            for operand in [node.left, *node.comparators]:
                if (
                    isinstance(operand, ast.Attribute)
                    and is_self_attribute(operand, self_name)
                    and operand.attr in attributes
                    and attributes[operand.attr].name not in found
                ):
                    found.append(attributes[operand.attr].name)
    return found


def _other(name: str, annotation: str | None, avoid: Any, classes: ClassLookup) -> Any:
    """A typical value for the parameter that is not ``avoid`` (None when there is none);
    by its name alone where its annotation gives none (a type variable: ``value: V``), never
    where it gives only ``avoid`` (a second ``Listener()``: no made-up text instead)."""
    for given in dict.fromkeys([annotation, None]):
        values = [sample_value(name, given, variant, classes) for variant in (1, 0)]
        if any(value is not None for value in values):
            return next((v for v in values if v is not None and v != avoid), None)
    return None


def _call(
    adder: Function,
    method_args: Mapping[str, Any],
    same: set[str],
    classes: ClassLookup,
    aliases: Mapping[str, str],
) -> dict[str, Any] | None:
    """One call of ``adder``: the call's own value for each parameter in ``same``, another
    typical one for the rest that are required, a function the test defines for one
    annotated as a callable (:mod:`.function_arguments`: ``connect(receiver)``); None where
    a value has no sample."""
    args: list[Any] = []
    keywords: dict[str, Any] = {}
    for parameter, required, keyword_only in _parameters(adder):
        written = ast.unparse(parameter.annotation) if parameter.annotation else None
        annotation = resolved_annotation(written, aliases)  # a TypeVar: its bound class
        name = parameter.arg
        if name in same and name in method_args:
            value = method_args[name]
        elif takes_a_function(annotation):
            value = function_value(name)
            keyword_only = keyword_only or not required  # placed by name, whatever is left out
        elif required:
            value = _other(name, annotation, method_args.get(name), classes)
            if value is None or (made_up(name, value) and not only_stored(adder, name)):
                return None
        else:
            continue
        if keyword_only:
            keywords[name] = value
        else:
            args.append(value)
    return {"method": adder.name, "args": args, "keywords": keywords}


def filled_owners(
    method: Function,
    siblings: Mapping[str, Function],
    attributes: Mapping[str, Parameter],
    owner_args: Mapping[str, Any],
    method_args: Mapping[str, Any],
    classes: ClassLookup,
    aliases: Mapping[str, str] | None = None,
) -> list[FilledOwner]:
    """Owners built from ``owner_args`` and filled by an adder before the call (see the
    module's words); none where the method reads nothing an adder changes. ``aliases``:
    the module's (:mod:`.type_aliases`), which say what an adder's annotation stands for."""
    aliases = aliases or {}
    read = _self_reads(method, siblings)
    adders = _adders(method, siblings, read)
    if not adders:
        return []
    adder = adders[0]
    keys = _looked_up(method, set(method_args))
    key = keys[0] if keys else ""
    same = _call(adder, method_args, set(keys), classes, aliases)
    other = _call(adder, method_args, set(), classes, aliases)
    if same is None or other is None:
        return []
    if replaces_state(adder, read, siblings):  # called twice it holds the second call's alone
        return (
            [] if adder is method else [({**owner_args, CALLS_KEY: [same]}, f"after_{adder.name}")]
        )
    bounds = _bounds(method, siblings, attributes)
    found: list[FilledOwner] = []

    def add(calls: list[dict[str, Any]], changed: dict[str, Any], words: str) -> None:
        owner = {**owner_args, **changed, CALLS_KEY: calls}
        if all(owner != seen for seen, _words in found):
            found.append((owner, words))

    # A function the test defines, handed to the adder (connect(receiver)): named for the
    # call that took it, not for what it stores (``after_connect``).
    handed = hands_a_function(same)
    if handed and not keys:  # the call's own values where the adder shares them: on(event, f)
        shared = {a.arg for a, _r, _k in _parameters(adder)} & set(method_args)
        same = _call(adder, method_args, shared, classes, aliases) or same
    if key:
        add([same], {}, f"after_{adder.name}" if handed else f"{key}_is_already_stored")
        if other != same:
            twice = f"after_{adder.name}_twice" if handed else f"{key}_is_the_oldest_of_2"
            add([same, other], {}, twice)
    else:  # nothing looked up: two entries, whose order and count a reader shows
        given = {a.arg: v for (a, _r, _k), v in zip(_parameters(adder), same["args"], strict=False)}
        second = _call(adder, {**given, **same["keywords"]}, set(), classes, aliases)
        if second is not None and second != same:
            add([same, second], {}, f"after_{adder.name}_twice" if handed else "holding_2_entries")
        else:
            add([same], {}, f"after_{adder.name}" if handed else "holding_an_entry")
    if key and other != same:
        if bounds:
            add([other], dict.fromkeys(bounds[:1], SMALL_BOUND), "full")
        else:
            # An optional key the adder's other call leaves out is given no other value.
            omitted = key not in [a.arg for a, _r, _k in _parameters(adder)][: len(other["args"])]
            omitted = omitted and key not in other["keywords"]
            another = f"after_{adder.name}_{'without' if omitted else 'for_another'}_{key}"
            another = another if handed else ""
            add([other], {}, another or f"holding_another_{key}")
    # A method that takes a function it filled itself with (disconnect(receiver)) is called
    # after the sibling that hands one over first (connect(receiver)): what it undoes.
    sibling = adders[1] if adder is method and len(adders) > 1 else None
    first = _call(sibling, method_args, set(keys), classes, aliases) if sibling else None
    if sibling and first and hands_a_function(first):
        add([first], {}, f"after_{sibling.name}")
    return found
