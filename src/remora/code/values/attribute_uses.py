"""How a class uses the attributes its constructor stores from its parameters.

``self.table = table`` in ``__init__`` (:func:`attribute_parameters`), then
``self.table[key]`` beside ``key in self.table``, or ``self.table.items()``, in any
method of the class says ``table`` is a mapping; ``self.convert(item)`` says ``convert``
is a callable. A placeholder string for such a parameter (``"sample table"``) builds an
instance the class's methods cannot use, and a test of it pins a value of a type the
class excludes. Each method is read with its ``self.ATTR`` as a parameter
(:func:`~remora.code.values.method_state.read_as_parameters`) by the rules a function's
own parameters are read by: a mapping where
:func:`~remora.code.values.collection_arguments.dict_parameters` says one, a callable
where :func:`~remora.code.values.usage_kinds.usage_kind_names` does. An attribute asked
about with ``isinstance`` or read as both takes several kinds: none. Only unannotated
parameters without a literal default other than None are read (an annotation is the
contract). :func:`unfit_value` says why a value does not fit, :func:`fitted_values`
puts the kind's sample in its place. Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from remora import python_ast
from remora.code.values.collection_arguments import dict_parameters
from remora.code.values.compared_kinds import asked_about
from remora.code.values.derived_sets import literal_default
from remora.code.values.function_arguments import FUNCTION_MARKER
from remora.code.values.kind_samples import sample
from remora.code.values.method_state import (
    first_parameter,
    is_self_attribute,
    read_as_parameters,
)
from remora.code.values.parameters import Parameter
from remora.code.values.unspelled_values import TYPE_MARKER, is_tuple, is_type
from remora.code.values.usage_kinds import usage_kind_names

__all__ = [
    "attribute_kinds",
    "attribute_parameters",
    "classes_named",
    "fitted_values",
    "init_of",
    "stored_kinds",
    "unfit_value",
]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# The kinds read here, and what each is called (a value of one: kind_samples.sample).
_WORDS = {"dict": "a mapping", "callable": "a callable"}
_MARKERS = frozenset({"__class__", "__callable__", "__returns__", TYPE_MARKER, FUNCTION_MARKER})


def classes_named(tree: ast.Module) -> dict[str, ast.ClassDef]:
    """The module's classes by name, nested ones too."""
    return {node.name: node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


def init_of(classes: dict[str, ast.ClassDef], name: str, seen: set[str]) -> Function | None:
    """The ``__init__`` the class runs: its own, else the first local base's."""
    cls = classes.get(name)
    if cls is None or name in seen:
        return None
    seen.add(name)
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == "__init__":
            return stmt
    for base in cls.bases:
        if isinstance(base, ast.Name) and (found := init_of(classes, base.id, seen)):
            return found
    return None


def attribute_parameters(
    module_text: str, owner: str, parameters: Sequence[Parameter]
) -> dict[str, Parameter]:
    """``attribute -> constructor parameter that sets it``: ``self.ATTR = param`` in an
    ``__init__``, else (a dataclass, a NamedTuple) each parameter is its own attribute."""
    tree = python_ast.parse(module_text)
    by_name = {p.name: p for p in parameters if p.kind not in ("var_positional", "var_keyword")}
    init = init_of(classes_named(tree), owner.split(".")[-1], set())
    if init is None:
        return dict(by_name)
    self_name = first_parameter(init) or "self"
    found: dict[str, Parameter] = {}
    for node in ast.walk(init):
        targets = node.targets if isinstance(node, ast.Assign) else []
        targets += [node.target] if isinstance(node, ast.AnnAssign) and node.value else []
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if isinstance(value, ast.Name) and value.id in by_name:
            for target in targets:
                if is_self_attribute(target, self_name) and isinstance(target, ast.Attribute):
                    found.setdefault(target.attr, by_name[value.id])
    return found


def _instance_methods(cls: ast.ClassDef) -> list[Function]:
    """The class's own methods that take their instance first (no static or class method)."""
    return [
        stmt
        for stmt in cls.body
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
        and first_parameter(stmt) is not None
        and not any(
            isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
            for d in stmt.decorator_list
        )
    ]


def attribute_kinds(
    cls: ast.ClassDef, attributes: set[str], module: ast.Module | None = None
) -> dict[str, str]:
    """``attribute -> "dict" or "callable"`` for each of ``attributes`` the class's methods
    use as a mapping or call, and as nothing else it is asked about or read as."""
    seen: dict[str, set[str]] = {}
    for method in _instance_methods(cls):
        as_function = read_as_parameters(method, first_parameter(method) or "self", attributes)
        several = asked_about(as_function)
        for name in dict_parameters(as_function, module):
            seen.setdefault(name, set()).add("several" if name in several else "dict")
        for name, kind in usage_kind_names(as_function).items():
            seen.setdefault(name, set()).add("several" if name in several else kind)
    return {
        name.removeprefix("self_"): kind
        for name, kinds in seen.items()
        if len(kinds) == 1 and (kind := next(iter(kinds))) in _WORDS
    }


@functools.lru_cache(maxsize=16)
def _class_kinds(module_text: str, owner: str, attributes: frozenset[str]) -> dict[str, str]:
    tree = python_ast.parse(module_text)
    cls = classes_named(tree).get(owner.split(".")[-1])
    return attribute_kinds(cls, set(attributes), tree) if cls is not None else {}


def stored_kinds(module_text: str, owner: str, parameters: Sequence[Parameter]) -> dict[str, str]:
    """``constructor parameter -> kind`` for each unannotated one ``__init__`` stores as an
    attribute (``self.table = table``) the class uses as a mapping or a callable."""
    found: dict[str, str] = {}
    attributes = attribute_parameters(module_text, owner, parameters)
    kinds = _class_kinds(module_text, owner, frozenset(attributes))
    for attribute, kind in kinds.items():
        parameter = attributes[attribute]
        known, default = literal_default(parameter.default)
        if parameter.annotation is None and not (known and default is not None):
            found.setdefault(parameter.name, kind)
    return found


def _fits(value: Any, kind: str) -> bool:
    """Whether ``value`` (as the probe sends it) may be of ``kind``: None may, a mapping a
    dict, a callable a marker (``{"__callable__": ...}``, an instance, a class); no string
    may, nor a tuple."""
    if value is None:
        return True
    if kind == "dict":
        return isinstance(value, dict) and not (is_tuple(value) or is_type(value))
    return isinstance(value, dict) and bool(_MARKERS & set(value))


def unfit_value(args: Mapping[str, Any], kinds: Mapping[str, str]) -> str | None:
    """Why one of ``args`` is not of the kind the class's use of its attribute says
    (``kinds``: :func:`stored_kinds`), or None when each fits."""
    for name, kind in kinds.items():
        if name in args and not _fits(args[name], kind):
            what = type(args[name]).__name__
            return f"{name}: stored as an attribute the class uses as {_WORDS[kind]}, not a {what}"
    return None


def fitted_values(args: Mapping[str, Any], kinds: Mapping[str, str]) -> dict[str, Any]:
    """``args`` with each value the class's use excludes replaced by the kind's sample
    (a small dict whose values go both ways; a builtin that takes one argument)."""
    fitted = dict(args)
    for name, kind in kinds.items():
        if name in args and not _fits(args[name], kind):
            fitted[name] = sample(kind)
    return fitted
