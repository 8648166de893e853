"""The state a method changes: which of its instance's attributes, and their asserts.

Read with :mod:`ast`; nothing runs here. :func:`changed_attributes` names the
public attributes a method assigns or mutates (``self.x = ...``, ``self.x +=
...``, ``self.x[k] = ...``, ``self.x.append(...)``), itself or through the methods of
its class it calls on its instance (``self._replace(kept)``), less those set from a
clock or a random source; the sandboxed probe reports them after each call and
:func:`state_asserts` writes the asserts of those whose value has a literal
form (a collection that has none, by its length). A private attribute it changes
(``self._title = title``) is reported through the public properties of its class that
read it (:func:`property_readers`), where there are any.

A method of a class that is a container may change the instance's own items instead
(``self[key] = default``, ``self.append(item)``, ``super().__setitem__(...)``): the probe
sees that by comparing the instance's contents before and after the call, and
:func:`contents_asserts` writes the asserts of what it reports; :func:`stores_unstable_items`
says when the items it stores come from a clock or a random source (their values are
then not asserted, only their keys or count).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Mapping
from typing import Any

from remora import python_ast
from remora.code.parsing import ast_definitions
from remora.code.values.call_target import CallTarget

__all__ = [
    "called_on_self",
    "changed_attributes",
    "class_methods",
    "contents_asserts",
    "first_parameter",
    "is_self_attribute",
    "observed_attributes",
    "observed_contents",
    "property_readers",
    "read_as_parameters",
    "state_asserts",
    "stores_unstable_items",
    "value_assert",
]

Function = ast.FunctionDef | ast.AsyncFunctionDef

_MUTATORS = {"append", "extend", "insert", "add", "update", "setdefault", "pop", "remove"}
_MUTATORS |= {"clear", "discard", "popitem", "sort", "reverse", "appendleft", "extendleft"}
# A container's contents are asserted whole (``assert shelf == [1, 2]``) up to this long.
_MAX_WHOLE_CHARS = 80
# Calls whose value differs from run to run: an attribute set from one is not asserted.
_UNSTABLE_CALLS = {"now", "utcnow", "today", "time", "time_ns", "monotonic", "perf_counter"}
_UNSTABLE_CALLS |= {"random", "randint", "uniform", "choice", "uuid1", "uuid4", "getpid", "id"}


def first_parameter(function: Function) -> str | None:
    """The name a method calls its instance (``self``), None when it takes nothing."""
    positional = [*function.args.posonlyargs, *function.args.args]
    return positional[0].arg if positional else None


def is_self_attribute(node: ast.AST, self_name: str) -> bool:
    """Whether ``node`` is ``self.NAME``."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == self_name
    )


class _SelfAsNames(ast.NodeTransformer):
    """``self.ATTR`` -> the name ``self_ATTR``."""

    def __init__(self, self_name: str, attributes: set[str]) -> None:
        self.self_name = self_name
        self.attributes = attributes

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if is_self_attribute(node, self.self_name) and node.attr in self.attributes:
            return ast.copy_location(ast.Name(f"self_{node.attr}", ast.Load()), node)
        return self.generic_visit(node)


def read_as_parameters(method: Function, self_name: str, attributes: set[str]) -> Function:
    """A copy of ``method`` whose parameters are ``self_ATTR`` for each of ``attributes``,
    its ``self.ATTR`` read as them: the rules that read a function's parameters then read
    its instance's state."""
    as_function = copy.deepcopy(method)
    _SelfAsNames(self_name, attributes).visit(as_function)  # in place: a def stays one
    as_function.args = ast.arguments(
        posonlyargs=[],
        args=[ast.arg(f"self_{a}") for a in sorted(attributes)],
        kwonlyargs=[],
        kw_defaults=[],
        defaults=[],
    )
    return as_function


def _unstable(node: ast.AST, names: set[str]) -> bool:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and inner.id in names:
            return True
        if isinstance(inner, ast.Call):
            callee = inner.func
            called = callee.id if isinstance(callee, ast.Name) else getattr(callee, "attr", "")
            if called in _UNSTABLE_CALLS:
                return True
    return False


