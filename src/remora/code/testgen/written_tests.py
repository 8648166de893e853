"""Test functions for the run's node: from a model's cases, from a model's source, or observed.

Every function returned here is a *piece* for
:func:`remora.code.probes.pytest_files.add_passing_tests`: ``{"name", "source", "imports",
"modules"}``. What a piece claims is what it checks: a case's test asserts the value or
exception the case gives; a model's test function must call the node and assert
something, and loses its docstring (prose nobody checked); an observed test pins what
the code did with derived arguments (its behaviour: :mod:`.observed_asserts`), and the
piece says it was observed (``observed``), for the run's summary, not in a comment.
Nothing here runs code; the pieces are run by pytest.
"""

from __future__ import annotations

import ast
import json
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.parsing import module_names
from remora.code.probes import (
    node_call_target,
    pins_behaviour,
    probe_argument_sets,
    setup_reason,
    taken_names,
)
from remora.code.python_floor import floor_of
from remora.code.testgen.empty_results import observed_kind
from remora.code.testgen.made_files import in_own_folder, made_files_reason
from remora.code.testgen.message_words import with_fixed_words
from remora.code.testgen.observed_asserts import (
    called_functions,
    is_procedure,
    observed_lines,
    pins_something,
)
from remora.code.testgen.outcome_words import case_words
from remora.code.testgen.raised_names import NodeImports, node_imports
from remora.code.testgen.shadowed_builtins import same_as_builtin, untestable_reason
from remora.code.testgen.test_names import node_words
from remora.code.testgen.test_results import ObservedTests, RefusedPiece, TestPieces
from remora.code.values import (
    CallRender,
    CallTarget,
    ClassLookup,
    approx_text,
    argument_sets,
    arguments_from_text,
    owner_arguments,
    parameter_of,
    project_class_lookup,
    snake_name,
    value_from_text,
    without_defaults,
)

__all__ = [
    "case_piece",
    "observed_piece",
    "source_pieces",
]


def _expectation(render: CallRender, expected: Any) -> str:
    if expected is None or isinstance(expected, bool):
        return f"assert result is {expected!r}"
    if isinstance(expected, float):
        render.modules.add("pytest")
        return f"assert result == pytest.approx({approx_text(expected)})"
    return f"assert result == {render.value(expected)}"


def _case_arguments(case: dict[str, Any], target: CallTarget, classes: ClassLookup) -> Any:
    args = case.get("args", {})
    if isinstance(args, str):
        params = [parameter_of(p) for p in target["parameters"]]
        return arguments_from_text(args, params, classes)
    if not isinstance(args, dict):
        raise ValueError("'args' are call arguments as text (a=1, b='x')")
    return args


