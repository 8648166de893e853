"""A call the code rejected for its argument's length is named for the rule, not the value.

``if len(value) != 16: raise`` taken by fifteen bytes says ``value_has_wrong_length``, not
``value_of_length_15`` nor the bytes themselves (blind reviewers of a base32 codec: "the
name describes that odd value rather than the wrong length", five of seven edits); an
ordered test says which side (``if len(name) > 64: raise``: ``name_is_too_long``;
``< 3``: ``name_is_too_short``). A ``raise`` reached after a run of ``if``s that each
return for one length (``if length == 26: return ...``, ``if length == 10: return ...``,
then ``raise``) was reached because the length was none of them: ``value_has_wrong_length``
too. The length may be read through a local bound once to it (``length = len(value)``).
Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any, Protocol

from remora.code.values.annotations import sole_argument
from remora.code.values.input_sources import bound_once

__all__ = ["fallen_through_words", "joined_length", "length_locals", "length_words"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
_WRONG = "has_wrong_length"
# The operator a test holds when taken the other way (``not (a > b)`` is ``a <= b``).
_NEGATED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
}
_SIDES: dict[type[ast.cmpop], str] = {
    ast.NotEq: _WRONG,
    ast.Gt: "is_too_long",
    ast.GtE: "is_too_long",
    ast.Lt: "is_too_short",
    ast.LtE: "is_too_short",
}


def length_locals(function: Function, parameters: set[str]) -> dict[str, str]:
    """The locals bound once, and only, to a parameter's length: ``{"length": "value"}``."""
    found: dict[str, str] = {}
    for name, value in bound_once(function).items():
        measured = sole_argument(value, "len")
        if isinstance(measured, ast.Name) and measured.id in parameters:
            found[name] = measured.id
    return found


def _measured(node: ast.expr, parameters: set[str], lengths: dict[str, str]) -> str | None:
    """The parameter whose length ``node`` is: ``len(value)``, or a local bound to it."""
    if isinstance(node, ast.Name):
        return lengths.get(node.id)
    argument = sole_argument(node, "len")
    if isinstance(argument, ast.Name) and argument.id in parameters:
        return argument.id
    return None


def _length_test(
    test: ast.expr, parameters: set[str], lengths: dict[str, str]
) -> tuple[str, type[ast.cmpop]] | None:
    """(the parameter, the operator) of ``len(p) <op> <int>``; None for any other test."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    right = test.comparators[0]
    if not (isinstance(right, ast.Constant) and type(right.value) is int):
        return None
    subject = _measured(test.left, parameters, lengths)
    return None if subject is None else (subject, type(test.ops[0]))


def _said(subject: str, side: str, args: Mapping[str, Any]) -> str:
    """``subject_<side>``, or ``subject_is_empty`` for an argument of no length at all."""
    value = args.get(subject)
    empty = isinstance(value, str | bytes | list | tuple | dict) and not value
    return f"{subject}_is_empty" if empty else f"{subject}_{side}"


def length_words(
    test: ast.expr, truth: bool, args: Mapping[str, Any], lengths: dict[str, str]
) -> str:
    """A rejecting branch's length test, taken as ``truth`` says, as words: "" where the
    test is no length test or the side taken says no rule (``len(x) == 3`` taken)."""
    found = _length_test(test, set(args), lengths)
    if found is None:
        return ""
    subject, op = found
    side = _SIDES.get(op if truth else _NEGATED[op], "")
    return _said(subject, side, args) if side else ""


def _exits(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], ast.Return | ast.Raise)


def _block_of(function: Function, statement: ast.stmt) -> list[ast.stmt] | None:
    for node in ast.walk(function):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(s is statement for s in block):
                return block
    return None


class Call(Protocol):
    """A call's arguments, the locals of its node bound to their lengths, and whether the
    call was rejected (it raised, or returned nothing or an empty value)."""

    args: dict[str, Any]
    lengths: dict[str, str]
    rejected: bool


def fallen_through_words(function: Function, statement: ast.stmt, call: Call) -> str:
    """``value_has_wrong_length`` for a ``raise`` after ``if``s that each leave the node for
    one length of the same parameter; "" otherwise."""
    if not (call.rejected and isinstance(statement, ast.Raise)):
        return ""
    block = _block_of(function, statement)
    if block is None:
        return ""
    before = block[: next(i for i, s in enumerate(block) if s is statement)]
    checks = [s for s in before if isinstance(s, ast.If)]
    if not checks or any(s.orelse or not _exits(s.body) for s in checks):
        return ""
    tests = [_length_test(s.test, set(call.args), call.lengths) for s in checks]
    equalities = [t for t in tests if t is not None and t[1] is ast.Eq]
    subjects = {subject for subject, _ in equalities}
    if len(equalities) != len(tests) or len(subjects) != 1:
        return ""
    return _said(subjects.pop(), _WRONG, call.args)


def joined_length(around: str, fallen: str) -> str:
    """The words of the ``if`` around the fall-through with its length's:
    ``if isinstance(value, str):`` around them, ``value_is_str_of_wrong_length``."""
    subject = fallen.removesuffix(f"_{_WRONG}")
    if subject != fallen and around.startswith(f"{subject}_is_"):
        return f"{around}_of_wrong_length"
    return fallen
