"""Mutants of one function: its own source changed in one place each, to test its tests.

A test that passes on the code and on every mutant would not notice the code
being wrong there (Pynguin's mutation score, mutmut, cosmic-ray). The changes
are the usual ones: a comparison or arithmetic operator swapped (``<`` for
``<=``, ``+`` for ``-``), ``and`` for ``or``, a ``not`` dropped, a condition
negated, a comprehension's filter dropped (``if n not in seen`` out of ``[n for n in
nxt if n not in seen]``), a constant changed (``n + 1``, a string with ``XX`` around it,
``True`` for ``False``), a conditional expression replaced by either side (``a if c
else b``: a branch inside one line, which coverage cannot see), a returned value replaced
by ``None``, a call's
statement, a ``raise`` or an item's assignment (``d[k] = v``) removed, and an
attribute set to ``None`` instead of its value.

One more, first, for a function that returns a value: its whole body replaced by
``return`` of its first parameter (a method's ``self``; a classmethod's first after
``cls``): the node doing nothing and handing back the instance or argument it was
given. A test that passes on it (``assert result == {...}`` of a copy, which equals
its instance) pins nothing of what the node does; the test search drops it
(:func:`remora.code.testgen.kept_tests.choose_kept`), unless it ran a ``return`` of
the node's own that gives that parameter back (``if not text: return text``): there
the node itself hands it back, and the test pins that path (``Mutant.given_back``).

More whose whole body returns one value (:mod:`remora.code.testgen.shown_outcomes`), each
one a kept set must fail (``Mutant.must_fail``): for a predicate (every value it returns a
boolean), ``return True`` and ``return False``; for another node that returns values,
``return`` of what a call that did nothing gives (each empty value its results may take,
``[]``, ``0``, and the parameter every return of its own hands back, ``return acc``:
:mod:`remora.code.testgen.empty_results`; where that is the identity mutant's, the identity
mutant is one). A test set that passes on one of them never shows the other outcome
(``assert contains("ab", "x") is False`` alone), or the call doing something
(``values(obj, "no/match") == []`` alone); the test search keeps no test of such a node
(:func:`remora.code.testgen.kept_tests.choose_kept`).

Everything is read with :mod:`ast` from the function's own body (nested
functions and classes, its docstring, annotations and f-strings left alone).
Each mutant is the whole file with one expression or statement replaced at its exact
span (:mod:`remora.code.testgen.mutant_edits`, every line keeping its number); a mutant
that does not parse, or parses to the original, is left out.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from remora import python_ast
from remora.code.parsing import line_starts, module_names
from remora.code.testgen.mutant_edits import Edit, apply_edit
from remora.code.testgen.mutant_operators import ARITHMETIC, COMPARE, SYMBOLS, constant_edit
from remora.code.testgen.no_op_calls import returned_branches
from remora.code.testgen.shown_outcomes import outcome_results
from remora.code.testgen.value_decorators import value_changing

__all__ = ["MAX_MUTANTS", "Mutant", "identity_parameter", "node_mutants"]

MAX_MUTANTS = 40
# A comprehension's filter dropped: every item kept (``[n for n in nxt if n not in seen]``).
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)

Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Mutant:
    """One change of the function: where (the statement's first line, as coverage.py
    counts lines), what kind, in words, and the whole file as it reads with it."""

    id: str
    line: int
    kind: str
    description: str
    source: str
    # The identity mutant's: the lines of the node's own returns that give that
    # parameter back already (``if not text: return text``), where passing it pins
    # the node's own path, not nothing.
    given_back: frozenset[int] = frozenset()
    # The outcome a kept set must show by failing it (:mod:`~remora.code.testgen.shown_outcomes`
    # kinds): a predicate's other boolean, the call doing something; '' for none.
    must_fail: str = ""
    # The identity mutant's: a decorator that may change the value stands between the body
    # and the caller (:mod:`.value_decorators`); a test it passes may still pin the body.
    wrapped: bool = False


def _short(node: ast.AST, limit: int = 40) -> str:
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _own_nodes(function: Function) -> Iterator[tuple[ast.AST, ast.stmt]]:
    """Every node of the function's own body with its innermost statement; nested
    definitions, lambdas, f-strings, annotations and the docstring left out."""
    body = function.body
    if body and _is_docstring(body[0]):
        body = body[1:]
    stack: list[tuple[ast.AST, ast.stmt]] = [(stmt, stmt) for stmt in reversed(body)]
    while stack:
        node, statement = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.JoinedStr):
            continue  # inner positions of an f-string are not reliable before 3.12
        yield node, statement
        children = []
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns", "type_comment"):
                continue
            items = value if isinstance(value, list) else [value]
            children += [item for item in items if isinstance(item, ast.AST)]
        for child in reversed(children):
            stack.append((child, child if isinstance(child, ast.stmt) else statement))


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _edits(node: ast.AST, statement: ast.stmt) -> Iterator[Edit]:
    line = statement.lineno
    if isinstance(node, ast.Compare):
        for index, op in enumerate(node.ops):
            swapped = COMPARE.get(type(op))
            if swapped is None:
                continue
            mutated = copy.deepcopy(node)
            mutated.ops[index] = swapped()
            words = f"`{SYMBOLS[type(op)]}` -> `{SYMBOLS[swapped]}` in `{_short(node)}`"
            yield Edit(node, mutated, line, "comparison", words, False)
    elif isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC:
        swapped_op = ARITHMETIC[type(node.op)]
        mutated_bin = ast.BinOp(node.left, swapped_op(), node.right)
        words = f"`{SYMBOLS[type(node.op)]}` -> `{SYMBOLS[swapped_op]}` in `{_short(node)}`"
        yield Edit(node, mutated_bin, line, "arithmetic", words, False)
    elif isinstance(node, ast.AugAssign) and type(node.op) in ARITHMETIC:
        swapped_op = ARITHMETIC[type(node.op)]
        mutated_aug = ast.AugAssign(node.target, swapped_op(), node.value)
        words = f"`{SYMBOLS[type(node.op)]}=` -> `{SYMBOLS[swapped_op]}=` in `{_short(node)}`"
        yield Edit(node, mutated_aug, line, "arithmetic", words, True)
    elif isinstance(node, ast.BoolOp):
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        words = f"`{SYMBOLS[type(node.op)]}` -> `{SYMBOLS[type(other)]}` in `{_short(node)}`"
        yield Edit(node, ast.BoolOp(other, node.values), line, "boolean", words, False)
    elif isinstance(node, ast.IfExp):  # a branch inside one line, which coverage cannot see
        for side in (node.orelse, node.body):
            words = f"`{_short(node)}` -> `{_short(side)}` whatever the condition"
            yield Edit(node, side, line, "condition", words, False)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        words = f"`not` dropped in `{_short(node)}`"
        yield Edit(node, node.operand, line, "condition", words, False)
    elif isinstance(node, _COMPREHENSIONS):
        for at, generator in enumerate(node.generators):
            for index, condition in enumerate(generator.ifs):
                filtered = copy.deepcopy(node)
                del filtered.generators[at].ifs[index]
                words = f"`if {_short(condition)}` dropped in `{_short(node)}`"
                yield Edit(node, filtered, line, "condition", words, False)
    elif isinstance(node, ast.Constant) and not (
        isinstance(statement, ast.Expr) and statement.value is node
    ):
        changed = constant_edit(node)
        if changed is not None:
            yield Edit(node, ast.Constant(changed[0]), line, "constant", changed[1], False)
    yield from _statement_edits(node, line)


def _statement_edits(node: ast.AST, line: int) -> Iterator[Edit]:
    if isinstance(node, ast.If | ast.While) and not isinstance(
        node.test, ast.Compare | ast.BoolOp | ast.UnaryOp
    ):
        words = f"condition `{_short(node.test)}` negated"
        negated = ast.UnaryOp(ast.Not(), node.test)
        yield Edit(node.test, negated, line, "condition", words, False)
    elif isinstance(node, ast.Return) and node.value is not None:
        if not (isinstance(node.value, ast.Constant) and node.value.value is None):
            words = f"`{_short(node)}` -> `return None`"
            yield Edit(node, ast.Return(ast.Constant(None)), line, "return", words, True)
    elif isinstance(node, ast.stmt) and _removable(node):
        yield Edit(node, ast.Pass(), line, "statement", f"`{_short(node)}` removed", True)
    elif (
        isinstance(node, ast.Assign)
        and all(isinstance(t, ast.Attribute) for t in node.targets)
        and not (isinstance(node.value, ast.Constant) and node.value.value is None)
    ):
        mutated = ast.Assign(node.targets, ast.Constant(None), type_comment=None)
        words = f"`{_short(node)}` -> `= None`"
        yield Edit(node, mutated, line, "attribute", words, True)


def _removable(node: ast.stmt) -> bool:
    """A ``raise``, a call's statement, or an item's assignment (``d[k] = v``)."""
    if isinstance(node, ast.Raise):
        return True
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Call | ast.Await)
    return isinstance(node, ast.Assign) and all(isinstance(t, ast.Subscript) for t in node.targets)


def identity_parameter(function: Function) -> str | None:
    """The parameter the identity mutant returns: the first positional one (a method's
    ``self``), the one after ``cls`` for a classmethod; None for a function that
    returns no value anywhere, yields, or has no such parameter."""
    own = [node for node, _ in _own_nodes(function)]
    if any(isinstance(node, ast.Yield | ast.YieldFrom) for node in own):
        return None
    if not any(isinstance(node, ast.Return) and node.value is not None for node in own):
        return None
    positional = [*function.args.posonlyargs, *function.args.args]
    decorators = {getattr(d, "id", "") for d in function.decorator_list}
    skipped = positional[1:] if "classmethod" in decorators else positional
    return skipped[0].arg if skipped else None


def _identity_edit(function: Function) -> Edit | None:
    """The whole body (its docstring left) replaced by ``return <first parameter>``."""
    name = identity_parameter(function)
    body = function.body[1:] if _is_docstring(function.body[0]) else function.body
    if name is None or not body:
        return None
    words = f"the body -> `return {name}` (`{name}` handed back unchanged)"
    returned = ast.Return(ast.Name(name, ast.Load()))
    return Edit(body[0], returned, body[0].lineno, "identity", words, True, through=body[-1])


def _outcome_edits(function: Function, observed: Iterable[str], bound: set[str]) -> Iterator[Edit]:
    """The whole body (its docstring left) replaced by ``return`` of each value of
    :func:`~remora.code.testgen.shown_outcomes.outcome_results`: a predicate's ``True``
    and ``False``, what another node's call that did nothing gives (``set()`` not where
    the module binds ``set``: ``bound``, its top-level names)."""
    body = function.body[1:] if _is_docstring(function.body[0]) else function.body
    kind, values = outcome_results(function, observed)
    for value in values if body else []:
        if value.endswith("()") and value[:-2] in bound:
            continue
        what = (
            "the same outcome whatever the call"
            if value in ("True", "False")
            else "the call doing nothing"
        )
        words = f"the body -> `return {value}` ({what})"
        returned = ast.Return(python_ast.parse_expression(value))
        yield Edit(body[0], returned, body[0].lineno, kind, words, True, body[-1], kind)


def _given_back(function: Function, name: str) -> frozenset[int]:
    """The lines of the function's own ``return`` statements that may give ``name``
    back as it is (the name itself, in any branch of the returned value)."""
    return frozenset(
        node.lineno
        for node, _ in _own_nodes(function)
        if isinstance(node, ast.Return)
        and node.value is not None
        and any(
            isinstance(branch, ast.Name) and branch.id == name
            for branch in returned_branches(node.value)
        )
    )


def _all_edits(function: Function, observed: Iterable[str], bound: set[str]) -> Iterator[Edit]:
    identity = _identity_edit(function)
    if identity is not None:
        yield identity
    yield from _outcome_edits(function, observed, bound)
    for node, statement in _own_nodes(function):
        yield from _edits(node, statement)


def node_mutants(
    text: str, function: Function, limit: int = MAX_MUTANTS, observed: Iterable[str] = ()
) -> list[Mutant]:
    """The mutants of ``function`` (a definition in ``text``, the file's source), at most
    ``limit``, spread over its body when it has more (the whole body's, the identity
    mutant and those returning one value, first and always kept); each parses and differs
    from ``text``. ``observed``: the builtin type names of the values its tests saw
    returned (:func:`~remora.code.testgen.empty_results.empty_results`)."""
    data = text.encode("utf-8")
    starts = line_starts(data)
    original = ast.dump(python_ast.parse(text))
    found: list[Mutant] = []
    seen: dict[str, int] = {}
    for edit in _all_edits(function, observed, module_names(text)):
        source = apply_edit(data, starts, edit)
        if source is not None and source in seen and edit.must_fail:
            # `return self` asked by both: the identity mutant is one a kept set must fail.
            found[seen[source]] = replace(found[seen[source]], must_fail=edit.must_fail)
        if source is None or source in seen:
            continue
        try:
            if ast.dump(python_ast.parse(source)) == original:
                continue
        except SyntaxError:
            continue
        seen[source] = len(found)
        words = f"line {edit.line}: {edit.words}"
        name = identity_parameter(function) if edit.kind == "identity" else None
        given_back = _given_back(function, name) if name else frozenset()
        wrapped = edit.kind == "identity" and value_changing(function)
        mutant = Mutant(f"m{len(found)}", edit.line, edit.kind, words, source, given_back)
        found.append(replace(mutant, must_fail=edit.must_fail, wrapped=wrapped))
    if len(found) <= limit:
        return found
    outcomes = [mutant for mutant in found if mutant.must_fail]
    others = [mutant for mutant in found if not mutant.must_fail]
    room = max(0, limit - len(outcomes))
    step = len(others) / room if room else 0
    picked = {others[int(index * step)].id for index in range(room)}  # the identity first
    return [mutant for mutant in found if mutant.id in picked or mutant.must_fail]
