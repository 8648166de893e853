"""The branch a call left its node by, as a test name's condition: ``hashid_is_invalid``.

Where the value search's reason for a call says nothing (typical arguments, a call the
project makes), the lines the call ran still do: the ``return``/``raise`` it left by, and
the ``if`` (or ``except``) around that statement. The ``if``'s test, taken the way the call
took it, names the condition: ``if not self._rows: return`` -> ``rows_is_empty`` (``if not
self:`` -> ``self_is_empty``), ``if key in self: ... else: return default`` ->
``key_is_missing``, ``if x is None: raise`` -> ``x_is_none``, ``if start is not None and end
is not None: raise`` -> ``start_and_end_are_given`` (``not_none`` where ``None`` is not the
default; an attribute's ``is_set``), ``if isinstance(doc, str): raise`` -> ``doc_is_str``,
``if xpath.element == "*": raise`` -> ``xpath_element_is_star`` (an argument's attribute, an
equality taken), ``if amount > self.quantity: raise`` -> ``amount_above_quantity`` (a strict
side only), ``if len(args) > 1: raise`` -> ``given_2_positional_arguments``; a local
bound once to a builtin conversion of a parameter stands for it (``port_int = int(port)``,
``if port_int < 0: raise`` -> ``port_below_0``). A ``TypeError`` a type check stated on
one argument, in the node or a helper it called, names that argument's type
(``sibling(1)`` through ``_textcheck``: ``segment_is_int``).
A test of one parameter that the name cannot word, taken to a rejection (a raise, or an
empty or ``None`` result), says the value was not one the code accepts:
``width_is_invalid``, as does an ``except`` handler the call returned from (one that
catches ``KeyError`` says the value was unknown: ``language_is_unknown``; so does a
membership test of a literal collection, ``if algorithm not in ("legacy", "modern")``,
where ``key_is_missing`` would read as an argument not given); a rejected length says the
rule (:mod:`.length_checks`: ``value_has_wrong_length``). Anything
else says nothing (""). Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from typing import Any

from remora import python_ast
from remora.code.testgen import length_checks
from remora.code.testgen.refused_types import refused_type_words
from remora.code.values import first_parameter, is_self_attribute, label, snake_name
from remora.code.values.annotations import sole_argument
from remora.code.values.input_sources import bound_once, same_value
from remora.code.values.parameters import function_parameters

__all__ = ["branch_words", "given_words", "is_rejection"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# Where an exit statement sits: the innermost ``if``'s test and the side of it, or a handler.
Branch = tuple[ast.expr, bool] | ast.ExceptHandler | None
_EXIT = ast.Return | ast.Raise
_SCOPES = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
# A collection written out in the test (``x not in ("a", "b")``): the choices, not a store.
_LITERAL_COLLECTIONS = ast.Tuple | ast.List | ast.Set
# The errors of a lookup whose key is not there.
_MISSING = frozenset({"KeyError", "LookupError"})


def is_rejection(row: dict[str, Any]) -> bool:
    """Whether the call raised, or returned ``None`` or an empty value."""
    if row.get("raised"):
        return True
    returned = row.get("returned") or {}
    if not returned.get("literal"):
        return False
    try:
        value = python_ast.literal_eval(returned["repr"])
    except (ValueError, SyntaxError):
        return False
    return value is None or (isinstance(value, str | bytes | tuple | list | dict) and not value)


def given_words(count: int) -> str:
    """How many positional arguments a ``*args`` parameter was given, as words."""
    if count == 1:
        return "given_one_positional_argument"
    return f"given_{'no' if count == 0 else count}_positional_arguments"


def _exits(body: list[ast.stmt], around: Branch, out: list[tuple[ast.stmt, Branch]]) -> None:
    for statement in body:
        if isinstance(statement, _EXIT):
            out.append((statement, around))
        elif isinstance(statement, ast.If):
            _exits(statement.body, (statement.test, True), out)
            _exits(statement.orelse, (statement.test, False), out)
        elif isinstance(statement, ast.Try | ast.TryStar):
            _exits(statement.body, around, out)
            for handler in statement.handlers:
                _exits(handler.body, handler, out)
            _exits(statement.orelse + statement.finalbody, around, out)
        elif not isinstance(statement, _SCOPES):
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list):
                    _exits([s for s in inner if isinstance(s, ast.stmt)], around, out)
            for case in getattr(statement, "cases", []):
                _exits(case.body, around, out)


def _empty_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value is None or node.value in ("", b"")
    if isinstance(node, ast.Dict):
        return not node.keys
    return isinstance(node, ast.Tuple | ast.List) and not node.elts


def _taken(function: Function, lines: set[int], rejected: bool) -> tuple[ast.stmt, Branch] | None:
    """The exit the call ran and the branch around it; a handler's where a caught raise
    ran too; for ``return x if test else ()``, the side of the empty value it returned."""
    found: list[tuple[ast.stmt, Branch]] = []
    _exits(function.body, None, found)
    ran = [(statement, branch) for statement, branch in found if statement.lineno in lines]
    handled = [(s, b) for s, b in ran if isinstance(b, ast.ExceptHandler)]
    exit_ = ran[0] if len(ran) == 1 else handled[0] if len(handled) == 1 else None
    if exit_ is None:
        return None
    statement, branch = exit_
    if rejected and isinstance(statement, ast.Return) and isinstance(statement.value, ast.IfExp):
        sides = [_empty_literal(statement.value.body), _empty_literal(statement.value.orelse)]
        if sides.count(True) == 1:
            return statement, (statement.value.test, sides[0])
    return statement, branch


class _Words:
    """The words for one call's branch: its arguments, its instance's name, its ``*args``."""

    def __init__(self, function: Function, row: dict[str, Any]) -> None:
        self.args: dict[str, Any] = row.get("args") or {}
        parameters = function_parameters(function.args)
        self.none_defaults = {p.name for p in parameters if p.default == "None"}
        first = first_parameter(function)
        self.self_name = first if first is not None and first not in self.args else None
        self.vararg = function.args.vararg.arg if function.args.vararg else None
        self.rejected = is_rejection(row)
        self.converted = _converted_locals(function, set(self.args))
        self.lengths = length_checks.length_locals(function, set(self.args))

    def subject(self, node: ast.AST) -> str | None:
        """A given parameter's name, an instance attribute's words, an attribute of a given
        argument (``xpath.element``: ``xpath_element``), or ``self`` for the instance itself
        (``if not self: raise``: ``self_is_empty``)."""
        if isinstance(node, ast.Name) and node.id in self.args:
            return node.id
        if isinstance(node, ast.Name) and node.id in self.converted:
            return self.converted[node.id]  # ``port_int = int(port)``: the port
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in self.args
        ):
            return f"{node.value.id}_{snake_name(node.attr)}"
        if self.self_name is not None and isinstance(node, ast.Name) and node.id == self.self_name:
            return "self"
        if (
            self.self_name is not None
            and isinstance(node, ast.Attribute)
            and is_self_attribute(node, self.self_name)
        ):
            return snake_name(node.attr)
        return None

    def falsy(self, name: str) -> str:
        """``if not x:`` taken: ``x_is_none``, ``x_is_empty``, or the falsy value given
        (``x_is_0``: a name saying "empty" over ``parse(0)`` named what the test did not do)."""
        value = self.args.get(name)
        if name in self.args and value is None:
            return f"{name}_is_none"
        if name == self.vararg:
            return given_words(0)
        if value is False or (isinstance(value, int | float) and value == 0):
            return f"{name}_is_{label(value)}"
        return f"{name}_is_empty"

    def _counted(self, test: ast.expr) -> str:
        """``len(args) > 1`` taken: how many ``*args`` the call gave."""
        for node in ast.walk(test):
            argument = sole_argument(node, "len")
            if isinstance(argument, ast.Name) and argument.id == self.vararg:
                return given_words(len(self.args.get(self.vararg) or ()))
        return ""

    def of_test(self, test: ast.expr, truth: bool) -> str:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.of_test(test.operand, not truth)
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) == truth:
            parts = [self.of_test(value, truth) for value in test.values]
            return _joined(parts) if all(parts) else ""
        subject = self.subject(test)
        if subject is not None:
            return "" if truth else self.falsy(subject)
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            subject, op, right = self.subject(test.left), test.ops[0], test.comparators[0]
            none = isinstance(right, ast.Constant) and right.value is None
            if subject is not None and none and isinstance(op, ast.Is | ast.IsNot):
                return (
                    f"{subject}_is_none"
                    if isinstance(op, ast.Is) == truth
                    else self.not_none(subject)
                )
            if subject in self.args and isinstance(op, ast.In | ast.NotIn):
                absent = "unknown" if isinstance(right, _LITERAL_COLLECTIONS) else "missing"
                return f"{subject}_is_{absent}" if isinstance(op, ast.NotIn) == truth else ""
            if counted := self._counted(test):
                return counted
            if self.rejected and (
                sized := length_checks.length_words(test, truth, self.args, self.lengths)
            ):
                return sized
            if subject is not None and isinstance(op, ast.Eq) and isinstance(right, ast.Constant):
                # ``if xpath.element == "*": raise``: the value that took it, not "invalid".
                return f"{subject}_is_{label(right.value)}" if truth else ""
            return self._ordered(subject, op, right, truth)
        if truth and (kind := self._instance_of(test)):
            return kind
        return ""

    def not_none(self, subject: str) -> str:
        """``x is not None`` taken: ``x_is_given`` for an argument whose default is None,
        ``x_is_not_none`` for another, ``x_is_set`` for an attribute of the instance."""
        if subject not in self.args:
            return f"{subject}_is_set"
        return f"{subject}_is_given" if subject in self.none_defaults else f"{subject}_is_not_none"

    def _instance_of(self, test: ast.expr) -> str:
        """``isinstance(doc, str)`` taken: ``doc_is_str`` (one class, named plainly)."""
        if not (
            isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id == "isinstance"
            and len(test.args) == 2
        ):
            return ""
        subject, kind = self.subject(test.args[0]), test.args[1]
        name = (
            kind.id
            if isinstance(kind, ast.Name)
            else kind.attr
            if isinstance(kind, ast.Attribute)
            else None
        )
        return f"{subject}_is_{snake_name(name)}" if subject is not None and name else ""

    def _ordered(self, subject: str | None, op: ast.cmpop, right: ast.expr, truth: bool) -> str:
        """``amount > self.quantity`` taken: ``amount_above_quantity``; only a strict side
        (``x <= 0`` taken says nothing of whether ``x`` was 0 or below)."""
        if subject not in self.args:
            return ""
        strict = {(ast.Gt, True): "above", (ast.LtE, False): "above"}
        strict |= {(ast.Lt, True): "below", (ast.GtE, False): "below"}
        side = strict.get((type(op), truth))
        number = isinstance(right, ast.Constant) and type(right.value) in (int, float)
        other = label(right.value) if isinstance(right, ast.Constant) else self.subject(right)
        if side is None or other is None or (isinstance(right, ast.Constant) and not number):
            return ""
        return f"{subject}_{side}_{other}"

    def of_rejection(self, test: ast.expr | None) -> str:
        """A rejected call's one argument, where the code tested it (or caught its error)."""
        tested = (
            set(self.args)
            if test is None
            else {
                self.converted.get(n.id, n.id)
                for n in ast.walk(test)
                if isinstance(n, ast.Name) and self.converted.get(n.id, n.id) in self.args
            }
        )
        if not self.rejected or len(tested) != 1:
            return ""
        (name,) = tested
        if test is not None and (counted := self._counted(test)):
            return counted
        value = self.args[name]
        if value is None:
            return f"{name}_is_none"
        if isinstance(value, str | bytes | list | tuple | dict) and not value:
            return f"{name}_is_empty"
        return f"{name}_are_invalid" if name == self.vararg else f"{name}_is_invalid"


