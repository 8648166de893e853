"""A procedure's test that asserts only that it kept its arguments as given pins nothing.

``storage.write(data); assert storage.memory == data`` restates the body's
``self.memory = data``: a maintainer reads it as the assignment checked twice, and the
behaviour that matters (what a later read gives, when a cache flushes) stays untested.
Blind reviewers rejected such tests ("it only checks that write() assigns an
attribute"). So a procedure's call whose every asserted attribute holds one of the
call's arguments as it was passed is no candidate, unless the node looks at that
argument first (a test, a comparison: ``if age < 0: raise``), where the stored value
shows that the argument passed the node's check, or the test reads it back through a
reader method of the class (``storage.write(data); assert storage.read() == data``:
:func:`~remora.code.values.method_state.state_readers`), the round trip a maintainer asks for.

The same restatement from the other side: a reader whose body is only ``return
self.<attribute>`` (a property, a method of no argument), its test asserting the value
one of the instance's constructor arguments was passed as
(``BaseFile(max_len=255).max_len == 255``), checks that ``__init__`` stored it ("it only
reads back a constructor argument through a one-line property, skips the clamping"); a
value the constructor changed on the way (clamped, normalised) is the constructor's
behaviour shown, and stays. A constant the constructor sets read back the same way, on
an instance that kept it (ply's ``Lexer().current_state() == "INITIAL"`` for
``self.lexstate = 'INITIAL'`` in ``__init__``: "only checks that a freshly built Lexer()
reports its constructor default"), restates ``__init__`` as well. So does a function's
returned object whose every attribute holds an argument of the call or a default of the
node's as given (hyperlink's ``make_sentinel(var_name="a")``: ``result.var_name == "a"``,
``result.name == "_MISSING"``, "it only reads back the constructor arguments stored on
the instance"). An argument a set-up call passed read back the same way is the set-up
restated too (latexcodec's ``encoder.setstate("other state")`` then ``getstate() ==
"other state"``: "a trivial test of an attribute").
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Any

from remora import python_ast
from remora.code.parsing import ast_tree
from remora.code.values.attribute_uses import classes_named, init_of
from remora.code.values.filled_instances import given_values
from remora.code.values.method_state import first_parameter, is_self_attribute

__all__ = [
    "HANDED_BACK_REASON",
    "READ_BACK_REASON",
    "STORED_REASON",
    "constructor_constants",
    "reads_back_argument",
    "returns_arguments_only",
    "stores_arguments_only",
]

STORED_REASON = (
    "a procedure whose only asserted effect is an attribute holding an argument as it was "
    "passed (the assignment restated, no behaviour)"
)
READ_BACK_REASON = (
    "a one-line reader whose only asserted outcome is a constructor or set-up call's "
    "argument read back as it was passed, or the constant the constructor sets (its "
    "assignment restated, no behaviour)"
)
HANDED_BACK_REASON = (
    "a returned object whose only asserted attributes hold the call's arguments and the "
    "node's defaults as given (its construction restated, no behaviour)"
)

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _looked_at(function: Function) -> set[str]:
    """The names the function's conditions and comparisons read: ``if``/``while``/``assert``
    tests, conditional expressions, comprehension filters, ``match`` subjects and any
    comparison."""
    checked: list[ast.AST] = []
    for node in ast.walk(function):
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            checked.append(node.test)
        elif isinstance(node, ast.comprehension):
            checked.extend(node.ifs)
        elif isinstance(node, ast.Match):
            checked.append(node.subject)
        elif isinstance(node, ast.Compare):
            checked.append(node)
    return {n.id for c in checked for n in ast.walk(c) if isinstance(n, ast.Name)}


def _argument_holding(value: Any, args: dict[str, Any]) -> str | None:
    """The name of the argument passed as ``value`` (the same type, equal), if any."""
    return next((name for name, passed in args.items() if _one_of(value, [passed])), None)


def stores_arguments_only(row: dict[str, Any], function: Function) -> bool:
    """Whether a procedure's probed call (``row``) raised nothing, changed no item of its
    instance, and every attribute its test would assert holds an argument of the call as
    passed, none of which ``function`` (the node) looks at."""
    if row.get("raised") or row.get("contents"):
        return False
    args: dict[str, Any] = row.get("args") or {}
    state: dict[str, Any] = row.get("state") or {}
    held: set[str] = set()
    if any(name.endswith("()") for name in state):
        return False  # read back through the class's own reader: the round trip its users make
    for seen in state.values():
        if not seen.get("literal"):
            if isinstance(seen.get("length"), int):
                return False  # asserted by its length: not the argument restated
            continue  # not asserted at all
        try:
            value = python_ast.literal_eval(str(seen["repr"]))
        except (ValueError, SyntaxError):
            return False
        name = _argument_holding(value, args)
        if name is None:
            return False
        held.add(name)
    return bool(held) and not held & _looked_at(function)


def _returned_attribute(function: Function) -> str | None:
    """``name`` where ``function``'s body (its docstring aside) is ``return self.<name>``
    alone, ``self`` its first parameter, the only one; else None."""
    body = python_ast.body_statements(function)
    arguments = [*function.args.posonlyargs, *function.args.args]
    if len(body) != 1 or len(arguments) != 1 or function.args.kwonlyargs:
        return None
    returned = body[0].value if isinstance(body[0], ast.Return) else None
    if (
        isinstance(returned, ast.Attribute)
        and isinstance(returned.value, ast.Name)
        and returned.value.id == arguments[0].arg
    ):
        return returned.attr
    return None


def constructor_constants(module_text: str, owner: str) -> dict[str, Any]:
    """``attribute -> value`` for each ``self.<attribute> = <literal>`` of the ``__init__``
    the class ``owner`` runs (its own or a local base's); an attribute set to two values
    is left out."""
    tree = ast_tree(module_text)
    init = init_of(classes_named(tree), owner.split(".")[-1], set()) if tree else None
    if init is None:
        return {}
    found: dict[str, list[Any]] = {}
    self_name = first_parameter(init) or "self"
    computed = object()  # a value no literal gives: the attribute is no constant then
    for node in ast.walk(init):
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        try:
            value = python_ast.literal_eval(node.value)
        except (ValueError, TypeError):
            value = computed
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute) and is_self_attribute(target, self_name):
                found.setdefault(target.attr, []).append(value)
    return {
        name: values[0]
        for name, values in found.items()
        if len(values) == 1 and values[0] is not computed
    }


def reads_back_argument(
    row: dict[str, Any],
    function: Function,
    owner_args: dict[str, Any] | None,
    constants: dict[str, Any] | None = None,
) -> bool:
    """Whether a reader's probed call (``row``) on an instance built from ``owner_args``
    returned, and only returned, one of those arguments as it was passed, or the constant
    its constructor sets the attribute to (``constants``: :func:`constructor_constants`),
    ``function`` (the node) being ``return self.<attribute>`` alone."""
    returned = row.get("returned") or {}
    if row.get("raised") or row.get("args") or not returned.get("literal"):
        return False
    attribute = _returned_attribute(function)
    if attribute is None:
        return False
    try:
        value = python_ast.literal_eval(str(returned["repr"]))
    except (ValueError, SyntaxError):
        return False
    constants = constants or {}
    if attribute in constants and _one_of(value, [constants[attribute]]):
        return True
    return _one_of(value, given_values(owner_args or {}))


def _defaults(function: Function) -> list[Any]:
    """The node's literal parameter defaults (a sentinel object's left out)."""
    found = []
    for default in [*function.args.defaults, *function.args.kw_defaults]:
        try:
            found.append(python_ast.literal_eval(default) if default is not None else None)
        except ValueError:
            continue
    return found


def returns_arguments_only(row: dict[str, Any], function: Function) -> bool:
    """Whether a call's returned object (no literal form, not its instance) has public
    attributes and each has a literal form holding an argument of the call or a literal
    default of ``function`` as given (the same type, equal)."""
    returned = row.get("returned") or {}
    shown = returned.get("literal") or returned.get("constructed") or returned.get("is_instance")
    attributes: dict[str, Any] = returned.get("attributes") or {}
    if row.get("raised") or shown or not attributes:
        return False
    given = [*(row.get("args") or {}).values(), *_defaults(function)]
    for seen in attributes.values():
        if not seen.get("literal"):
            return False
        try:
            value = python_ast.literal_eval(str(seen["repr"]))
        except (ValueError, SyntaxError):
            return False
        if not _one_of(value, given):
            return False
    return True


def _one_of(value: Any, given: Iterable[Any]) -> bool:
    """Whether ``value`` is one of ``given`` as passed: the same type, equal."""
    return any(type(v) is type(value) and v == value for v in given)
