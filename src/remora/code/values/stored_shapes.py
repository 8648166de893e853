"""A method parameter's shape from how its class uses it: a list of values, or a bit flag.

A setter that checks its argument's length (``len(values)``, itself or in a helper of
its class it hands the argument to) and stores it (``self._aligns = values``), where the
class indexes or iterates that attribute elsewhere, takes a sequence of per-item values:
a placeholder string (``"sample values"``) has a length too, but each of its characters
would be read as one item. A parameter combined with the class's integer constants
(``style & Grid.RULES``, in the method or, once stored, in any method of its class) is a
bit flag: a string there fails in the first method that tests a bit.

:func:`stored_shapes` gives each such unannotated parameter its value: for a sequence, the
string constants its items are compared with (``align == "r"``: ``["r"]``), or an empty
list where nothing says what an item is (never a placeholder item); for a flag, the bits
of the constants it is tested against (``Grid.FRAME | Grid.TITLE`` as their number).
:func:`unfit_shape` says why a value does not fit. Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from remora.code.values.method_state import first_parameter, is_self_attribute
from remora.code.values.parameters import parameter_names
from remora.code.values.usage_kinds import method_kind

__all__ = ["stored_shapes", "unfit_shape"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# Calls that take a collection and go over its items.
_OVER_ITEMS = frozenset({"enumerate", "zip", "list", "tuple", "sorted", "reversed", "map"})
_MAX_ITEMS = 3


def _owner(module: ast.Module, function: Function) -> ast.ClassDef | None:
    for node in ast.walk(module):
        if isinstance(node, ast.ClassDef) and any(item is function for item in node.body):
            return node
        if isinstance(node, ast.ClassDef):
            for item in node.body:  # the same def, parsed from another copy of the text
                same = isinstance(item, Function) and item.name == function.name
                if same and item.lineno == function.lineno:
                    return node
    return None


def _methods(cls: ast.ClassDef) -> list[Function]:
    return [item for item in cls.body if isinstance(item, Function) and first_parameter(item)]


def _int_constants(cls: ast.ClassDef) -> dict[str, int]:
    """The class's own names bound to an int literal (``FRAME = 1``)."""
    found: dict[str, int] = {}
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
            value = stmt.value.value
            if isinstance(value, int) and not isinstance(value, bool):
                found |= {t.id: value for t in stmt.targets if isinstance(t, ast.Name)}
    return found


class _Uses:
    """How the expressions matching one reading (a parameter, or ``self.ATTR``) are used."""

    def __init__(self) -> None:
        self.sized = False  # len(x)
        self.over = False  # iterated, indexed, handed to enumerate/zip
        self.text = False  # x.lower(), x.name: read as a string or an object
        self.bits = 0  # the constants' bits it is combined with
        self.items: list[str] = []  # strings its items are compared with


def _is(node: ast.AST, reading: tuple[str, str | None]) -> bool:
    """Whether ``node`` is the reading: the name ``p`` (attribute None) or ``self.ATTR``."""
    name, attribute = reading
    if attribute is None:
        return isinstance(node, ast.Name) and node.id == name
    return is_self_attribute(node, name) and getattr(node, "attr", None) == attribute


def _item_names(function: Function, reading: tuple[str, str | None]) -> set[str]:
    """Names bound to one item of the reading: a loop's target over it (through
    ``enumerate`` or ``zip`` too), or a name assigned an expression that indexes it."""
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.For | ast.comprehension):
            iterated, target = node.iter, node.target
            if _is(iterated, reading) and isinstance(target, ast.Name):
                names.add(target.id)
            elif isinstance(iterated, ast.Call) and isinstance(target, ast.Tuple):
                callee = getattr(iterated.func, "id", "")
                for index, arg in enumerate(iterated.args):
                    position = 1 if callee == "enumerate" else index
                    fits = callee in ("enumerate", "zip") and position < len(target.elts)
                    element = target.elts[position] if fits else None
                    if _is(arg, reading) and isinstance(element, ast.Name):
                        names.add(element.id)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            indexed = any(
                isinstance(inner, ast.Subscript) and _is(inner.value, reading)
                for inner in ast.walk(node.value)
            )
            if indexed and isinstance(target, ast.Name):
                names.add(target.id)
    return names


def _compared_strings(function: Function, names: set[str]) -> list[str]:
    found: list[str] = []
    for node in ast.walk(function):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        sides = [node.left, node.comparators[0]]
        if not any(isinstance(side, ast.Name) and side.id in names for side in sides):
            continue
        for side in sides:
            options = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
            found += [
                o.value
                for o in options
                if isinstance(o, ast.Constant) and isinstance(o.value, str) and o.value not in found
            ]
    return found