def _converted_locals(function: Function, parameters: set[str]) -> dict[str, str]:
    """The locals bound once, to a parameter in another form (``port_int = int(port)``,
    ``key = name.strip().lower()``: :func:`~remora.code.values.input_sources.same_value`,
    the search's rule too): a test of one is a test of the parameter (``if port_int < 0:
    raise``: ``port_below_0``)."""
    converted: dict[str, str] = {}
    for name, value in bound_once(function).items():
        if name in parameters or isinstance(value, ast.Name):
            continue
        source = next((p for p in sorted(parameters) if same_value(value, p)), None)
        if source is not None:
            converted[name] = source
    return converted


def _catches(handler: ast.ExceptHandler, names: frozenset[str]) -> bool:
    """Whether every class the handler names is one of ``names`` (a bare ``except`` none)."""
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    found = [c.id if isinstance(c, ast.Name) else getattr(c, "attr", "") for c in caught if c]
    return bool(found) and all(name in names for name in found)


def _joined(parts: list[str]) -> str:
    """``["a_is_empty", "b_is_empty"]`` -> ``a_and_b_are_empty`` (any one word after
    ``is``: ``start_and_end_are_given``); others joined by _and_."""
    said = [part.rpartition("_is_") for part in parts]
    words = {word for _, is_, word in said if is_}
    if len(parts) > 1 and all(is_ for _, is_, _ in said) and len(words) == 1:
        (word,) = words
        if "_" not in word:
            return f"{'_and_'.join(subject for subject, _, _ in said)}_are_{word}"
    return "_and_".join(dict.fromkeys(parts))


def branch_words(function: Function | None, lines: set[int], row: dict[str, Any]) -> str:
    """The condition the call's exit branch says (module docstring), "" where none."""
    if refused := refused_type_words(row):
        return refused
    if function is None or not lines:
        return ""
    words = _Words(function, row)
    taken = _taken(function, lines, words.rejected)
    if taken is None:
        return ""
    statement, branch = taken
    if fallen := length_checks.fallen_through_words(function, statement, words):
        around = words.of_test(*branch) if isinstance(branch, tuple) else ""
        return length_checks.joined_length(around, fallen)
    if branch is None:
        return ""
    if isinstance(branch, ast.ExceptHandler):
        said = words.of_rejection(None)
        # ``except KeyError:`` around a lookup: the table does not know the value, nothing
        # else was wrong with it (``language_is_unknown``, not ``language_is_invalid``).
        if said.endswith("_is_invalid") and _catches(branch, _MISSING):
            return said.removesuffix("_is_invalid") + "_is_unknown"
        return said
    test, truth = branch
    return words.of_test(test, truth) or words.of_rejection(test)
