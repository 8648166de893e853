"""The state a method changes: which of its instance's attributes, and their asserts.

Read with :mod:`ast`; nothing runs here. :func:`changed_attributes` names the
public attributes a method assigns or mutates (``self.x = ...``, ``self.x +=
...``, ``self.x[k] = ...``, ``self.x.append(...)``), itself or through the methods of
its class it calls on its instance (``self._replace(kept)``: :func:`reached_methods`),
less those set from a clock or a random source (:mod:`.unstable_sources`); the sandboxed
probe reports them after each call and :func:`remora.code.values.value_asserts.state_asserts`
writes their asserts. A private
attribute it changes (``self._title = title``) is reported through the public properties
of its class that read it (:func:`state_readers`), where there are any, and so is a
public one a procedure changes. What a method
changes in the container its instance is, its own items, is :mod:`.own_contents`'s.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Mapping
from dataclasses import dataclass

from remora.code.parsing import ast_definitions
from remora.code.values.call_target import CallTarget, is_instance_method
from remora.code.values.unstable_sources import from_unstable_source, unstable_locals

__all__ = [
    "MUTATORS",
    "Reads",
    "ancestors",
    "called_on_self",
    "changed_attributes",
    "class_methods",
    "classes_by_name",
    "first_parameter",
    "is_self_attribute",
    "observed_attributes",
    "own_methods",
    "reached_methods",
    "read_as_parameters",
    "state_readers",
]

Function = ast.FunctionDef | ast.AsyncFunctionDef

# The methods that change a container in place (``self.items.append(x)``, ``self.add(x)``).
MUTATORS = {"append", "extend", "insert", "add", "update", "setdefault", "pop", "remove"}
MUTATORS |= {"clear", "discard", "popitem", "sort", "reverse", "appendleft", "extendleft"}


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


def class_methods(text: str, method: Function, *, inherited: bool = False) -> dict[str, Function]:
    """The methods of the class whose body defines ``method`` in ``text``, by name (the last
    of an ``@overload``ed name: its implementation); empty for a module's function.
    ``inherited``: also those its instances take from the bases the module defines
    (``class Store(Base)``), each name from the first class that has it, in the order
    Python looks it up (depth first, the bases in order: enough without a diamond)."""
    for defined in (d for d in ast_definitions(text) if isinstance(d, ast.ClassDef)):
        if any(
            isinstance(item, Function) and (item.name, item.lineno) == (method.name, method.lineno)
            for item in defined.body
        ):
            if not inherited:
                return own_methods(defined)
            found = own_methods(defined)
            for base in ancestors(defined, classes_by_name(text)):
                for name, function in own_methods(base).items():
                    found.setdefault(name, function)
            return found
    return {}


def own_methods(cls: ast.ClassDef) -> dict[str, Function]:
    return {item.name: item for item in cls.body if isinstance(item, Function)}


def classes_by_name(text: str) -> dict[str, ast.ClassDef]:
    """The classes ``text`` defines, by name (a later definition of a name wins)."""
    return {d.name: d for d in ast_definitions(text) if isinstance(d, ast.ClassDef)}


def ancestors(cls: ast.ClassDef, classes: Mapping[str, ast.ClassDef]) -> list[ast.ClassDef]:
    """The bases of ``cls`` that ``classes`` holds, and theirs, in the order Python looks a
    name up in them: depth first, the bases in order, each once (enough without a diamond)."""
    found: list[ast.ClassDef] = []
    seen = {cls.name}

    def visit(current: ast.ClassDef) -> None:
        for base in current.bases:
            if isinstance(base, ast.Name) and base.id in classes and base.id not in seen:
                seen.add(base.id)
                found.append(classes[base.id])
                visit(classes[base.id])

    visit(cls)
    return found


def called_on_self(method: Function, self_name: str) -> list[str]:
    """The names of the methods ``method`` calls on its instance (``self._store(...)``)."""
    return [
        node.func.attr
        for node in ast.walk(method)
        if isinstance(node, ast.Call)
        and is_self_attribute(node.func, self_name)
        and isinstance(node.func, ast.Attribute)
    ]


def _read_properties(
    method: Function, self_name: str, siblings: Mapping[str, Function] | None
) -> list[str]:
    """The properties of its class ``method`` reads on its instance (``return self.weeks``):
    reading one runs its body, as a call runs a method's."""
    if not siblings:
        return []
    return [
        node.attr
        for node in ast.walk(method)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Load)
        and is_self_attribute(node, self_name)
        and node.attr in siblings
        and any(ast.unparse(d) == "property" for d in siblings[node.attr].decorator_list)
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
    for current in reached_methods(method, siblings):
        changed += [name for name in _own_changes(current, private) if name not in changed]
    return changed


def reached_methods(method: Function, siblings: Mapping[str, Function] | None) -> list[Function]:
    """``method`` and the methods of its class (``siblings``) it calls on its instance (or
    the properties it reads there), theirs in turn, each once."""
    reached: list[Function] = []
    seen: set[str] = set()
    waiting = [method]
    while waiting:
        current = waiting.pop(0)
        reached.append(current)
        self_name = first_parameter(current)
        named = (
            [*called_on_self(current, self_name), *_read_properties(current, self_name, siblings)]
            if self_name
            else []
        )
        for name in named:
            if siblings and name in siblings and name not in seen and name != method.name:
                seen.add(name)
                waiting.append(siblings[name])
    return reached