def _read(function: Function, reading: tuple[str, str | None], uses: _Uses, ints: Any) -> None:
    """Add what ``function`` does with the reading to ``uses`` (``ints``: the class's name
    and its int constants)."""
    owner, constants = ints
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and any(_is(arg, reading) for arg in node.args):
            callee = getattr(node.func, "id", "")
            uses.sized |= callee == "len"
            uses.over |= callee in _OVER_ITEMS
        elif isinstance(node, ast.For | ast.comprehension) and _is(node.iter, reading):
            uses.over = True
        elif isinstance(node, ast.Subscript) and _is(node.value, reading):
            uses.over |= not isinstance(node.slice, ast.Constant | ast.Slice)
        elif isinstance(node, ast.Attribute) and _is(node.value, reading):
            uses.text |= method_kind(node.attr) != "list"  # a str's method, an object's
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr):
            for side, other in ((node.left, node.right), (node.right, node.left)):
                base = getattr(other, "value", None)
                of_class = isinstance(base, ast.Name) and base.id in (owner, "self", "cls")
                name = getattr(other, "attr", "")
                if _is(side, reading) and of_class and name in constants:
                    uses.bits |= constants[name]
    uses.items += [s for s in _compared_strings(function, _item_names(function, reading))]


def _stored(function: Function, self_name: str) -> dict[str, set[str]]:
    """``parameter -> attributes of the instance the method stores it in``."""
    params = parameter_names(function)
    found: dict[str, set[str]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            for target in node.targets:
                if node.value.id in params and is_self_attribute(target, self_name):
                    found.setdefault(node.value.id, set()).add(getattr(target, "attr", ""))
    return found


def _handed(function: Function, self_name: str, siblings: dict[str, Function]) -> list[Any]:
    """``(parameter, helper, its parameter)`` for each ``self.helper(..., p, ...)``."""
    params = parameter_names(function)
    found = []
    for node in ast.walk(function):
        if not (isinstance(node, ast.Call) and is_self_attribute(node.func, self_name)):
            continue
        helper = siblings.get(getattr(node.func, "attr", ""))
        positional = [*helper.args.posonlyargs, *helper.args.args][1:] if helper else []
        for index, arg in enumerate(node.args):
            if isinstance(arg, ast.Name) and arg.id in params and index < len(positional):
                found.append((arg.id, helper, positional[index].arg))
    return found


def stored_shapes(function: Function, module: ast.Module) -> dict[str, Any]:
    """``parameter -> value`` for each unannotated parameter of a method its class uses
    as a sequence of values (a list) or a bit flag (an int); see the module's text."""
    cls = _owner(module, function)
    self_name = first_parameter(function)
    if cls is None or self_name is None:
        return {}
    ints = (cls.name, _int_constants(cls))
    methods = _methods(cls)
    siblings = {m.name: m for m in methods}
    stored = _stored(function, self_name)
    handed = _handed(function, self_name, siblings)
    shapes: dict[str, Any] = {}
    for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]:
        if arg.annotation is not None or arg.arg == self_name:
            continue
        uses = _Uses()
        _read(function, (arg.arg, None), uses, ints)
        for name, helper, inner in handed:
            if name == arg.arg:
                _read(helper, (inner, None), uses, ints)
        for attribute in stored.get(arg.arg, set()):
            for method in methods:
                _read(method, (first_parameter(method) or "self", attribute), uses, ints)
        # Only a stored argument is the class's sequence of items: a parameter the method
        # alone measures and indexes may be a string (``distance(s0, s1)``: ``len(s0)``,
        # ``s0[i]``; its README passes two strings).
        kept = bool(stored.get(arg.arg)) or any(
            name == arg.arg and inner in _stored(helper, first_parameter(helper) or self_name)
            for name, helper, inner in handed
        )
        if uses.bits and not (uses.over or uses.text):
            shapes[arg.arg] = uses.bits
        elif uses.sized and uses.over and not uses.text and kept:
            shapes[arg.arg] = uses.items[:_MAX_ITEMS]
    return shapes


def unfit_shape(args: Mapping[str, Any], shapes: Mapping[str, Any]) -> str | None:
    """Why one of ``args`` is not of the shape its class's use says (``shapes``:
    :func:`stored_shapes`): a string where a list of values or a bit flag goes."""
    for name, shape in shapes.items():
        value = args.get(name)
        if isinstance(value, str):
            what = "a list of values" if isinstance(shape, list) else "a bit flag of its class"
            return f"{name}: used as {what}, not a str"
    return None