def case_piece(
    target: CallTarget,
    module_names: set[str],
    owner_args: dict[str, Any],
    case: Any,
    name: str,
    classes: ClassLookup,
    plain: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The test of a case ``{args, expected}`` or ``{args, raises}``; ValueError: what is wrong.

    ``args`` and ``expected`` are Python text (``price=1.5``, ``[1, 2]``) or JSON values;
    ``plain``: the modules the node's module imports by dotted name.
    """
    if not isinstance(case, dict):
        raise ValueError("a case is an object: {args: 'a=1', expected: '2'} or {args, raises}")
    if ("expected" in case) == ("raises" in case):
        raise ValueError(
            "give exactly one of 'expected' (the value returned) and 'raises' (an exception name)"
        )
    render = CallRender(target, module_names, classes, plain)
    args = without_defaults(_case_arguments(case, target, classes), target["parameters"])
    call, lines = render.call(args, owner_args)
    if "raises" in case:
        exception = render.exception(str(case["raises"]).strip())
        render.modules.add("pytest")
        lines += [f"with pytest.raises({exception}):", f"    {call}"]
    else:
        expected = case["expected"]
        if isinstance(expected, str):
            expected = value_from_text(expected, classes)
        lines += [f"result = {call}", _expectation(render, expected)]
    return render.piece(name, lines)


def _calls_node(function: ast.FunctionDef | ast.AsyncFunctionDef, node_name: str) -> bool:
    for inner in ast.walk(function):
        if isinstance(inner, ast.Name) and inner.id == node_name:
            return True
        if isinstance(inner, ast.Attribute) and inner.attr == node_name:
            return True
    return False


def _checks(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for inner in ast.walk(function):
        if isinstance(inner, ast.Assert):
            return True
        callee = inner.func if isinstance(inner, ast.Call) else None
        if isinstance(callee, ast.Attribute) and callee.attr == "raises":
            return True
    return False


def _without_docstring(
    lines: list[str], start: int, function: ast.FunctionDef | ast.AsyncFunctionDef
) -> list[str]:
    """The function's lines (``lines`` begin at line ``start``) without its docstring's lines."""
    first = function.body[0]
    if not (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return lines
    end = first.end_lineno or first.lineno
    shares_a_line = first.lineno == function.lineno or (
        len(function.body) > 1 and function.body[1].lineno <= end
    )
    if shares_a_line or len(function.body) == 1:
        raise ValueError(
            f"{function.name}: drop the docstring (its name and asserts say what it checks)"
        )
    return [line for number, line in enumerate(lines, start) if not first.lineno <= number <= end]


def source_pieces(source: str, target: CallTarget, module: str) -> list[dict[str, Any]]:
    """Pieces from a model's test source; ValueError names the first thing that is wrong."""
    try:
        tree = python_ast.parse(source)
    except SyntaxError as exc:
        raise ValueError(f"line {exc.lineno}: {exc.msg}") from None
    lines = source.splitlines()
    # The node itself (or its class) is imported whether the source says so or not.
    imports: set[str] = {(target["owner"] or target["qualname"]).split(".")[0]}
    modules: set[str] = set()
    functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            modules.update(alias.name for alias in stmt.names if alias.asname is None)
        elif isinstance(stmt, ast.ImportFrom) and stmt.module == module and stmt.level == 0:
            imports.update(alias.name for alias in stmt.names if alias.asname is None)
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            functions.append(stmt)
        else:
            raise ValueError(
                f"line {stmt.lineno}: only test functions, `import x` "
                f"and `from {module} import ...`"
            )
    if not functions:
        raise ValueError("no test function: write `def test_...():` with an assert")
    node_name = target["name"]
    pieces = []
    for function in functions:
        where = f"{function.name} (line {function.lineno})"
        if not function.name.startswith("test_") or node_name.lower() not in function.name.lower():
            raise ValueError(f"{where}: name it test_{snake_name(node_name)}_<what it checks>")
        if not _calls_node(function, node_name):
            raise ValueError(f"{where}: it never calls {node_name}")
        if not _checks(function):
            raise ValueError(f"{where}: it checks nothing: add an assert or pytest.raises")
        first = min([function.lineno, *(d.lineno for d in function.decorator_list)])
        own = _without_docstring(lines[first - 1 : function.end_lineno], first, function)
        pieces.append(
            {
                "name": function.name,
                "source": "\n".join(own) + "\n",
                "imports": sorted(imports),
                "modules": sorted(modules),
            }
        )
    return pieces


def _unique(name: str, taken: set[str]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}_{number}", number + 1
    taken.add(candidate)
    return candidate


@host_function
def model_test_pieces(
    context: CodeContext, cases: list[Any], sources: list[str], taken: list[str]
) -> TestPieces:
    """Pieces from a model's cases and test sources: ``{pieces, refused: [{what, reason}]}``.

    ``taken`` are test names the file has already; a case's test is named for what
    it claims (``test_<node>_returns_11th``, ``test_<node>_raises_value_error``). A
    refused item says what to change.
    """
    target = node_call_target(context)
    names = module_names(context.node_file_text())
    used = taken_names(taken)
    pieces: list[dict[str, Any]] = []
    refused: list[RefusedPiece] = []
    owner_args = owner_arguments(context, target)
    lookup = project_class_lookup(context)
    imports = node_imports(context)
    node = node_words(target, context.node_file_text())
    for index, case in enumerate(cases, 1):
        try:
            name = _unique(f"test_{node}_{case_words(case)}", used)
            piece = case_piece(target, names, owner_args, case, name, lookup, imports.plain)
            pieces.append(piece)
        except ValueError as exc:
            refused.append({"what": f"case {index}: {json.dumps(case)[:200]}", "reason": str(exc)})
    module = target["module"]
    for index, source in enumerate(sources, 1):
        try:
            found = source_pieces(source, target, module)
        except ValueError as exc:
            refused.append({"what": f"test source {index}", "reason": str(exc)})
            continue
        for piece in found:
            if piece["name"] in used:
                refused.append(
                    {"what": piece["name"], "reason": "a test of that name exists; choose another"}
                )
            else:
                used.add(piece["name"])
                pieces.append(piece)
    return {"pieces": pieces, "refused": refused}


@host_function
async def observed_tests(context: CodeContext, taken: list[str]) -> ObservedTests:
    """Tests that pin what the node does with derived arguments: ``{pieces, skipped}``.

    Each derived set is run in the sandbox first; a set whose outcome no test may
    pin (:func:`~remora.code.probes.calls.pins_behaviour`: it does not bind, the call
    raises TypeError or an AttributeError on an argument, an OSError of the
    machine's, or it timed out) gives no test, nor one that would pin nothing
    (:func:`~remora.code.testgen.observed_asserts.pins_something`).
    """
    target = node_call_target(context)
    untestable = untestable_reason(context, target)
    if target["reason"] or untestable:
        return {"pieces": [], "skipped": [target["reason"] or untestable]}
    lookup = project_class_lookup(context)
    params = [parameter_of(p) for p in target["parameters"]]
    checked, _ = await probe_argument_sets(context, argument_sets(params, lookup, 3))
    names = module_names(context.node_file_text())
    owner_args = owner_arguments(context, target)
    used = taken_names(taken)
    pieces: list[dict[str, Any]] = []
    skipped: list[str] = []
    procedure = is_procedure(context)
    imports = node_imports(context)
    source = context.bound_node().file_path
    python2 = floor_of(context, source).python2  # match words (message_words)
    for row in checked:
        if not pins_behaviour(row):
            why = row["reason"] or (row.get("raised") or {}).get("message") or "did not finish"
            skipped.append(f"{row['name']}: {why}")
            continue
        if setup := made_files_reason(context, row) or setup_reason(context, target, row):
            skipped.append(f"{row['name']}: {setup}")
            continue
        if not pins_something(row, procedure) or same_as_builtin(target, row):
            skipped.append(f"{row['name']}: its test would assert nothing the call did")
            continue
        name = _unique(f"test_{snake_name(target['qualname'])}_{row['name']}", used)
        row = with_fixed_words(row, context.node_file_text(), source, python2=python2)
        pieces.append(
            observed_piece(
                target,
                names,
                owner_args,
                row,
                name,
                procedure=procedure,
                imports=imports,
                classes=lookup,
            )
        )
    return {"pieces": pieces, "skipped": skipped}


def observed_piece(
    target: CallTarget,
    module_names: set[str],
    owner_args: dict[str, Any],
    row: dict[str, Any],
    name: str,
    marked: bool = True,
    *,
    procedure: bool = False,
    imports: NodeImports | None = None,
    classes: ClassLookup | None = None,
) -> dict[str, Any]:
    """The test that pins what a checked call (``row``: args, returned or raised) gave.

    ``marked``: the expected value came from observation (the piece's ``observed``; the
    run's summary says so, the test does not); ``returned_kind``: the builtin type of the
    value it returned (:func:`~remora.code.testgen.empty_results.observed_kind`). A row
    with ``owner_args`` builds its own instance; one with ``state`` asserts it after the
    call; one that made files runs in a folder of its own (:mod:`.made_files`).
    ``procedure``: the node returns no value anywhere, so only the state it changed
    is asserted (:mod:`remora.code.testgen.observed_asserts`). ``imports``: the node's
    module's, through which a raised class of another module is named
    (:mod:`remora.code.testgen.raised_names`). ``classes``: the constructors of the classes
    whose instances are arguments, which take their positional-only parameters by position.
    """
    render = CallRender(target, module_names, classes, imports.plain if imports else frozenset())
    render.recording = called_functions(row)
    args = without_defaults(row["args"], target["parameters"])
    capped = int((row.get("returned") or {}).get("capped", 0))
    call, lines = render.call(args, row.get("owner_args", owner_args), capped)
    observed = [*lines, *observed_lines(render, row, call, target["module"], procedure, imports)]
    lines, fixtures = in_own_folder(row, observed)  # a call that made files: made_files.py
    piece = {**render.piece(name, lines, fixtures), "observed": marked}
    kind = observed_kind(row)
    return piece | {"returned_kind": kind} if kind else piece
