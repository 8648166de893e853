"""Tests of one node that differ only in their values, as one parametrized test.

Four kept tests that each call ``from_string`` with another bad text and assert the same
exception and message form are one behaviour, the rejection, shown on four inputs: a
maintainer writes them as one ``@pytest.mark.parametrize`` test (two blind reviewers asked
for exactly that), under one name that says the behaviour, rather than four names that
must each tell a case apart (``when_string_is_a``). :func:`parametrized` merges the kept
pieces whose test functions are the same code but for their literal values and that
assert a raise (``pytest.raises``); the values that differ become the parameters, named
for what they are in the test: the keyword or the node's parameter they are passed as
(``string``), the raised message (``message``), a ``match=`` pattern (``pattern``), an
expected value (``expected``). Where a differing value is none of these, or two would get
one name, the pieces stay as they are. The name is the words the group's names share at
the start and at the end (``test_from_string`` + ``raises_invalid_numeral_error``).

So are three or more that call the node with other values and compare its result with
one value each (``assert result == "st"``): five ``find_ordinal`` tests under names that
said only ``returns_string`` (a reviewer: "it should be one parametrized test") become
``test_find_ordinal`` with the rows ``(position, expected)``. Read and written with
:mod:`ast`; the writer formats the file afterwards.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Sequence
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.parsing import sole_function
from remora.code.probes import restore_file, run_pytest, written_class
from remora.code.testgen.test_layout import write_pieces
from remora.code.values import node_function

__all__ = ["merged_cases", "parametrized"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
_BLANK = "\0"
# The fewest tests of one shape merged into a table: two that raise alike, three that
# return values (two read as well apart, each under its own name).
_FEWEST = {True: 2, False: 3}


def _function(source: str) -> Function | None:
    """The test function a piece is, where it takes nothing and has no decorator; a display
    of constants it compares the result with is one value (:func:`_folded`)."""
    function = sole_function(source)
    if function is None or function.decorator_list:
        return None
    return None if function.args.args or function.args.kwonlyargs else _folded(function)


def _folded(function: Function) -> Function:
    """``assert result == (2400000.5, 33282.0)``: the tuple (or list) of constants is one
    expected value, a row's, not two values of which one has no name (jdcal's three
    ``gcal2jd`` tests: "merge them into one")."""
    for node in ast.walk(function):
        if isinstance(node, ast.Compare):
            for index, side in enumerate(node.comparators):
                if isinstance(side, ast.Tuple | ast.List) and all(
                    isinstance(item, ast.Constant) for item in side.elts
                ):
                    value = python_ast.literal_eval(side)
                    node.comparators[index] = ast.copy_location(ast.Constant(value), side)
    return function


def _constants(function: Function) -> list[ast.Constant]:
    found = [n for n in ast.walk(function) if isinstance(n, ast.Constant)]
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _shape(function: Function) -> str:
    """The function's code with its literal values blanked and its name left out."""
    blank = copy.deepcopy(function)
    blank.name = "_"
    for constant in _constants(blank):
        constant.value = _BLANK
    return ast.dump(blank)


def _raises(function: Function) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "raises" for n in ast.walk(function))


def _returns_a_value(function: Function) -> bool:
    """Whether the test ends by comparing the call's result with one value:
    ``assert result == ...``."""
    last = function.body[-1] if function.body else None
    test = last.test if isinstance(last, ast.Assert) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "result"
        and [type(op) for op in test.ops] == [ast.Eq]
    )


def _parents(function: Function) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(function) for child in ast.iter_child_nodes(node)}


def _role(constant: ast.Constant, parents: dict[int, ast.AST], parameters: Sequence[str]) -> str:
    """What a value is in the test, as a parameter's name; '' where nothing says."""
    parent = parents.get(id(constant))
    if isinstance(parent, ast.keyword) and parent.arg:
        return "pattern" if parent.arg == "match" else parent.arg
    if isinstance(parent, ast.Call) and constant in parent.args:
        if ast.unparse(parent.func).endswith("approx"):  # == pytest.approx(0.25)
            return "expected"
        index = parent.args.index(constant)
        return parameters[index] if index < len(parameters) else ""
    if isinstance(parent, ast.Compare) and constant in parent.comparators:
        left = parent.left  # `str(excinfo.value) == ...`: the raised exception's text
        text = isinstance(left, ast.Call) and ast.unparse(left.func) == "str"
        return "message" if text else "expected"
    return ""


def _shared_name(names: list[str], raising: bool = True) -> str:
    """The words all ``names`` start with, up to a condition (``when``), then those they
    all end with from ``raises``; '' where they share no ``raises`` ending. Tests of
    values (not ``raising``) are named by the start alone, up to what they return
    (``test_find_ordinal``): the table's rows say the rest; by the length they share a
    condition on (``test_encode_by_value_length``)."""
    words = [name.split("_") for name in names]
    start: list[str] = []
    for column in zip(*words, strict=False):
        if len(set(column)) != 1:
            break
        start.append(column[0])
    end: list[str] = []
    for column in zip(*(list(reversed(w)) for w in words), strict=False):
        if len(set(column)) != 1:
            break
        end.insert(0, column[0])
    if "when" in start:  # a condition the names share in part says none of the cases
        condition = start[start.index("when") + 1 :]
        start = start[: start.index("when")]
        # ``when_value_of_length_6``, ``_10``, ``_16``: one table of the lengths it takes.
        if not raising and condition[-2:] == ["of", "length"] and len(condition) > 2:
            return "_".join([*start, "by", *condition[:-2], "length"])
    if not raising:
        start = start[: start.index("returns")] if "returns" in start else start
        return "_".join(start) if len(start) >= 2 else ""
    if "raises" not in end or len(start) < 2:
        return ""
    end = end[end.index("raises") :]
    return "_".join(start[: min(len(w) for w in words) - len(end)] + end)


