"""Argument values the function's own reads ask for, read with :mod:`ast` (nothing runs).

* :func:`keyed_dicts`: a parameter read as ``data["customer"]`` or
  ``data.get("lines", [])`` gets a dict with those keys; a key's value is what
  its use says (a keyword of a project class's constructor takes that
  parameter's type, a loop over it a one-item list of dicts with the keys the
  loop variable is read with), else a typical value for the key's name.
* :func:`attribute_classes`: an unannotated parameter read as ``p.sku`` gets an
  instance of a project class whose constructor takes ``sku``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import Any

from remora import python_ast
from remora.code.values.annotations import MAPPING_HEADS, first_head
from remora.code.values.derived_sets import ClassLookup, sample_value
from remora.code.values.input_search import Candidate
from remora.code.values.parameters import CallParameter
from remora.code.values.value_words import label

__all__ = ["attribute_classes", "fitted_arguments", "keyed_dicts", "reads_of_keys"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# A loop over a key read gets a list of dicts: at most this many lists nested in one value.
_NESTED_LISTS = 2


def reads_of_keys(function: Function, name: str) -> tuple[list[ast.Subscript], list[ast.Call]]:
    """``name["k"]`` reads and ``name.get("k", ...)`` calls with a constant string key."""
    subscripts: list[ast.Subscript] = []
    gets: list[ast.Call] = []
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        ):
            subscripts.append(node)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == name
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            gets.append(node)
    return subscripts, gets


class _KeyedValues:
    """Values for the keys a function reads from a dict, by how each read is used."""

    def __init__(self, function: Function, classes: ClassLookup) -> None:
        self.function = function
        self.classes = classes
        self.parents: dict[int, ast.AST] = {}
        # (name, key) -> the value chosen for name["key"], for lookups keyed by it
        self.chosen: dict[tuple[str, str], Any] = {}
        for parent in ast.walk(function):
            for child in ast.iter_child_nodes(parent):
                self.parents[id(child)] = parent

    def keyed(self, name: str, with_optional: bool, depth: int = 0) -> dict[str, Any]:
        subscripts, gets = reads_of_keys(self.function, name)
        out: dict[str, Any] = {}
        for node in subscripts:
            key = node.slice.value if isinstance(node.slice, ast.Constant) else ""
            out.setdefault(str(key), self.value(str(key), node, None, depth))
        for call in gets if with_optional else []:
            key = str(call.args[0].value) if isinstance(call.args[0], ast.Constant) else ""
            default = call.args[1] if len(call.args) > 1 else None
            out.setdefault(key, self.value(key, call, default, depth))
        for key, value in out.items():
            if isinstance(value, str | int) and not isinstance(value, bool):
                self.chosen.setdefault((name, key), value)
        return out

    def lookups(self, params: Sequence[str]) -> dict[str, dict[Any, Any]]:
        """A dict for each parameter looked up with a value chosen for a key read
        (``catalogue[entry["sku"]]``): that value maps to a typical one."""
        found: dict[str, dict[Any, Any]] = {}
        for node in ast.walk(self.function):
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Name)
                and node.value.id in params
                and isinstance(node.slice, ast.Subscript)
                and isinstance(node.slice.value, ast.Name)
                and isinstance(node.slice.slice, ast.Constant)
            ):
                read = (node.slice.value.id, str(node.slice.slice.value))
                if read in self.chosen:
                    name = node.value.id
                    value = sample_value(name, None, 0, self.classes)
                    found.setdefault(name, {})[self.chosen[read]] = value
        return found

    def value(self, key: str, read: ast.expr, default: ast.expr | None, depth: int) -> Any:
        parent = self.parents.get(id(read))
        # Bounded before it recurses: ``for part in part["parts"]`` reads the same
        # name again, and so may two loops reading each other's names (a tree's walk).
        if (
            isinstance(parent, ast.For | ast.comprehension)
            and parent.iter is read
            and isinstance(parent.target, ast.Name)
            and depth < _NESTED_LISTS
        ):
            item = self.keyed(parent.target.id, True, depth + 1)
            if item:
                return [item]
        if isinstance(parent, ast.keyword) and parent.arg:
            call = self.parents.get(id(parent))
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
                params = {p.name: p for p in self.classes(call.func.id) or []}
                if parent.arg in params:
                    return sample_value(key, params[parent.arg].annotation, 0, self.classes)
        known, literal = _constant(default)
        kind = type(literal).__name__ if known and literal is not None else None
        if kind in ("list", "dict"):
            kind = None  # a container of what is not known: the name decides
        return sample_value(key, kind, 0, self.classes)


def _constant(node: ast.expr | None) -> tuple[bool, Any]:
    if node is None:
        return False, None
    try:
        return True, python_ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def keyed_dicts(
    function: Function, classes: ClassLookup
) -> tuple[dict[str, dict[str, Any]], list[tuple[dict[str, Any], str]]]:
    """(parameter -> a dict with the keys it is subscripted with, for the typical set;
    ``(changed arguments, words)`` to try besides: the dict with the ``.get`` keys too,
    and a dict another parameter is looked up in with one of its values)."""
    params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    params += [a.arg for a in function.args.kwonlyargs]
    values = _KeyedValues(function, classes)
    required: dict[str, dict[str, Any]] = {}
    fuller: list[tuple[dict[str, Any], str]] = []
    for name in params:
        subscripts, gets = reads_of_keys(function, name)
        if subscripts:
            required[name] = values.keyed(name, False)
        if gets:
            values.chosen.clear()
            full = values.keyed(name, True)
            words = "_".join(label(k) for k in full)[:32].strip("_")
            changes: dict[str, Any] = {name: full, **values.lookups(params)}
            fuller.append((changes, f"{name}_has_{words}"))
    return required, fuller


def _snake(name: str) -> str:
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def _field_types(names: Sequence[str], classes: ClassLookup) -> dict[str, set[str]]:
    """``field name -> project classes it is annotated with`` over the classes in ``names``
    (``OrderLine.product: Product`` -> ``{"product": {"Product"}}``)."""
    found: dict[str, set[str]] = {}
    for name in names:
        for field in classes(name) or []:
            if field.annotation and classes(field.annotation) is not None:
                found.setdefault(field.name, set()).add(field.annotation)
    return found


def attribute_classes(
    function: Function, unannotated: Sequence[str], names: Sequence[str], classes: ClassLookup
) -> dict[str, Any]:
    """An instance for each unannotated parameter that names a project class (``warehouse``,
    a ``Warehouse``) or whose attributes are read (``p.sku``): among the classes in ``names``
    whose constructor takes every attribute read, one the parameter's name says (its own
    name, or a field of that name annotated with the class), else the one taking fewest."""
    found: dict[str, Any] = {}
    called = {id(n.func) for n in ast.walk(function) if isinstance(n, ast.Call)}
    field_types = _field_types(names, classes)
    for parameter in unannotated:
        read = {
            node.attr
            for node in ast.walk(function)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == parameter
            and isinstance(node.ctx, ast.Load)
            and id(node) not in called
        }
        fitting: list[tuple[bool, int, str]] = []
        for name in sorted(names):
            taken = classes(name)
            if taken is None or not read <= {p.name for p in taken}:
                continue
            named = _snake(name) == parameter or name in field_types.get(parameter, set())
            if named or read:
                fitting.append((not named, len(taken), name))
        if fitting:
            found[parameter] = sample_value(parameter, min(fitting)[2], 0, classes)
    return found


def fitted_arguments(
    function: Function,
    parameters: Sequence[CallParameter],
    base: dict[str, Any],
    names: Sequence[str],
    classes: ClassLookup,
) -> tuple[dict[str, Any], list[Candidate]]:
    """(values for the typical set where the reads ask for them, candidates besides):
    a dict with the subscripted keys, an instance with the attributes read; the dict
    with the ``.get`` keys too is a candidate of its own (its absence is the default's)."""
    unannotated = [p["name"] for p in parameters if not p.get("annotation")]
    mappings = [
        p["name"]
        for p in parameters
        if not p.get("annotation") or first_head(p["annotation"]) in MAPPING_HEADS
    ]
    updates = attribute_classes(function, unannotated, names, classes)
    required, fuller = keyed_dicts(function, classes)
    updates.update({name: value for name, value in required.items() if name in mappings})
    typical = {**base, **updates}
    extra = [
        Candidate({**typical, **changes}, words)
        for changes, words in fuller
        if set(changes) <= set(mappings) & set(base)
    ]
    return updates, extra
