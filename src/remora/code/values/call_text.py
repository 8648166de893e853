"""Arguments and values a model writes as Python text, read with :mod:`ast` (nothing is run).

Models write calls well, and text keeps a tool's arguments bounded (a nested
JSON object of arbitrary keys is not, for a small model under a grammar):
``price=9.99, percent=10`` or ``[Item(sku='A1', price=2.5)], discount=0.1``.
Values are literals (``ast.literal_eval``), ``-x``, lists, tuples (``{"__tuple__":
[...]}``), dicts, calls of the module's own classes, which become ``{"__class__",
"args"}``, and classes named as values (``int``, the module's ``Order``: ``{"__type__":
"int"}``, :mod:`remora.code.values.unspelled_values`);
positional arguments take the parameter names in order. A JSON object of the
parameters' names is accepted too; one with other keys is a positional dict
(``positive_total({"pears": 3, "figs": 0})``, a call the project makes, is one argument,
not two keywords). Anything else (names, attribute access, arbitrary calls) is
refused with what was found and where.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Sequence
from typing import Any

from remora import python_ast
from remora.code.values.derived_sets import ClassLookup
from remora.code.values.parameters import Parameter
from remora.code.values.unspelled_values import BUILTIN_TYPES, tuple_of, type_of

__all__ = ["arguments_from_text", "value_from_text"]


def _value(node: ast.expr, classes: ClassLookup) -> Any:
    if isinstance(node, ast.Call):
        name = ast.unparse(node.func)
        params = classes(name) if isinstance(node.func, ast.Name | ast.Attribute) else None
        if params is None:
            raise ValueError(f"{name}(...): only classes of the module can be built")
        return {"__class__": name, "args": _keywords(node, params, classes)}
    if isinstance(node, ast.Tuple):
        return tuple_of([_value(item, classes) for item in node.elts])
    if isinstance(node, ast.List | ast.Set):
        return [_value(item, classes) for item in node.elts]
    if isinstance(node, ast.Name) and node.id in BUILTIN_TYPES:
        return type_of(node.id)
    if isinstance(node, ast.Name | ast.Attribute) and classes(ast.unparse(node)) is not None:
        return type_of(ast.unparse(node))  # the module's class itself, not an instance
    if isinstance(node, ast.Dict):
        out: dict[str, Any] = {}
        for key, item in zip(node.keys, node.values, strict=True):
            if key is None:
                raise ValueError("** in a dict: write the items out")
            name = _value(key, classes)
            if not isinstance(name, str):  # JSON's keys are strings: 1 or Required("a")
                raise ValueError(
                    f"{ast.unparse(key)!r}: a dict key other than a string has no JSON form"
                )
            out[name] = _value(item, classes)
        return out
    try:
        value = python_ast.literal_eval(node)
    except ValueError:
        raise ValueError(
            f"{ast.unparse(node)!r} is not a literal or a call of a class of the module"
        ) from None
    if isinstance(value, bytes | complex):
        raise ValueError(f"{ast.unparse(node)!r}: bytes and complex numbers have no JSON form")
    return value


def _named_arguments(data: dict[str, Any], parameters: Sequence[Parameter]) -> bool:
    """Whether a JSON object reads as arguments by name: its every key names a parameter
    (or a ``**kwargs`` takes it), and an empty one leaves no parameter without a value."""
    if any(p.kind == "var_keyword" for p in parameters):
        return True
    if not data:
        return not any(p.required for p in parameters)
    return set(data) <= {p.name for p in parameters}


def _keywords(call: ast.Call, params: Sequence[Parameter], classes: ClassLookup) -> dict[str, Any]:
    """Arguments by parameter name; those past the named positional ones go to a ``*args``
    parameter as a list, keywords no parameter names to a ``**kwargs`` one as a dict."""
    positional = [p.name for p in params if p.kind in ("positional_only", "positional_or_keyword")]
    star = next((p.name for p in params if p.kind == "var_positional"), None)
    double = next((p.name for p in params if p.kind == "var_keyword"), None)
    args: dict[str, Any] = {}
    if len(call.args) > len(positional) and star is None:
        raise ValueError(f"{len(call.args)} positional arguments, but only {len(positional)} fit")
    for index, node in enumerate(call.args):
        if isinstance(node, ast.Starred):
            raise ValueError(f"*{ast.unparse(node.value)}: write the arguments out")
        if index < len(positional):
            args[positional[index]] = _value(node, classes)
        elif star is not None:
            args.setdefault(star, []).append(_value(node, classes))
    named = {p.name for p in params if p.kind not in ("var_positional", "var_keyword")}
    for keyword in call.keywords:
        if keyword.arg is None:
            raise ValueError(f"**{ast.unparse(keyword.value)}: write the arguments out")
        if keyword.arg in args or keyword.arg in args.get(double or "", {}):
            raise ValueError(f"{keyword.arg} is given twice")
        if double is not None and keyword.arg not in named:
            args.setdefault(double, {})[keyword.arg] = _value(keyword.value, classes)
        else:
            args[keyword.arg] = _value(keyword.value, classes)
    return args


def arguments_from_text(
    text: str, parameters: Sequence[Parameter], classes: ClassLookup
) -> dict[str, Any]:
    """``{name: value}`` from call arguments (``a=1, b=[2]``) or a JSON object; else ValueError."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except ValueError:
            data = None
        if isinstance(data, dict) and _named_arguments(data, parameters):
            return data
    try:
        call = python_ast.parse_expression(f"f({stripped})")
    except SyntaxError as exc:
        raise ValueError(
            f"not Python call arguments ({exc.msg}); write them as in a call: a=1, b='x'"
        ) from None
    assert isinstance(call, ast.Call)  # "f(...)" parses to nothing else
    return _keywords(call, parameters, classes)


def value_from_text(text: str, classes: ClassLookup) -> Any:
    """A value from a Python literal or a call of a class of the module; ValueError why not."""
    try:
        tree = python_ast.parse_expression(text.strip())
    except SyntaxError as exc:
        raise ValueError(f"not a Python value ({exc.msg}): {text.strip()[:60]!r}") from None
    return _value(tree, classes)
