"""A predicate: a node whose every returned value is a boolean, read with :mod:`ast`.

Its tests must show both outcomes: ``assert contains("ab", "x") is False`` alone would
pass were the body ``return False`` (blind reviewers marked such tests "add a true case",
issue 56). The mutation check holds it to that with two mutants, the body replaced by
``return True`` and by ``return False`` (:mod:`remora.code.testgen.shown_outcomes`); the
test search sends a call of the outcome its chosen calls lack to that check.

A node is one when its return annotation is ``bool``, or when it returns a value, yields
nothing, and every ``return`` of its own (nested functions and classes aside) gives, in
each branch (``a if c else b``, each operand of ``and``/``or``), a comparison, a ``not``,
``True``/``False``, a call of a builtin that answers yes or no (``isinstance``,
``hasattr``, ``callable``, ``bool``, ``any``, ``all``) or of a method whose name asks
(``startswith``, ``isdigit``, ``issubset``). A bare ``return`` or any other value (a
name, an attribute, a call of anything else) leaves it out. One whose ``and``/``or``
chains mix booleans with other values answers by truth (:func:`answers_by_truth`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from remora.code.testgen.no_op_calls import returned_branches
from remora.code.values import snake_name

__all__ = ["answers_by_truth", "own_nodes", "returns_booleans"]

Function = ast.FunctionDef | ast.AsyncFunctionDef

# The first words of a name that asks a yes-or-no question (``is_leap``, ``has_key``).
_ASKING_WORDS = frozenset({"is", "has", "have", "can", "should", "does", "needs", "was", "are"})
_ANSWERING_BUILTINS = frozenset(
    {"isinstance", "issubclass", "hasattr", "callable", "bool", "any", "all"}
)
# The str, bytes and set methods whose result is a yes or a no.
_ASKING_METHODS = frozenset(
    {
        "startswith",
        "endswith",
        "isalnum",
        "isalpha",
        "isascii",
        "isdecimal",
        "isdigit",
        "isidentifier",
        "islower",
        "isnumeric",
        "isprintable",
        "isspace",
        "istitle",
        "isupper",
        "isdisjoint",
        "issubset",
        "issuperset",
    }
)


def own_nodes(function: Function) -> Iterator[ast.AST]:
    """The nodes of the function's own body: nested definitions and lambdas left out."""
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _is_boolean(value: ast.expr) -> bool:
    if isinstance(value, ast.Compare):
        return True
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not):
        return True
    if isinstance(value, ast.Constant):
        return isinstance(value.value, bool)
    if isinstance(value, ast.Call):
        called = value.func
        if isinstance(called, ast.Name):
            return called.id in _ANSWERING_BUILTINS
        return isinstance(called, ast.Attribute) and called.attr in _ASKING_METHODS
    return False


def _annotated_bool(function: Function) -> bool:
    returns = function.returns
    if isinstance(returns, ast.Constant) and isinstance(returns.value, str):
        return returns.value.strip() == "bool"  # ``-> "bool"``
    return isinstance(returns, ast.Name) and returns.id == "bool"


def returns_booleans(function: Function) -> bool:
    """Whether every value the function returns is a boolean (see the module's rule)."""
    if _annotated_bool(function):
        return True
    returns = _own_returns(function)
    return bool(returns) and all(
        node.value is not None and all(_is_boolean(b) for b in returned_branches(node.value))
        for node in returns
    )


def _own_returns(function: Function) -> list[ast.Return]:
    """The function's own ``return`` statements; none for a generator (it yields)."""
    own = list(own_nodes(function))
    if any(isinstance(node, ast.Yield | ast.YieldFrom) for node in own):
        return []
    return [node for node in own if isinstance(node, ast.Return)]


def answers_by_truth(function: Function | None) -> bool:
    """Whether the function answers yes or no through ``and``/``or`` chains whose value is
    not always a boolean: its name asks (``is_leap``, ``hasKey``) and every ``return`` of
    its own is such a chain with a boolean among its operands (``return not year % 4 and
    (year % 100 or not year % 400)`` gives ``24`` for 2024). Its test asserts the answer's
    truth (``assert result``), never the operand the chain handed back: jdcal's
    ``is_leap(2024) == pytest.approx(24.0)``, whose blind reviewer wrote that it "locks in
    a side effect" a plain ``bool`` would break."""
    if function is None or returns_booleans(function):
        return False
    if snake_name(function.name).lstrip("_").split("_")[0] not in _ASKING_WORDS:
        return False  # ``return m and m.group(1)``: a value or a falsy stand-in for none
    returns = _own_returns(function)
    return bool(returns) and all(
        isinstance(node.value, ast.BoolOp)
        and any(_is_boolean(branch) for branch in returned_branches(node.value))
        for node in returns
    )
