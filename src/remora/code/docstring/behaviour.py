"""What a node's own code does, read once from its ``ast``: the facts a summary's verb rests on.

A summary is a claim about the code. "Return …" needs a value returned, "Print …"
a call that prints, "Raise …" a ``raise``; a method whose every value return is
``return self`` is a builder (it sets something and hands back the instance); a
predicate that returns ``a <= b`` is true when ``a`` is at most ``b``. These are
read here, once per located node, from the node's own statements (never from a
nested function, class or lambda, which are their own nodes), and judged by
:mod:`remora.code.docstring.claims`. The condition guarding each ``raise`` is
read too: a summary that only restates it says nothing (:mod:`.restating`).

A fluent class chains its steps: ``monday`` sets ``start_day`` and ends ``return
self.weeks``, a property of its class that sets ``unit`` and returns ``self``. Such a
return hands back the instance too: a builder's return is ``self``, or ``self.step`` /
``self.step(...)`` where ``step`` is a method or property of the class whose every
return is one of these (read to a fixed point). "Return the Monday job." of ``monday``
was rejected as false by both blind reviewers.
"""

from __future__ import annotations

import ast
from collections.abc import Set
from dataclasses import dataclass, field

from remora.code.parsing import (
    SourceNode,
    ast_definitions,
    ast_tree,
    located_definition,
    per_node,
    per_text,
)
from remora.code.values.annotations import dotted_name
from remora.code.values.method_state import first_parameter, own_methods
from remora.python_ast import own_nodes

__all__ = ["BodyFacts", "body_facts", "node_definition"]

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_STREAMS = ("stdout", "stderr")
_CALLED_BY_NAME = ("run", "execute", "invoke", "call", "start", "spawn", "submit", "exec", "eval")
_STORING_CALLS = ("append", "add", "insert", "extend", "update", "setdefault", "appendleft")


@dataclass(frozen=True)
class BodyFacts:
    """The node's own code, as the claims of a summary need it (see the module's docstring)."""

    readable: bool = False  # False: the text does not parse with this Python; nothing is known
    parameters: tuple[str, ...] = ()
    value_returns: int = 0
    self_returns: int = 0  # ``return self``
    # ``return xpath`` (or ``xpath.add_condition(...)``, a builder of its class): a parameter
    # never rebound, handed back.
    argument_returns: int = 0
    calls: frozenset[str] = frozenset()  # the last name of each called expression
    prints: bool = False  # print(), pprint(), echo(), or a write on stdout/stderr
    writes: bool = False  # write*/dump*/save*/commit/flush calls, or print(..., file=...)
    stores: bool = False  # an item stored into a container: d[k] = v, .append(), .add(), ...
    runs: bool = False  # a parameter is called, or run()/execute()/start()/... is
    reads: bool = False  # read*/load*/open/recv*/fetch* calls
    raises: bool = False  # a raise statement of its own
    # The expressions returned with a value, as written (``ast.unparse``).
    returned: tuple[ast.expr, ...] = ()
    # Per exception name, the condition of each raise of it (None: no condition known).
    raise_conditions: dict[str, list[str | None]] = field(default_factory=dict)

    @property
    def builder(self) -> bool:
        """Every value it returns is the instance itself (``return self``)."""
        return self.self_returns > 0 and self.self_returns == self.value_returns

    @property
    def hands_back(self) -> str:
        """What every value it returns is, where it is always one object it was given:
        "the instance itself" (``return self``), "its argument" (``return xpath``); ''."""
        if self.builder:
            return "the instance itself (`return self`)"
        if self.argument_returns > 0 and self.argument_returns == self.value_returns:
            return "the argument it was given"
        return ""


def _dotted(node: ast.expr) -> str:
    """``sys.stdout.write`` -> "sys.stdout.write"; '' for anything but names and attributes:
    a chain through a call (``open(path).read``) names no callee a claim can rest on."""
    return "" if any(isinstance(n, ast.Call) for n in ast.walk(node)) else dotted_name(node)


