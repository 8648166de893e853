"""The instance's own items: what a method stores in the container its instance is.

A method of a class that is a container may change the instance's own items instead of
its attributes (``self[key] = default``, ``self.append(item)``,
``super().__setitem__(...)``): the probe sees that by comparing the instance's contents
before and after the call (:func:`observed_contents` says how it reports them), and
:func:`contents_asserts` writes the asserts of what it reports; :func:`stores_unstable_items`
says when the items it stores come from a clock or a random source (their values are
then not asserted, only their keys or count). Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from remora.code.values.call_target import CallTarget
from remora.code.values.method_state import (
    MUTATORS,
    class_methods,
    first_parameter,
    is_self_attribute,
    reached_methods,
)
from remora.code.values.unstable_sources import from_unstable_source, unstable_locals
from remora.code.values.value_asserts import Imports, value_assert

__all__ = ["changes_own_items", "contents_asserts", "observed_contents", "stores_unstable_items"]

Function = ast.FunctionDef | ast.AsyncFunctionDef

# A container's contents are asserted whole (``assert shelf == [1, 2]``) up to this long.
_MAX_WHOLE_CHARS = 80


def _on_self(node: ast.AST, self_name: str) -> bool:
    """Whether ``node`` is the instance itself: ``self``, or ``super()`` in its class."""
    if isinstance(node, ast.Name):
        return node.id == self_name
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


def _stored_values(method: Function, self_name: str) -> list[ast.AST]:
    """What ``method`` stores in its instance's own items: ``self[k] = v`` (its ``v``), and
    the arguments of a mutating call on the instance or ``super()``
    (``self.append(v)``, ``super().__setitem__(k, v)``)."""
    stored: list[ast.AST] = []
    for node in ast.walk(method):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) and node.value:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Subscript) and _on_self(t.value, self_name) for t in targets):
                stored.append(node.value)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and _on_self(node.func.value, self_name)
            and (node.func.attr in MUTATORS or node.func.attr == "__setitem__")
        ):
            stored += [*node.args, *(k.value for k in node.keywords)]
    return stored


def changes_own_items(method: Function, siblings: Mapping[str, Function] | None = None) -> bool:
    """Whether ``method``, itself or through the methods of its class it calls on its
    instance, changes the instance's own items: ``self[k] = v``, ``del self[k]``,
    ``self.pop()``, ``super().__setitem__(k, v)``."""
    for current in reached_methods(method, siblings):
        self_name = first_parameter(current)
        if self_name is None:
            continue
        for node in ast.walk(current):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
                if _on_self(node.value, self_name):  # self[k] = v, heir, self[0] = ..., del
                    return True
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and _on_self(node.func.value, self_name)
                and node.func.attr in {*MUTATORS, "__setitem__", "__delitem__"}
            ):
                return True
    return False


def stores_unstable_items(method: Function, siblings: Mapping[str, Function] | None = None) -> bool:
    """Whether a value ``method`` stores in its instance's own items (``self[k] = v``,
    ``self.append(v)``, ``super().__setitem__(k, v)``), itself or through the methods of
    its class it calls on its instance (``self._put(k, random.random())``), comes from a
    clock or a random source: a test may then assert which keys it stored, or how many
    items, not their values."""
    reached = reached_methods(method, siblings)
    storing = {m.name for m in reached if (n := first_parameter(m)) and _stored_values(m, n)}
    for current in reached:
        self_name = first_parameter(current)
        if self_name is None:
            continue
        handed = [  # the arguments of its calls of a method that stores items
            value
            for node in ast.walk(current)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and is_self_attribute(node.func, self_name)
            and node.func.attr in storing
            for value in [*node.args, *(k.value for k in node.keywords)]
        ]
        names = unstable_locals(current)
        if any(
            from_unstable_source(v, names) for v in [*_stored_values(current, self_name), *handed]
        ):
            return True
    return False


def _item_asserts(variable: str, contents: dict[str, Any], imports: Imports) -> list[str]:
    """A mapping's changed keys one by one: ``assert d['key'] == 'default'`` (``'key' in d``
    where its value is not reported or has no literal form), ``assert 'gone' not in d``;
    empty unless every changed key is reported and written as a literal."""
    items: list[dict[str, Any]] = contents.get("items") or []
    removed: list[dict[str, Any]] = contents.get("removed") or []
    if not contents.get("all_keys") or not all(
        k["literal"] for k in [*removed, *(i["key"] for i in items)]
    ):
        return []
    lines: list[str] = []
    for item in items:
        key = item["key"]["repr"]
        line = (
            value_assert(f"{variable}[{key}]", item["value"], imports) if "value" in item else None
        )
        lines.append(line or f"assert {key} in {variable}")
    return [*lines, *(f"assert {k['repr']} not in {variable}" for k in removed)]


def contents_asserts(variable: str, contents: dict[str, Any], imports: Imports) -> list[str]:
    """Asserts of what the call changed in the container its instance is (the probe's
    ``contents``: ``{kind, length, whole?, as_is?, order?, items?, removed?, all_keys?}``):
    a mapping's changed keys (:func:`_item_asserts`) and, where its class orders them, its
    keys in that order (``assert list(sorted_dict) == ["a", "b"]``), else the contents
    whole where short and literal (``assert shelf == [1, 2]``; ``list(shelf) == [1, 2]``
    where the instance does not compare equal to them), else how many items it holds."""
    if contents["kind"] == "dict":
        lines = _item_asserts(variable, contents, imports)
        order = contents.get("order") or {}
        if lines and order.get("literal") and len(order["repr"]) <= _MAX_WHOLE_CHARS:
            lines.append(f"assert list({variable}) == {order['repr']}")
        if lines:
            return lines
    whole = contents.get("whole") or {}
    if whole.get("literal") and len(whole["repr"]) <= _MAX_WHOLE_CHARS:
        where = variable if contents.get("as_is") else f"{contents['kind']}({variable})"
        return [f"assert {where} == {whole['repr']}"]
    return [f"assert len({variable}) == {contents['length']}"]


def observed_contents(target: CallTarget, method: Function | None, text: str = "") -> str | None:
    """How the probe reports an instance method's change to its instance's own items (where
    the instance is a container): ``items`` (keys and values), ``keys`` (keys and count
    only: :func:`stores_unstable_items`, through the methods of its class it calls when
    ``text``, its file's, is given); None for any other node."""
    if method is None or (target["kind"], target["method_kind"]) != ("method", "instance"):
        return None
    siblings = class_methods(text, method) if text else None
    return "keys" if stores_unstable_items(method, siblings) else "items"