def _merged(group: list[dict[str, Any]], parameters: Sequence[str]) -> dict[str, Any] | None:
    functions = [_function(str(piece["source"])) for piece in group]
    if any(f is None for f in functions):
        return None
    trees = [f for f in functions if f is not None]
    columns = list(zip(*(_constants(f) for f in trees), strict=True))
    varying = [i for i, column in enumerate(columns) if len({repr(c.value) for c in column}) > 1]
    parents = _parents(trees[0])
    roles = [_role(columns[i][0], parents, parameters) for i in varying]
    name = _shared_name([str(piece["name"]) for piece in group], _raises(trees[0]))
    if not varying or not all(roles) or len(set(roles)) < len(roles) or not name:
        return None
    rows = [tuple(column[i].value for i in varying) for column in zip(*columns, strict=True)]
    template = trees[0]
    for index, role in zip(varying, roles, strict=True):
        target = columns[index][0]
        replacement = ast.Name(id=role, ctx=ast.Load())
        holder = parents[id(target)]
        for field, value in ast.iter_fields(holder):
            if value is target:
                setattr(holder, field, replacement)
            elif isinstance(value, list):
                setattr(holder, field, [replacement if v is target else v for v in value])
    template.name = name
    template.args.args = [ast.arg(arg=role) for role in roles]
    names = roles[0] if len(roles) == 1 else tuple(roles)
    cases = [row[0] for row in rows] if len(roles) == 1 else rows
    decorator = python_ast.parse(f"pytest.mark.parametrize({names!r}, {cases!r})").body[0]
    assert isinstance(decorator, ast.Expr)
    template.decorator_list = [decorator.value]
    merged: dict[str, Any] = {**group[0], "name": name, "source": ast.unparse(template) + "\n"}
    merged["imports"] = sorted({name for p in group for name in p.get("imports", [])})
    merged["modules"] = sorted({"pytest", *(m for p in group for m in p.get("modules", []))})
    pairs = {(str(m), str(n)) for p in group for m, n in p.get("from_imports", [])}
    merged["from_imports"] = [list(pair) for pair in sorted(pairs)]
    merged["observed"] = any(piece.get("observed") for piece in group)
    if "id" in merged:
        merged["id"] = name
    merged["merged"] = [piece["name"] for piece in group]
    return merged


def parametrized(
    pieces: list[dict[str, Any]], parameters: Sequence[str], taken: set[str]
) -> list[dict[str, Any]]:
    """``pieces`` with each group of two or more that assert a raise, or three or more that
    assert the result equals a value, and are the same code but for their literal values
    merged into one parametrized test (its ``merged``: the names it replaces);
    ``parameters``: the node's positional parameters in order;
    ``taken``: the file's other test names, which a merged name must not be."""
    shapes: list[str | None] = []
    groups: dict[str, list[dict[str, Any]]] = {}
    raising: dict[str, bool] = {}
    for piece in pieces:
        function = _function(str(piece["source"]))
        shape = None
        raises = function is not None and _raises(function)
        if function is not None and (raises or _returns_a_value(function)):
            shape = _shape(function)
            raising[shape] = raises
            groups.setdefault(shape, []).append(piece)
        shapes.append(shape)
    merged: dict[str, dict[str, Any] | None] = {}  # by shape, decided at its first piece
    result: list[dict[str, Any]] = []
    for piece, shape in zip(pieces, shapes, strict=True):
        group = groups.get(shape, []) if shape is not None else []
        if shape is None or len(group) < _FEWEST[raising[shape]]:
            result.append(piece)
            continue
        if shape not in merged:
            one = _merged(group, parameters)
            kept = one if one is not None and one["name"] not in taken else None
            merged[shape] = kept
            if kept is not None:
                result.append(kept)
        if merged[shape] is None:
            result.append(piece)
    return result


def _positional(context: CodeContext) -> list[str]:
    """The node's parameters a call passes by position, its instance or class left out."""
    function = node_function(context)
    if function is None:
        return []
    names = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    static = any(ast.unparse(d) == "staticmethod" for d in function.decorator_list)
    return names[1:] if context.bound_node().node_type == "method" and not static else names


async def merged_cases(
    context: CodeContext,
    path: str,
    original: str | None,
    chosen: list[dict[str, Any]],
    taken: set[str],
) -> list[dict[str, Any]] | None:
    """The kept pieces with :func:`parametrized`'s groups merged, written to ``path``
    (``original`` with them added) when every case of the merged tests passes; None, the
    file left as it was, where nothing merges or a merged test does not pass. A project
    whose tests are ``unittest`` classes gets none (they take no parameters)."""
    if len(chosen) < 2 or written_class(context):
        return None
    merged = parametrized(chosen, _positional(context), taken)
    if len(merged) == len(chosen):
        return None
    before = context.read_text(path) if context.workspace.exists(path) else None
    await write_pieces(context, path, original, merged)
    report = await run_pytest(context, path)
    names = {str(piece["name"]) for piece in merged if piece.get("merged")}
    cases = [t for t in report["tests"] if t["name"].split("[", 1)[0] in names]
    ran = {t["name"].split("[", 1)[0] for t in cases}
    if report["collection_errors"] or ran != names or any(t["outcome"] != "passed" for t in cases):
        restore_file(context, path, before)
        return None
    return merged