def class_methods(text: str, method: Function) -> dict[str, Function]:
    """The methods of the class whose body defines ``method`` in ``text``, by name (the last
    of an ``@overload``ed name: its implementation); empty for a module's function."""
    for defined in ast_definitions(text):
        if isinstance(defined, ast.ClassDef) and any(
            isinstance(item, Function) and (item.name, item.lineno) == (method.name, method.lineno)
            for item in defined.body
        ):
            return {item.name: item for item in defined.body if isinstance(item, Function)}
    return {}


def called_on_self(method: Function, self_name: str) -> list[str]:
    """The names of the methods ``method`` calls on its instance (``self._store(...)``)."""
    return [
        node.func.attr
        for node in ast.walk(method)
        if isinstance(node, ast.Call)
        and is_self_attribute(node.func, self_name)
        and isinstance(node.func, ast.Attribute)
    ]


def changed_attributes(
    method: Function, siblings: Mapping[str, Function] | None = None, *, private: bool = False
) -> list[str]:
    """The public attributes a method assigns or mutates (``self.x = ...``, ``self.x += ...``,
    ``self.x[k] = ...``, ``self.x.append(...)``), less those set from a clock or a random
    source (their value differs from run to run).

    With ``siblings`` (its class's methods by name, :func:`class_methods`), also those the
    methods it calls on its instance change, and theirs in turn: a method that hands its
    new state to a helper (``self._replace(kept)``) changes what the helper assigns.
    ``private``: the private ones (``self._x``) too."""
    changed: list[str] = []
    for current in _reached(method, siblings):
        changed += [name for name in _own_changes(current, private) if name not in changed]
    return changed


def _reached(method: Function, siblings: Mapping[str, Function] | None) -> list[Function]:
    """``method`` and the methods of its class (``siblings``) it calls on its instance,
    theirs in turn, each once."""
    reached: list[Function] = []
    seen: set[str] = set()
    waiting = [method]
    while waiting:
        current = waiting.pop(0)
        reached.append(current)
        self_name = first_parameter(current)
        for name in called_on_self(current, self_name) if self_name else []:
            if siblings and name in siblings and name not in seen and name != method.name:
                seen.add(name)
                waiting.append(siblings[name])
    return reached


def _unstable_locals(method: Function) -> set[str]:
    """The local names ``method`` assigns from a clock or a random source."""
    return {
        target.id
        for node in ast.walk(method)
        if isinstance(node, ast.Assign) and _unstable(node.value, set())
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _own_changes(method: Function, private: bool = False) -> list[str]:
    """:func:`changed_attributes` of ``method``'s own body."""
    self_name = first_parameter(method)
    if self_name is None:
        return []
    unstable_locals = _unstable_locals(method)
    changed: list[str] = []
    unstable: set[str] = set()

    def note(target: ast.AST, value: ast.AST | None) -> None:
        inner = target.value if isinstance(target, ast.Subscript) else target
        if is_self_attribute(inner, self_name) and isinstance(inner, ast.Attribute):
            if inner.attr not in changed:
                changed.append(inner.attr)
            if value is not None and _unstable(value, unstable_locals):
                unstable.add(inner.attr)

    for node in ast.walk(method):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                note(target, node.value)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            note(node.target, node.value)
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                note(target, None)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS
        ):
            note(node.func.value, node)
    return [n for n in changed if (private or not n.startswith("_")) and n not in unstable]


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
            and (node.func.attr in _MUTATORS or node.func.attr == "__setitem__")
        ):
            stored += [*node.args, *(k.value for k in node.keywords)]
    return stored


def stores_unstable_items(method: Function, siblings: Mapping[str, Function] | None = None) -> bool:
    """Whether a value ``method`` stores in its instance's own items (``self[k] = v``,
    ``self.append(v)``, ``super().__setitem__(k, v)``), itself or through the methods of
    its class it calls on its instance (``self._put(k, random.random())``), comes from a
    clock or a random source: a test may then assert which keys it stored, or how many
    items, not their values."""
    reached = _reached(method, siblings)
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
        names = _unstable_locals(current)
        if any(_unstable(v, names) for v in [*_stored_values(current, self_name), *handed]):
            return True
    return False


