"""Arguments for parameters that hold several values: ``*args``, ``**kwargs``, dicts.

Read from the function's syntax tree (and its module's, for a helper it hands
``**kwargs`` to); nothing of the project runs here.

* A ``*args`` parameter gets one item and two, of the kind the code uses them as
  (``for d in dicts: d.items()`` -> dicts), and, where the code looks at its
  first item (``args[0]``), one item that is itself the list (the "one iterable
  of them" form). String items are the keys of the dict arguments, and one that
  none holds. Items the code iterates each of (``zip(*iterables)``, ``map(iter,
  iterables)``, ``for it in iterables: list(it)``) are lists of distinct numbers of
  different lengths (``[1, 2]``, ``[3, 4, 5]``), whose order and ends show.
* A ``**kwargs`` parameter gets a keyword nothing reads, and each keyword the
  code reads (``kwargs.pop("factory", dict)``), in the function or in a module
  function it hands them to, with that read's default.
* A parameter used as a dict (``d.items()``, ``rv.update(d)``) gets a dict with a
  truthy and a falsy value (:data:`DICT_SAMPLE`), so a loop over it runs and a
  test on its values goes both ways; the empty dict is tried besides, and a
  string or list parameter gets the dict's keys (``key in d`` both ways).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from remora import python_ast
from remora.code.parsing import decorator_name
from remora.code.values.compared_kinds import asked_about
from remora.code.values.kind_samples import DICT_SAMPLE
from remora.code.values.parameters import parameter_names

__all__ = ["collection_values", "dict_parameters", "helpers_given", "unread_keyword_words"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
_OTHER_DICT: dict[str, Any] = {"a": 2, "c": 3}
_MISSING_KEY = "zz"
_DICT_METHODS = frozenset({"items", "keys", "values", "get", "update", "pop", "setdefault"})
_STR_METHODS = frozenset({"lower", "upper", "strip", "split", "startswith", "endswith"})
_BUILTIN_DEFAULTS = frozenset({"dict", "list", "tuple", "set", "str", "int", "bool", "len"})


def _used_as_dict(function: ast.AST, name: str) -> bool:
    """``name.items()``-like calls, ``x.update(name)``, or ``name[k]`` with ``k`` one of its
    keys: a loop's over it, or one tested ``k in name`` (a list's ``in`` tests items, its
    ``[k]`` positions: code doing both with one ``k`` holds a mapping)."""
    keys = set(_loop_names(function, name)) | _tested_in(function, name)
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and isinstance(node.slice, ast.Name)
            and node.slice.id in keys
        ):
            return True
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        on = node.func.value
        if isinstance(on, ast.Name) and on.id == name and node.func.attr in _DICT_METHODS:
            return True
        if node.func.attr == "update" and any(
            isinstance(a, ast.Name) and a.id == name for a in node.args
        ):
            return True
    return False


def dict_parameters(function: Function, module: ast.Module | None = None) -> set[str]:
    """Parameters (``*args`` and ``**kwargs`` aside) the function uses as dicts, or hands to
    a function of ``module`` that does (``flatten(data)`` calling ``walk(data)``)."""
    return {name for name in parameter_names(function) if _dict_in(function, name, module, 2)}


def _dict_in(function: Function, name: str, module: ast.Module | None, depth: int) -> bool:
    if _used_as_dict(function, name):
        return True
    handed = helpers_given(function, name, module) if depth else []
    # A helper that asks what it was given (``if isinstance(s, Mapping): ...``) takes
    # other kinds too: ``is_camelcase(s)`` handing ``s`` to such a ``camelize`` takes text.
    return any(
        _dict_in(helper, taken, module, depth - 1) and taken not in asked_about(helper)
        for helper, taken in handed
    )


def _tested_in(function: ast.AST, name: str) -> set[str]:
    """The names tested for membership in ``name``: ``k in name``, ``k not in name``."""
    return {
        node.left.id
        for node in ast.walk(function)
        if isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Name)
        and isinstance(node.ops[0], ast.In | ast.NotIn)
        and isinstance(node.comparators[0], ast.Name)
        and node.comparators[0].id == name
    }


def _loop_names(function: ast.AST, name: str) -> list[str]:
    """The names ``for x in name`` binds."""
    return [
        node.target.id
        for node in ast.walk(function)
        if isinstance(node, ast.For | ast.comprehension)
        and isinstance(node.iter, ast.Name)
        and node.iter.id == name
        and isinstance(node.target, ast.Name)
    ]


# Calls that iterate each item of what they are given (``zip(*iterables)``,
# ``map(iter, iterables)``), and those that make one item an iterator or a collection.
_ZIPPING = frozenset({"zip", "zip_longest", "product", "chain", "roundrobin"})
_ITERATING = frozenset({"iter", "list", "tuple", "set", "sorted", "reversed"})


def _iterates_items(function: Function, name: str) -> bool:
    """Whether the code iterates each item of ``*name``: spreads it into a zipping call,
    maps ``iter``/``list``/... over it, or loops over (or makes a list of) each item."""
    items = set(_loop_names(function, name))
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            called = decorator_name(node)
            spread = [a.value for a in node.args if isinstance(a, ast.Starred)]
            if called in _ZIPPING and any(isinstance(v, ast.Name) and v.id == name for v in spread):
                return True
            given = [a for a in node.args if isinstance(a, ast.Name)]
            if called == "map" and len(node.args) == 2 and given[-1:] and given[-1].id == name:
                first = node.args[0]
                return isinstance(first, ast.Name) and first.id in _ITERATING
            if called in _ITERATING and any(a.id in items for a in given):
                return True
        looped = node.iter if isinstance(node, ast.For | ast.comprehension) else None
        if isinstance(looped, ast.Name) and looped.id in items:
            return True
    return False


def _item_kind(function: Function, name: str) -> str:
    if _iterates_items(function, name):
        return "iterable"
    for item in _loop_names(function, name):
        if _used_as_dict(function, item):
            return "dict"
        if any(
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name)
            and n.func.value.id == item
            and n.func.attr in _STR_METHODS
            for n in ast.walk(function)
        ):
            return "str"
    return "str"


def _first_item_read(function: Function, name: str) -> bool:
    return any(
        isinstance(n, ast.Subscript)
        and isinstance(n.value, ast.Name)
        and n.value.id == name
        and isinstance(n.slice, ast.Constant)
        and n.slice.value == 0
        for n in ast.walk(function)
    )


def _keys_of(base: Mapping[str, Any]) -> list[str]:
    keys = [k for v in base.values() if isinstance(v, dict) for k in v if isinstance(k, str)]
    return [k for k in dict.fromkeys(keys) if not k.startswith("__")][:1] or ["a"]


def _star_values(function: Function, name: str, base: Mapping[str, Any]) -> list[tuple[Any, str]]:
    if _item_kind(function, name) == "dict":
        out: list[tuple[Any, str]] = [
            ([DICT_SAMPLE], f"{name}_has_one_dict"),
            ([DICT_SAMPLE, _OTHER_DICT], f"{name}_has_two_dicts"),
        ]
        if _first_item_read(function, name):
            out.append(([[DICT_SAMPLE, _OTHER_DICT]], f"{name}_is_one_list_of_dicts"))
        return out
    if _item_kind(function, name) == "iterable":
        # Distinct items of different lengths: the order of what comes out, and where the
        # shorter one stops, show ("'a', 'zz'" hid both from a blind reviewer).
        return [
            ([[1, 2]], f"{name}_has_one_iterable"),
            ([[1, 2], [3, 4, 5]], f"{name}_has_two_iterables"),
        ]
    key = _keys_of(base)[0]
    out = [
        ([key], f"{name}_has_{key}"),
        ([_MISSING_KEY], f"{name}_has_a_missing_key"),
        ([key, _MISSING_KEY], f"{name}_has_two_items"),
    ]
    if _first_item_read(function, name):
        out.append(([[key, _MISSING_KEY]], f"{name}_is_one_list"))
    return out


def _keyword_reads(function: ast.AST, name: str) -> dict[str, Any]:
    """``name.pop("k", default)``, ``name.get("k", default)``, ``name["k"]``: key -> a value
    (the read's default when it is a literal or a builtin's name, else 1)."""
    found: dict[str, Any] = {}
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == name
            and node.func.attr in ("pop", "get")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.setdefault(node.args[0].value, _default_value(node.args[1:2]))
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        ):
            found.setdefault(node.slice.value, 1)
    return found


def _default_value(nodes: list[ast.expr]) -> Any:
    if not nodes:
        return 1
    node = nodes[0]
    if isinstance(node, ast.Name) and node.id in _BUILTIN_DEFAULTS:
        return {"__callable__": node.id}
    try:
        value = python_ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return 1
    return value if isinstance(value, int | float | str | bool) else 1


def helpers_given(
    function: Function, name: str, module: ast.Module | None
) -> list[tuple[ast.FunctionDef, str]]:
    """The module's functions ``function`` hands ``name`` to, as the parameter they take
    it as: ``_get_factory(merge, kwargs)`` -> ``_get_factory``'s ``kwargs``."""
    if module is None:
        return []
    defined = {s.name: s for s in module.body if isinstance(s, ast.FunctionDef)}
    found: list[tuple[ast.FunctionDef, str]] = []
    for node in ast.walk(function):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        helper = defined.get(node.func.id)
        if helper is None or helper is function:
            continue
        positional = [a.arg for a in [*helper.args.posonlyargs, *helper.args.args]]
        for index, arg in enumerate(node.args[: len(positional)]):
            if isinstance(arg, ast.Name) and arg.id == name:
                found.append((helper, positional[index]))
    return found


