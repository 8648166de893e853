"""Arguments worth trying, from what the code branches on; the fewest that cover the most.

Nothing here runs code. :func:`boundary_values` reads the node's own syntax
tree: a comparison of a parameter (or of an expression of one parameter) with a
constant gives a value on each side of the boundary (``n < 10`` -> 9, 10, 11),
``x in ("a", "b")`` each member and one outside, ``s.startswith("-")`` a string
with that prefix and one without, ``isinstance(x, int)`` or ``type(x) is int`` a
value of that type, ``if x:`` / ``x is None`` a falsy value. Each value carries the words that say
what it exercises (``n_below_10``), which name the test that keeps it.
:mod:`remora.code.values.call_sites` gives whole argument texts from docstring examples
and the project's own calls. :func:`greedy_cover`
picks, among candidates whose runs covered known units, the few that cover all.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from remora.code.values.annotations import sole_argument
from remora.code.values.boundary_ranks import ranked_sides
from remora.code.values.compared_kinds import listed_members, outside_member
from remora.code.values.input_sources import (
    Scope,
    conversion_kinds,
    derived_locals,
    local_constants,
    module_constants,
    reads_number,
    same_value,
    substitute,
)
from remora.code.values.kind_samples import EMPTY, sample
from remora.code.values.parameters import parameter_names
from remora.code.values.regex_arguments import regex_values
from remora.code.values.solved_values import Solver, anchor_of, is_arithmetic
from remora.code.values.type_tests import kind_values, type_name_subject, type_test_values
from remora.code.values.unspelled_values import bytes_of
from remora.code.values.usage_kinds import usage_kind_names
from remora.code.values.value_asserts import MAX_COUNTED
from remora.code.values.value_words import label

__all__ = [
    "Candidate",
    "boundary_search",
    "boundary_sides",
    "boundary_values",
    "greedy_cover",
    "vary",
]

_OPERATOR_WORDS = {"%": "mod", "+": "plus", "-": "minus", "*": "times", "/": "div"}
_MAX_LABEL = 40


@dataclass(frozen=True)
class Candidate:
    """An argument set to try and the words that say what it exercises; a method's
    candidate may build its instance from ``owner_args`` of its own."""

    args: dict[str, Any]
    why: str
    owner_args: dict[str, Any] | None = None
    edge: bool = False  # at a constant the code compares with, or just outside it


def _expression_words(node: ast.expr) -> str:
    text = ast.unparse(node)
    words = "".join(f"_{_OPERATOR_WORDS[c]}_" if c in _OPERATOR_WORDS else c for c in text)
    return re.sub(r"[^0-9a-zA-Z]+", "_", words).strip("_").lower()[:_MAX_LABEL]


def boundary_sides(
    value: Any, op: ast.cmpop, words: str, at: str = "", *, has: bool = False
) -> list[tuple[Any, str]]:
    """Values on each side of ``<expression> op value``, with words for each (``at``: the
    boundary's own words, the value's label without; ``has``: the expression is a part
    of the string ``words`` names, which has the value or lacks it)."""
    at = at or label(value)
    if value is None:
        return [(None, f"{words}_is_none")]
    if isinstance(value, bool):
        return [(value, f"{words}_is_{at}"), (not value, f"{words}_is_{label(not value)}")]
    if isinstance(value, str):
        same, other = ("has", "lacks") if has else ("is", "is_not")
        return [(value, f"{words}_{same}_{at}"), ("" if value else "x", f"{words}_{other}_{at}")]
    step: int | float = 1 if isinstance(value, int) else 0.5
    below, above = value - step, value + step
    if isinstance(op, ast.Eq | ast.NotEq):
        return [(value, f"{words}_is_{at}"), (above, f"{words}_is_not_{at}")]
    return [
        (below, f"{words}_below_{at}"),
        (value, f"{words}_is_{at}"),
        (above, f"{words}_above_{at}"),
    ]


def _of_length(kind: str | None, n: int) -> Any:
    """A value of ``n`` items of the kind the parameter's annotation or uses say (a string
    where they say none; bytes of ``a`` for bytes, ``len(value) == 16`` of a buffer); a
    dict only empty (its items' shape is the mapping search's). None beyond
    :data:`MAX_COUNTED` items: a length no test writes out (``len(obj) < 2**32`` asked
    for three values of four billion items, and ``remora analyze`` ran out of memory)."""
    if n > MAX_COUNTED:
        return None
    if kind == "list":
        return ["a"] * n
    if kind == "dict":
        return {} if n == 0 else None
    if kind == "bytes":
        return bytes_of(b"a" * n)
    return "a" * n


def _compare_values(
    node: ast.Compare, scope: Scope, solver: Solver, listed: Mapping[str, set[Any]]
) -> list[tuple[int, str, Any, str]]:
    """``(rank, parameter, value, words)`` for each side of each comparison of ``node``."""
    out: list[tuple[int, str, Any, str]] = []
    operands = [node.left, *node.comparators]
    for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
        for subject, other in ((left, right), (right, left)):
            name = scope.parameter_in(subject)
            known, value = scope.constant(other)
            if name is None or type_name_subject(subject, scope) is not None:
                continue  # a type's name is no value of the parameter: type_tests
            if isinstance(op, ast.In | ast.NotIn) and subject is left and not known:
                values = scope.members(other)
                out += [
                    (2 if i else 0, name, v, f"{name}_is_{label(v)}") for i, v in enumerate(values)
                ]
                if values and all(isinstance(v, str) for v in values):
                    out.append((0, name, "zz", f"{name}_is_not_listed"))
                elif values and all(isinstance(v, int) for v in values):
                    out.append(
                        (
                            0,
                            name,
                            outside_member(values, listed.get(name, set())),
                            f"{name}_is_not_listed",
                        )
                    )
                continue
            if isinstance(op, ast.In | ast.NotIn) and known and isinstance(value, str):
                out.append((0, name, f"x{value}x", f"{name}_contains_{label(value)}"))
                out.append((1, name, "x", f"{name}_lacks_{label(value)}"))
                continue
            direct = any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(subject))
            if not known or (value is None and not direct):
                continue  # ``found = p.get(k); if found is None`` is not about a None ``p``
            expanded = substitute(subject, scope.derived)
            counted = sole_argument(expanded, "len") is not None
            if counted and isinstance(value, int) and not isinstance(value, bool):
                lengths = [n for n in (value - 1, value, value + 1) if n >= 0]
                sized = [(n, _of_length(scope.kinds.get(name), n)) for n in lengths]
                out += [(0, name, v, f"{name}_of_length_{n}") for n, v in sized if v is not None]
                continue
            # ``s[pos:pos + 2] == "/*"``: ``s_has_slash_star``, not the slice's internals.
            part = (
                isinstance(subject, ast.Subscript)
                and isinstance(subject.value, ast.Name)
                and subject.value.id == name
            )
            # ``platform_str = name.strip().casefold()``: the name the test gives (name_is_posix).
            same = isinstance(subject, ast.Name) and same_value(
                scope.derived.get(subject.id, subject), name
            )
            words = name if part or same else _expression_words(subject)
            sides = boundary_sides(value, op, words, has=part)
            ranked = ranked_sides(sides, op, subject is left)
            if is_arithmetic(expanded, name):  # ``year % 400 == 0``: a year giving it 0
                solved = [(r, solver.solve(expanded, name, v), w) for r, v, w in ranked]
                ranked = [(r, v, w) for r, v, w in solved if v is not None]
            if scope.kinds.get(name) == "str" and reads_number(expanded):
                ranked = [(r, str(v) if isinstance(v, int | float) else v, w) for r, v, w in ranked]
            out += [(r, name, v, w) for r, v, w in ranked]
    return out


def _call_values(node: ast.Call, scope: Scope) -> list[tuple[str, Any, str]]:
    func = node.func
    if isinstance(func, ast.Name) and func.id == "isinstance" and len(node.args) == 2:
        name = scope.parameter_in(node.args[0])
        kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
        if name is not None and isinstance(node.args[0], ast.Name):
            return kind_values(name, kinds)
    if (
        isinstance(func, ast.Attribute)
        and func.attr in ("startswith", "endswith")
        and (name := scope.parameter_in(func.value)) is not None
        and node.args
    ):
        known, value = scope.constant(node.args[0])
        verb = func.attr.removesuffix("with")
        if known and isinstance(value, str) and value:
            made = f"{value}a" if verb == "starts" else f"a{value}"
            return [
                (name, made, f"{name}_{verb}_with_{label(value)}"),
                (name, "a", f"{name}_does_not_{verb.rstrip('s')}_with_{label(value)}"),
            ]
    return []


def _truth_values(
    test: ast.expr, scope: Scope, kinds: Mapping[str, str]
) -> list[tuple[str, Any, str]]:
    inner = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else test
    if not isinstance(inner, ast.Name) or (name := scope.parameter_in(inner)) is None:
        return []
    if inner.id not in scope.params and not isinstance(scope.derived.get(inner.id), ast.Call):
        return []  # ``x = n - 1; if x:`` is not about a falsy ``n``
    kind = kinds.get(name, "")
    # A local derived from the parameter (``m = PATTERN.match(text)``) is worded by the
    # parameter the test gives: ``text_is_empty``, never the local's ``m_is_empty``.
    if kind not in EMPTY:  # nothing says the type: the two falsy values most code meets
        return [(name, None, f"{name}_is_none"), (name, "", f"{name}_is_empty")]
    falsy, truthy = sample(kind, empty=True), sample(kind)  # the derived value may be either
    return [(name, falsy, f"{name}_is_{label(falsy)}"), (name, truthy, f"{name}_is_set")]


def boundary_values(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    kinds: Mapping[str, str],
    module: ast.Module | None = None,
    imported: Mapping[str, Any] | None = None,
) -> list[tuple[str, Any, str]]:
    """``(parameter, value, words)`` for each value on a side of a boundary the code tests.

    ``kinds`` maps a parameter to the builtin type its annotation or default
    says (``int``, ``str``...), for the falsy value of an ``if x:``. ``module``, the
    function's module, resolves the constants it compares with and the patterns it uses;
    ``imported``, the constants it imports from other project modules
    (:func:`~remora.code.values.imported_modules.imported_constants`), those it imports.
    """
    return boundary_search(function, kinds, module, imported)[0]


def boundary_search(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    kinds: Mapping[str, str],
    module: ast.Module | None = None,
    imported: Mapping[str, Any] | None = None,
) -> tuple[list[tuple[str, Any, str]], set[str]]:
    """:func:`boundary_values`, and the words of those at a compared constant or just
    outside it (a sample set there shows a boundary: ``code_is_1023``, ``code_above_1023``)."""
    params = parameter_names(function)
    own = module_constants(module) if module else {}
    constants = local_constants(function, {**(imported or {}), **own})
    usage = {n: k for n, k in usage_kind_names(function).items() if k in EMPTY}
    kinds = {**conversion_kinds(function), **usage, **kinds}
    scope = Scope(params, derived_locals(function, params), constants, kinds)
    anchors = {name: anchor_of(name, kinds.get(name)) for name in params}
    solver = Solver.of(function, scope, anchors)
    listed = listed_members(function, scope)
    # A pattern's matching strings and its near miss first: where a truth test of the same
    # parameter runs the same lines, they say more than any true string does.
    found: list[tuple[str, Any, str]] = regex_values(function, constants, scope.derived)
    later: list[tuple[int, str, Any, str]] = []  # the other sides, after every boundary's first
    edges: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Compare):
            found += type_test_values(node, scope)
            ranked = _compare_values(node, scope, solver, listed)
            found += [(n, v, w) for rank, n, v, w in ranked if rank == 0]
            edges |= {w for rank, _n, _v, w in ranked if rank <= 1}
            later += [item for item in ranked if item[0] > 0]
        elif isinstance(node, ast.Call):
            found += _call_values(node, scope)
        elif isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            found += _truth_values(node.test, scope, kinds)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                found += _truth_values(value, scope, kinds)
    found += [(n, v, w) for _rank, n, v, w in sorted(later, key=lambda item: item[0])]
    unique: dict[tuple[str, str], tuple[str, Any, str]] = {}
    for name, value, words in found:
        unique.setdefault((name, repr(value)), (name, value, words))
    return list(unique.values()), edges


def vary(base: Mapping[str, Any], values: Iterable[tuple[str, Any, str]]) -> list[Candidate]:
    """The base set once, then the base with one parameter changed per value."""
    out = [Candidate(dict(base), "typical_arguments")]
    seen = {repr(sorted(base.items()))}
    for name, value, words in values:
        args = {**base, name: value}
        key = repr(sorted(args.items()))
        if key not in seen:
            seen.add(key)
            out.append(Candidate(args, words))
    return out


def greedy_cover(
    gains: Mapping[str, frozenset[Hashable]], covered: Iterable[Hashable], limit: int
) -> list[str]:
    """Keys whose units, taken greedily (most new units first), cover all that can be.

    A key adding nothing is never taken; ties go to the earlier key; at most ``limit``.
    """
    have = set(covered)
    chosen: list[str] = []
    while len(chosen) < limit:
        best, best_gain = "", 0
        for key, units in gains.items():
            gain = len(units - have)
            if gain > best_gain and key not in chosen:
                best, best_gain = key, gain
        if best_gain == 0:
            break
        chosen.append(best)
        have |= gains[best]
    return chosen