def value_assert(where: str, seen: dict[str, Any], modules: set[str]) -> str | None:
    """The assert of one observed value (``{repr, literal, length?}``) read at ``where``:
    ``==`` its literal form (``pytest.approx`` for a float, ``is`` for None and the
    booleans), else its length; None for one with neither."""
    if seen.get("literal"):
        value = python_ast.literal_eval(seen["repr"])
        if isinstance(value, float):
            modules.add("pytest")
            return f"assert {where} == pytest.approx({seen['repr']})"
        if value is None or isinstance(value, bool):
            return f"assert {where} is {seen['repr']}"
        return f"assert {where} == {seen['repr']}"
    if isinstance(seen.get("length"), int):
        return f"assert len({where}) == {seen['length']}"
    return None


def state_asserts(variable: str, state: dict[str, Any], modules: set[str]) -> list[str]:
    """Asserts of the attributes observed after the call (``state``: attribute ->
    ``{repr, literal, length?}``); one with neither a literal form nor a length is left out."""
    lines = [
        value_assert(f"{variable}.{attribute}", seen, modules) for attribute, seen in state.items()
    ]
    return [line for line in lines if line is not None]


def _item_asserts(variable: str, contents: dict[str, Any], modules: set[str]) -> list[str]:
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
            value_assert(f"{variable}[{key}]", item["value"], modules) if "value" in item else None
        )
        lines.append(line or f"assert {key} in {variable}")
    return [*lines, *(f"assert {k['repr']} not in {variable}" for k in removed)]


def contents_asserts(variable: str, contents: dict[str, Any], modules: set[str]) -> list[str]:
    """Asserts of what the call changed in the container its instance is (the probe's
    ``contents``: ``{kind, length, whole?, as_is?, items?, removed?, all_keys?}``): a
    mapping's changed keys (:func:`_item_asserts`), else the contents whole where short and
    literal (``assert shelf == [1, 2]``; ``list(shelf) == [1, 2]`` where the instance does
    not compare equal to them), else how many items it holds."""
    if contents["kind"] == "dict":
        lines = _item_asserts(variable, contents, modules)
        if lines:
            return lines
    whole = contents.get("whole") or {}
    if whole.get("literal") and len(whole["repr"]) <= _MAX_WHOLE_CHARS:
        where = variable if contents.get("as_is") else f"{contents['kind']}({variable})"
        return [f"assert {where} == {whole['repr']}"]
    return [f"assert len({variable}) == {contents['length']}"]


def observed_attributes(target: CallTarget, method: Function | None, text: str = "") -> list[str]:
    """What to report of an instance method's instance after each call: what it changes,
    through the methods of its class it calls too when ``text`` (its file's) is given."""
    if method is None or (target["kind"], target["method_kind"]) != ("method", "instance"):
        return []
    siblings = class_methods(text, method) if text else None
    public = changed_attributes(method, siblings)
    hidden = [n for n in changed_attributes(method, siblings, private=True) if n.startswith("_")]
    readers = property_readers(text, method, set(hidden)) if text and hidden else []
    return public + [name for name in readers if name not in public]


def observed_contents(target: CallTarget, method: Function | None, text: str = "") -> str | None:
    """How the probe reports an instance method's change to its instance's own items (where
    the instance is a container): ``items`` (keys and values), ``keys`` (keys and count
    only: :func:`stores_unstable_items`, through the methods of its class it calls when
    ``text``, its file's, is given); None for any other node."""
    if method is None or (target["kind"], target["method_kind"]) != ("method", "instance"):
        return None
    siblings = class_methods(text, method) if text else None
    return "keys" if stores_unstable_items(method, siblings) else "items"


def property_readers(text: str, method: Function, attributes: set[str]) -> list[str]:
    """The public properties of ``method``'s class (in ``text``) whose getter reads one of
    ``attributes`` (``return self._title``): a private attribute a test can read through
    them. A ``cached_property`` is none: read before the call, it would keep that value."""
    readers: list[str] = []
    for defined in ast_definitions(text):
        if not isinstance(defined, ast.ClassDef) or not any(
            isinstance(item, Function) and (item.name, item.lineno) == (method.name, method.lineno)
            for item in defined.body
        ):
            continue
        getters = [
            item
            for item in defined.body
            if isinstance(item, Function)
            and not item.name.startswith("_")
            and any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list)
        ]
        for getter in getters:
            self_name = first_parameter(getter)
            reads = {
                node.attr
                for node in ast.walk(getter)
                if isinstance(node, ast.Attribute)
                and self_name
                and is_self_attribute(node, self_name)
            }
            if reads & attributes and getter.name not in readers:
                readers.append(getter.name)
    return readers