def _own_changes(method: Function, private: bool = False) -> list[str]:
    """:func:`changed_attributes` of ``method``'s own body."""
    self_name = first_parameter(method)
    if self_name is None:
        return []
    unstable_names = unstable_locals(method)
    changed: list[str] = []
    unstable: set[str] = set()

    def note(target: ast.AST, value: ast.AST | None) -> None:
        inner = target.value if isinstance(target, ast.Subscript) else target
        if is_self_attribute(inner, self_name) and isinstance(inner, ast.Attribute):
            if inner.attr not in changed:
                changed.append(inner.attr)
            if value is not None and from_unstable_source(value, unstable_names):
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
            and node.func.attr in MUTATORS
        ):
            note(node.func.value, node)
    return [n for n in changed if (private or not n.startswith("_")) and n not in unstable]


def observed_attributes(target: CallTarget, method: Function | None, text: str = "") -> list[str]:
    """What to report of an instance method's instance after each call: what it changes,
    through the methods of its class it calls too when ``text`` (its file's) is given.

    A private attribute it changes is reported through the public properties of its class
    that read it; where the method is a procedure (it returns no value), a public one too,
    and through the methods that read them taking nothing (:func:`state_readers`): a store
    is checked the way its users check it, write then read (``storage.read()``), not by
    its attribute restated."""
    # A property that changes its instance (``self.unit = "weeks"; return self``) is a
    # fluent builder's step: what it changes is what its test asserts.
    if method is None or not is_instance_method(target):
        return []
    siblings = class_methods(text, method) if text else None
    public = changed_attributes(method, siblings)
    hidden = [n for n in changed_attributes(method, siblings, private=True) if n.startswith("_")]
    procedure = _is_procedure(method)
    read = set(hidden) | (set(public) if procedure else set())
    readers = state_readers(text, method, read) if text and read else {}
    if not procedure:  # a builder's setter: its properties, not every method that renders
        readers = {name: reads for name, reads in readers.items() if not name.endswith("()")}
    # One a reader hands back as it is (``return self.memory``) is read through it alone.
    through = {attribute for reads in readers.values() for attribute in reads.returned}
    kept = [name for name in public if name not in through]
    return kept + [name for name in readers if name not in kept]


def _is_procedure(method: Function) -> bool:
    """Whether the method returns no value and yields nothing."""
    return not any(
        (isinstance(node, ast.Return) and node.value is not None)
        or isinstance(node, ast.Yield | ast.YieldFrom)
        for node in ast.walk(method)
    )


def _reader_kind(item: Function) -> str:
    """``property`` for a public property getter, ``method`` for a public method that takes
    nothing but its instance and returns a value, else ''. A ``cached_property`` is none:
    read before the call, it would keep that value."""
    if item.name.startswith("_"):
        return ""
    decorators = {d.id for d in item.decorator_list if isinstance(d, ast.Name)}
    if decorators == {"property"}:
        return "property"
    if item.decorator_list or first_parameter(item) is None:
        return ""
    arguments = item.args
    takes = [*arguments.posonlyargs, *arguments.args][1 + len(arguments.defaults) :]
    required_keywords = [d for d in arguments.kw_defaults if d is None]
    if takes or required_keywords or arguments.vararg or not _returns_value(item):
        return ""
    return "method"


def _returns_value(item: Function) -> bool:
    return any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(item))


@dataclass(frozen=True)
class Reads:
    """What a reader reads of ``attributes``, and which of them it returns as they are."""

    read: frozenset[str]
    returned: frozenset[str]


def state_readers(text: str, method: Function, attributes: set[str]) -> dict[str, Reads]:
    """The public readers of ``method``'s class (in ``text``) that read one of
    ``attributes``, with what they read: a property by its name, a method that takes
    nothing and changes nothing (``def read(self): return self.memory``) as ``NAME()``,
    the probe calls it and the test writes it so."""
    siblings = class_methods(text, method)
    readers: dict[str, Reads] = {}
    for item in siblings.values():
        kind = _reader_kind(item)
        if not kind or item is method:
            continue
        if kind == "method" and changed_attributes(item, siblings, private=True):
            continue  # it changes its instance: no reader
        reads = set()
        for current in reached_methods(item, siblings):
            self_name = first_parameter(current)
            reads |= {
                node.attr
                for node in ast.walk(current)
                if self_name
                and is_self_attribute(node, self_name)
                and isinstance(node, ast.Attribute)
            }
        self_name = first_parameter(item) or "self"
        returned = {
            node.value.attr
            for node in ast.walk(item)
            if isinstance(node, ast.Return)
            and isinstance(node.value, ast.Attribute)
            and is_self_attribute(node.value, self_name)
        }
        if reads & attributes:
            name = item.name + ("()" if kind == "method" else "")
            readers[name] = Reads(frozenset(reads & attributes), frozenset(returned & attributes))
    return readers