def _parameters(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    args = definition.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    return tuple(a.arg for a in every)


class _Scan:
    def __init__(self, parameters: tuple[str, ...]) -> None:
        self.parameters = parameters
        self.calls: set[str] = set()
        self.prints = self.writes = self.stores = self.runs = self.raises = False
        self.reads = False

    def call(self, node: ast.Call) -> None:
        dotted = _dotted(node.func)
        name = dotted.rsplit(".", 1)[-1] if dotted else ""
        if not name:
            return
        self.calls.add(name)
        receiver = dotted.rsplit(".", 1)[0] if "." in dotted else ""
        if name in ("print", "pprint", "echo", "secho") or (
            name == "write" and receiver.endswith(_STREAMS)
        ):
            self.prints = True
        if name.startswith(("write", "dump", "save")) or name in ("commit", "flush"):
            self.writes = self.writes or not receiver.endswith(_STREAMS)
        if name == "print" and any(k.arg == "file" for k in node.keywords):
            self.writes = True
        if name.startswith(("read", "load", "recv", "fetch")) or name == "open":
            self.reads = True
        if name in _STORING_CALLS or name.startswith("register"):
            self.stores = True
        if dotted in self.parameters or name in _CALLED_BY_NAME or dotted.startswith("subprocess."):
            self.runs = True


def _guard(
    parents: dict[ast.AST, ast.AST], raise_node: ast.Raise, top: ast.AST, local: set[str]
) -> str | None:
    """The condition under which ``raise_node`` runs, as written; None when it is not one
    ``if`` test the raise sits directly in the body of (an ``else``, an ``elif``, a loop, a
    ``try`` or ``with`` between them, or no ``if`` at all), or when the test reads a local
    variable (a caller cannot tell when ``item is None`` holds): no condition Remora states."""
    parent = parents.get(raise_node)
    if not isinstance(parent, ast.If) or raise_node not in parent.body:
        return None
    above = parents.get(parent)
    if isinstance(above, ast.If) and parent in above.orelse:
        return None  # an elif: its condition holds only when the ones before it did not
    if above is not top:
        return None  # inside a loop, try, with or another if: more than this test decides
    if any(isinstance(n, ast.Name) and n.id in local for n in ast.walk(parent.test)):
        return None
    return ast.unparse(parent.test)


def node_definition(node: SourceNode) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function or method ``node`` is, as ``ast`` reads it (None for another kind)."""
    if node.definition is None or node.ref.node_type not in ("function", "method"):
        return None
    line = node.file.positions[node.definition].start.line
    found = located_definition(node.file.text, node.ref.full_name, line)
    return found if isinstance(found, ast.FunctionDef | ast.AsyncFunctionDef) else None


def _hands_back_self(value: ast.expr, self_name: str, builders: Set[str]) -> bool:
    """``self``, or ``self.step``/``self.step(...)`` of a builder ``step`` of the class."""
    if isinstance(value, ast.Call):
        value = value.func
    if isinstance(value, ast.Name):
        return value.id == self_name
    return (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Name)
        and value.value.id == self_name
        and value.attr in builders
    )


def _argument_builders(
    text: str, definition: ast.FunctionDef | ast.AsyncFunctionDef
) -> dict[str, frozenset[str]]:
    """Each parameter, with the builders of its annotated class where the module defines
    it (``xpath: XPathExpr``: ``add_condition``, so ``return xpath.add_condition(...)``
    hands back the argument)."""
    classes = {d.name: d.lineno for d in ast_definitions(text) if isinstance(d, ast.ClassDef)}
    found: dict[str, frozenset[str]] = {}
    arguments = definition.args
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        kind = argument.annotation
        line = classes.get(kind.id) if isinstance(kind, ast.Name) else None
        found[argument.arg] = _builders_of_class(text, line) if line else frozenset()
    return found


def _value_returns(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr]:
    return [
        item.value
        for item in own_nodes(function.body)
        if isinstance(item, ast.Return)
        and item.value is not None
        and not (isinstance(item.value, ast.Constant) and item.value.value is None)
    ]


def _class_builders(
    text: str, definition: ast.FunctionDef | ast.AsyncFunctionDef
) -> frozenset[str]:
    """The methods and properties of the class around ``definition`` whose every return
    hands back the instance (module docstring)."""
    key = (definition.name, definition.lineno)
    for found in ast_definitions(text):
        if isinstance(found, ast.ClassDef) and any(
            isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            and (item.name, item.lineno) == key
            for item in found.body
        ):
            return _builders_of_class(text, found.lineno)
    return frozenset()


# Once per text and class: each method of a class asks the same of its siblings.
@per_text()
def _builders_of_class(text: str, line: int) -> frozenset[str]:
    """:func:`_class_builders` of the class at ``line``, read to a fixed point."""
    cls = next(d for d in ast_definitions(text) if isinstance(d, ast.ClassDef) and d.lineno == line)
    siblings = own_methods(cls)
    builders: set[str] = set()
    grown = True
    while grown:
        grown = False
        for name, function in siblings.items():
            self_name = first_parameter(function)
            returns = _value_returns(function)
            if name in builders or self_name is None or not returns:
                continue
            if all(_hands_back_self(value, self_name, builders) for value in returns):
                builders.add(name)
                grown = True
    return frozenset(builders)


@per_node
def body_facts(node: SourceNode) -> BodyFacts:
    """The :class:`BodyFacts` of a located function or method (empty for a class or file)."""
    if node.definition is None or node.ref.node_type == "class":
        return BodyFacts(readable=True)
    line = node.file.positions[node.definition].start.line
    tree = ast_tree(node.file.text)
    definition = located_definition(node.file.text, node.ref.full_name, line) if tree else None
    if not isinstance(definition, ast.FunctionDef | ast.AsyncFunctionDef):
        return BodyFacts()
    parameters = _parameters(definition)
    method = node.ref.node_type == "method"
    builders = _class_builders(node.file.text, definition) if method else frozenset()
    self_name = (first_parameter(definition) if method else None) or "self"
    scan = _Scan(parameters)
    parents: dict[ast.AST, ast.AST] = {}
    returned: list[ast.expr] = []
    self_returns = 0
    conditions: dict[str, list[str | None]] = {}
    own = own_nodes(definition.body)
    for item in own:
        if not isinstance(item, _NESTED):
            for child in ast.iter_child_nodes(item):
                parents[child] = item
    for statement in definition.body:
        parents[statement] = definition
    local = {n.id for n in own if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    local |= {n.name for n in own if isinstance(n, ast.ExceptHandler) and n.name}
    rebound = local & set(parameters)
    given = _argument_builders(node.file.text, definition)
    local -= set(parameters)
    argument_returns = 0
    for item in own:
        if isinstance(item, ast.Call):
            scan.call(item)
        elif isinstance(item, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            scan.stores = scan.stores or any(isinstance(t, ast.Subscript) for t in targets)
        elif isinstance(item, ast.Return) and item.value is not None:
            if not (isinstance(item.value, ast.Constant) and item.value.value is None):
                returned.append(item.value)
                self_returns += _hands_back_self(item.value, self_name, builders)
                argument_returns += any(
                    _hands_back_self(item.value, name, kept)
                    for name, kept in given.items()
                    if name not in rebound and name != self_name
                )
        elif isinstance(item, ast.Raise):
            scan.raises = True
            if item.exc is not None:
                exc = _dotted(item.exc.func if isinstance(item.exc, ast.Call) else item.exc)
                if exc:
                    conditions.setdefault(exc, []).append(_guard(parents, item, definition, local))
    return BodyFacts(
        readable=True,
        parameters=parameters,
        value_returns=len(returned),
        self_returns=self_returns,
        argument_returns=argument_returns,
        calls=frozenset(scan.calls),
        prints=scan.prints,
        writes=scan.writes,
        stores=scan.stores,
        runs=scan.runs,
        reads=scan.reads,
        raises=scan.raises,
        returned=tuple(returned),
        raise_conditions=conditions,
    )
