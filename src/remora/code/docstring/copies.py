"""A method that hands back a changed copy is not described as changing its instance.

An immutable value's methods (a URL's ``add``, ``set`` and ``remove``, a persistent
map's ``set``, a schema's ``extend``) return a new object and leave their own alone.
"Add a new item to the URL." or "Set the value in the evolver." reads as a change in
place, and a caller who trusts it drops the result: blind reviewers rejected or edited
every such summary on hyperlink, pyrsistent, voluptuous, rfc3986 and semver ("reads
like in-place mutation; say it returns a new URL with ..."). :func:`changed_copy` says
why a summary that opens with a verb of change is refused for a method that assigns
nothing on its instance and returns a new one of its class (its return annotation
names the class or ``Self``, or each ``return`` builds one: ``Cls(...)``,
``cls(...)``, ``type(self)(...)``, ``self.__class__(...)``), unless the summary says it
returns, or says new or copy. Read with :mod:`ast`.
"""

from __future__ import annotations

import ast
import re

from remora.code.parsing import SourceNode, located_definition
from remora.code.values.method_state import (
    MUTATORS,
    classes_by_name,
    first_parameter,
    own_methods,
)

__all__ = ["changed_copy"]

Function = ast.FunctionDef | ast.AsyncFunctionDef

_CHANGE_VERBS = frozenset(
    {"add", "set", "remove", "update", "append", "extend", "replace", "apply", "delete"}
    | {"insert", "discard", "clear", "modify", "change", "merge", "drop", "assign"}
)
_SAYS_A_COPY = frozenset({"new", "copy", "copies", "return", "returns", "returning", "returned"})
# The container methods that change what they are called on, and the item dunders.
_MUTATORS = frozenset(MUTATORS | {"__setitem__", "__delitem__"})


def _root_name(node: ast.expr) -> str:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _changes_instance(function: Function, self_name: str) -> bool:
    """Whether the method assigns, deletes or calls a mutating method on anything of its
    instance (``self.x = ...``, ``self[k] = ...``, ``del self.x``, ``self.items.append``)."""
    for node in ast.walk(function):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            mutator = node.func.attr in _MUTATORS
            if mutator and _root_name(node.func.value) == self_name:
                return True
        for target in targets:
            if (
                isinstance(target, ast.Attribute | ast.Subscript)
                and _root_name(target) == self_name
            ):
                return True
    return False


def _builds_own_class(value: ast.expr, owner: str, self_name: str) -> bool:
    """``Owner(...)``, ``cls(...)``, ``type(self)(...)`` or ``self.__class__(...)``."""
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if isinstance(func, ast.Name):
        return func.id in (owner, "cls")
    if isinstance(func, ast.Attribute):
        return func.attr == "__class__" and _root_name(func.value) == self_name
    return (
        isinstance(func, ast.Call)
        and isinstance(func.func, ast.Name)
        and func.func.id == "type"
        and [_root_name(a) for a in func.args] == [self_name]
    )


def _annotated_own(function: Function, owner: str) -> bool:
    annotation = function.returns
    if annotation is None:
        return False
    named = annotation.value if isinstance(annotation, ast.Constant) else ast.unparse(annotation)
    return str(named).rsplit(".", 1)[-1] in (owner, "Self")


def _returned(function: Function) -> list[ast.expr]:
    """The values the function returns, a bare ``return``/``return None`` left out."""
    return [
        n.value
        for n in ast.walk(function)
        if isinstance(n, ast.Return)
        and n.value is not None
        and not (isinstance(n.value, ast.Constant) and n.value.value is None)
    ]


def _own_call(value: ast.expr, self_name: str) -> str:
    """``m`` for ``self.m(...)``; ''."""
    func = value.func if isinstance(value, ast.Call) else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.attr if func.value.id == self_name else ""
    return ""


def _new_ones(methods: dict[str, Function], owner: str) -> set[str]:
    """The class's methods that return a new instance of it: annotated so, or each return
    builds one or hands back what such a method of the class returns
    (``return self.replace(query=q)``), read to a fixed point."""
    found = {name for name, f in methods.items() if _annotated_own(f, owner)}
    while True:
        grown = set(found)
        for name, function in methods.items():
            self_name = first_parameter(function) or ""
            values = _returned(function)
            if values and all(
                _builds_own_class(v, owner, self_name) or _own_call(v, self_name) in found
                for v in values
            ):
                grown.add(name)
        if grown == found:
            return found
        found = grown


def changed_copy(node: SourceNode, summary: str) -> str:
    """Why ``summary`` reads as a change of the instance of a method that returns a changed
    copy ('' when it does not, or the node is no such method)."""
    words = re.findall(r"[a-z]+", summary.lower())
    if node.ref.node_type != "method" or not words or words[0] not in _CHANGE_VERBS:
        return ""
    if set(words) & _SAYS_A_COPY or node.definition is None:
        return ""
    line = node.file.positions[node.definition].start.line
    function = located_definition(node.file.text, node.ref.full_name, line)
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return ""
    self_name, owner = first_parameter(function), node.ref.full_name.split(".")[-2]
    cls = classes_by_name(node.file.text).get(owner)
    if self_name is None or cls is None or _changes_instance(function, self_name):
        return ""
    if function.name not in _new_ones(own_methods(cls), owner):
        return ""
    return (
        f"it reads as a change in place ({words[0]!r}), but {function.name} changes nothing "
        f"of its instance and returns a new {owner}; say that it returns a new {owner} "
        "with what changed"
    )