def unread_keyword_words(name: str) -> str:
    """The reason for a ``**name`` argument of one keyword none of the code's keyed reads
    names: a claim of the code's text, which a test's name keeps only where the call's
    outcome does not show the keyword stored or handed back (a ``**kwargs`` merged whole)."""
    return f"{name}_has_an_unread_keyword"


def _kwargs_values(
    function: Function, name: str, module: ast.Module | None
) -> list[tuple[Any, str]]:
    reads = _keyword_reads(function, name)
    for helper, parameter in helpers_given(function, name, module):
        for key, value in _keyword_reads(helper, parameter).items():
            reads.setdefault(key, value)
    taken = parameter_names(function)
    out: list[tuple[Any, str]] = [({_MISSING_KEY: 1}, unread_keyword_words(name))]
    out += [({key: value}, f"{name}_has_{key}") for key, value in reads.items() if key not in taken]
    return out


def collection_values(
    function: Function, base: Mapping[str, Any], module: ast.Module | None = None
) -> list[tuple[str, Any, str]]:
    """``(parameter, value, words)`` for the ``*args``, ``**kwargs`` and dict parameters,
    and the dict arguments' keys for the string and list ones (``base``: the typical set)."""
    arguments = function.args
    found: list[tuple[str, Any, str]] = []
    if arguments.vararg is not None:
        star = arguments.vararg.arg
        found += [(star, v, w) for v, w in _star_values(function, star, base)]
    if arguments.kwarg is not None:
        double = arguments.kwarg.arg
        found += [(double, v, w) for v, w in _kwargs_values(function, double, module)]
    dicts = [n for n in sorted(dict_parameters(function, module)) if isinstance(base.get(n), dict)]
    found += [(n, {}, f"{n}_is_empty") for n in dicts if base[n]]
    if dicts:
        key = _keys_of({n: base[n] for n in dicts})[0]
        for name, value in base.items():
            if name in dicts or isinstance(value, bool):
                continue
            if isinstance(value, str) and value != key:
                found.append((name, key, f"{name}_is_a_key_of_{dicts[0]}"))
            elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                found.append((name, [key], f"{name}_is_a_key_of_{dicts[0]}"))
                found.append((name, [key, _MISSING_KEY], f"{name}_is_two_keys"))
                found.append((name, [_MISSING_KEY, key], f"{name}_starts_with_a_missing_key"))
    return found
