"""A method that hands its call to a method its mapping does not have: nothing to document.

dotmap's ``iterkeys`` is ``return self._map.iterkeys()``, and ``self._map`` is the
``OrderedDict()`` its ``__init__`` built: Python 3's mappings have no ``iterkeys``
(nor ``itervalues``, ``viewitems``, ``next``...), so every call raises
``AttributeError``. Six such methods were each given "Return an iterator over the keys
of the map." and the like, and its blind reviewer rejected all six as false. A method
whose every ``return`` hands the call to ``self.<attribute>.<method>(...)``, where the
class's ``__init__`` assigns that attribute a builtin mapping or sequence (a display,
``dict()``, ``list()``, ``OrderedDict()``, ``defaultdict(...)``, ``deque()``) and that
type has no such method, gets no summary: what it says of the result is false. Read
with :mod:`ast`; the builtin types are looked up as they are, nothing of the project
runs.
"""

from __future__ import annotations

import ast
import collections
from typing import Any

from remora.code.docstring.behaviour import node_definition
from remora.code.parsing import SourceNode, ast_tree
from remora.code.values.annotations import called_name
from remora.code.values.method_state import first_parameter, is_self_attribute

__all__ = ["missing_method"]

_DISPLAYS: dict[type[ast.expr], type] = {
    ast.Dict: dict,
    ast.DictComp: dict,
    ast.List: list,
    ast.ListComp: list,
    ast.Set: set,
    ast.SetComp: set,
}
_CONSTRUCTORS: dict[str, type[Any]] = {
    "dict": dict,
    "list": list,
    "set": set,
    "OrderedDict": collections.OrderedDict,
    "defaultdict": collections.defaultdict,
    "deque": collections.deque,
    "Counter": collections.Counter,
}


def missing_method(node: SourceNode) -> str:
    """Why no summary of the method stands ('' when its calls can work): every return
    hands the call to a method the attribute's builtin type lacks (module docstring)."""
    method = node_definition(node)
    self_name = first_parameter(method) if method is not None else None
    if method is None or self_name is None or node.ref.node_type != "method":
        return ""
    returns = [n for n in ast.walk(method) if isinstance(n, ast.Return)]
    lacking = [_lacking(r.value, self_name, node, method) for r in returns]
    if not lacking or not all(lacking):
        return ""
    return (
        f"{node.ref.full_name} calls {lacking[0]}, which does not exist: every call raises "
        "AttributeError, so no summary of what it returns is true; leave it undocumented"
    )


def _lacking(
    value: ast.expr | None,
    self_name: str,
    node: SourceNode,
    method: ast.FunctionDef | ast.AsyncFunctionDef,
) -> str:
    """``OrderedDict.iterkeys`` for ``self._map.iterkeys()`` where ``_map`` is built an
    ``OrderedDict`` that has no ``iterkeys``; '' for anything else."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
        return ""
    holder = value.func.value
    if not (isinstance(holder, ast.Attribute) and is_self_attribute(holder, self_name)):
        return ""
    kind = _built_type(node, method, holder.attr)
    if kind is None or hasattr(kind, value.func.attr):
        return ""
    return f"{kind.__name__}.{value.func.attr}"


def _built_type(
    node: SourceNode, method: ast.FunctionDef | ast.AsyncFunctionDef, attribute: str
) -> type | None:
    """The builtin type the class's ``__init__`` assigns ``self.<attribute>`` (None when it
    assigns anything else, or more than one kind)."""
    tree = ast_tree(node.file.text)
    owner = (
        next(
            (c for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and method in c.body),
            None,
        )
        if tree is not None
        else None
    )
    init = (
        next(
            (s for s in owner.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"),
            None,
        )
        if owner is not None
        else None
    )
    if init is None or (self_name := first_parameter(init)) is None:
        return None
    kinds: set[type] = set()
    for item in ast.walk(init):
        if isinstance(item, ast.Assign | ast.AnnAssign) and item.value is not None:
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            if any(
                is_self_attribute(t, self_name)
                and isinstance(t, ast.Attribute)
                and t.attr == attribute
                for t in targets
            ):
                kinds.add(_type_of(item.value) or object)
    return kinds.pop() if len(kinds) == 1 and object not in kinds else None


def _type_of(value: ast.expr) -> type | None:
    if type(value) in _DISPLAYS:
        return _DISPLAYS[type(value)]
    if isinstance(value, ast.Call):
        return _CONSTRUCTORS.get(called_name(value))
    return None
