"""A test name's condition claims no more than the test's value shows.

The value search words a value by the boundary it was chosen for: ``codepoint_above_55295``,
``char_is_not_listed``, ``s_lacks_dash``. Such words claim a range: every value above
55295, every one not listed, behaves as the test's does. That holds only when the
node tests that subject in that one place (a single comparison, membership test or
call), and, for ``above``/``below``, when the value sits right at the boundary. Where the
node tests it again (``0 <= codepoint <= 55295 or 57344 <= codepoint``; ``char in
"abc"`` then ``char == "#"``), the name states the value itself
(``codepoint_is_55296``), or, where the value is not the argument's (a local the code
derives), no condition. Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
import itertools
import re
from typing import Any

from remora.code.values import label
from remora.code.values.annotations import called_name

__all__ = ["honest_condition"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# Words that claim a range of values, after the subject's words.
_RANGE = re.compile(r"_(below|above)_([a-z0-9_]+)$")
_COMPLEMENT = re.compile(r"_(is_not_[a-z0-9_]+|lacks_[a-z0-9_]+|does_not_[a-z0-9_]+|is_set)$")
_STEPS = (1, 0.5)  # the value search's step beside an int's and a float's boundary
_TEST_CALLS = ("isinstance", "startswith", "endswith", "callable")


def _subject_of(expression: ast.AST) -> str | None:
    """``x`` for ``x``, ``self_x`` for ``self.x`` (the value search's words for them)."""
    if isinstance(expression, ast.Name):
        return expression.id
    if isinstance(expression, ast.Attribute) and isinstance(expression.value, ast.Name):
        return f"{expression.value.id}_{expression.attr}"
    return None


def _mentions(expression: ast.AST, subject: str) -> bool:
    return any(_subject_of(node) == subject for node in ast.walk(expression))


def _is_test_call(node: ast.Call) -> bool:
    return called_name(node) in _TEST_CALLS


def _truth_tests(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
        return [node.test]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return [node.operand]
    return []


def tests_of(function: Function, subject: str) -> int:
    """How many places of ``function`` test ``subject``: each comparison operator with it on
    a side, each ``isinstance``/``startswith``-like call on it, each ``if subject:``."""
    count = 0
    for node in ast.walk(function):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            count += sum(
                _mentions(left, subject) or _mentions(right, subject)
                for left, right in itertools.pairwise(operands)
            )
        elif isinstance(node, ast.Call) and _is_test_call(node):
            count += _mentions(node, subject)
        count += sum(_subject_of(test) == subject for test in _truth_tests(node))
    return count


def _names(function: Function) -> set[str]:
    names = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    return names | {
        subject
        for node in ast.walk(function)
        if isinstance(node, ast.Name | ast.Attribute) and (subject := _subject_of(node))
    }


def _value(subject: str, row: dict[str, Any]) -> tuple[bool, Any]:
    """(whether it is known, the value) of the subject in the test's call or instance."""
    args, owner = row.get("args") or {}, row.get("owner_args") or {}
    if subject in args:
        return True, args[subject]
    attribute = subject.split("_", 1)[-1]
    if "_" in subject and attribute in owner:
        return True, owner[attribute]
    return False, None


def _at_boundary(value: Any, side: str, at: str) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    sign = -1 if side == "above" else 1
    return any(label(value + sign * step) == at for step in _STEPS)


def honest_condition(why: str, row: dict[str, Any], function: Function | None) -> str:
    """``why`` as it is when it claims no range or the range holds; else the subject's
    value (``codepoint_is_55296``), or '' where the value is not the argument's."""
    ranged, complement = _RANGE.search(why), _COMPLEMENT.search(why)
    found = ranged or complement
    if function is None or found is None:
        return why
    words = why[: found.start()]
    subject = max(
        (n for n in _names(function) if words == n or words.startswith(f"{n}_")),
        key=len,
        default=None,
    )
    if subject is None:
        return why
    known, value = _value(subject, row)
    holds = tests_of(function, subject) == 1
    if holds and ranged is not None and words == subject and known:
        holds = _at_boundary(value, ranged.group(1), ranged.group(2))
    if holds:
        return why
    return f"{subject}_is_{label(value)}" if known else ""
