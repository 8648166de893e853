"""Tests found by measuring: candidates run under coverage; the fewest that cover the most kept.

``search_tests`` is the test agent's host step. Round one needs no model: the
candidates come from what the node branches on (:mod:`remora.code.input_search`),
its docstring's examples, the literal arguments the project's own calls pass,
and the derived typical set; all are called in ONE sandboxed process under
coverage.py (a context per candidate), and a greedy set cover keeps the few
that reach every line and branch any of them reached. Round two, only while
something is missed and a model is bound: the model completes
``assert node(`` under a list of what is still missed, and its calls are run
the same way; one is kept only if it adds a line or a branch. Expected values
are the ones observed (marked so, unless the model's own claim was right).
The kept tests are written and run by pytest (a second process, so each kept
test has run twice), then measured once more under coverage: a test whose
outcome differs is dropped, and the coverage before and after is the result.
"""

from __future__ import annotations

import ast
import time
from collections import OrderedDict
from typing import Any

from remora import python_ast
from remora.code.call_text import value_from_text
from remora.code.calls import (
    node_call_target,
    pins_behaviour,
    probe_argument_sets,
)
from remora.code.constructor import project_class_lookup
from remora.code.context import CodeContext
from remora.code.coverage_probe import (
    Coverage,
    Span,
    context_units,
    measure_test_file,
    missed_report,
    node_span,
)
from remora.code.host_candidates import host_candidates, node_function
from remora.code.import_paths import module_name
from remora.code.input_search import (
    Candidate,
    greedy_cover,
)
from remora.code.method_state import observed_attributes
from remora.code.model_asks import ask_record
from remora.code.model_cases import model_candidates
from remora.code.module import host_function
from remora.code.pytest_files import (
    add_passing_tests,
    overlay_digest,
    restore_file,
    tests_in_file,
    with_pieces,
)
from remora.code.written_tests import (
    OBSERVED_MARKER,
    module_names,
    observed_piece,
    owner_arguments,
    snake,
)

__all__ = [
    "add_covering_tests",
    "run_coverage",
    "search_tests",
    "write_measured",
]

# Coverage of recent runs by workspace (id, creation time), for the submit's result.
_RUN_COVERAGE: OrderedDict[tuple[str, float], dict[str, Any]] = OrderedDict()
_MAX_REMEMBERED = 64


async def _run_round(
    context: CodeContext, candidates: list[Candidate], span: Span, prefix: str
) -> tuple[dict[str, dict[str, Any]], dict[str, frozenset[Any]], Coverage | None]:
    sets: list[dict[str, Any]] = [
        {"name": f"{prefix}{i}", "args": c.args}
        | ({"owner_args": c.owner_args} if c.owner_args is not None else {})
        for i, c in enumerate(candidates)
    ]
    observe = observed_attributes(node_call_target(context), node_function(context, span))
    rows, measured = await probe_argument_sets(context, sets, coverage=span.spec(), observe=observe)
    if measured is None:
        return {}, {}, None
    usable = {row["name"]: row for row in rows if pins_behaviour(row)}
    gains = {name: frozenset(context_units(measured, name)) for name in usable}
    return usable, gains, Coverage.of(measured)


def _test_name(target: dict[str, Any], row: dict[str, Any], why: str, used: set[str]) -> str:
    node = snake(target["qualname"])
    if why.startswith("model_"):
        what = f"with_{why.removeprefix('model_')}"
    elif why in ("doc", "as_called"):
        what = {"doc": "docstring_example", "as_called": "as_the_project_calls_it"}[why]
    elif why.endswith("_arguments"):
        what = f"with_{why}"
    else:
        what = f"when_{why}"
    raised = row.get("raised")
    if raised:
        what = f"raises_{snake(raised['type'])}_{what}"
    name, number = f"test_{node}_{what}", 2
    while name in used:
        name, number = f"test_{node}_{what}_{number}", number + 1
    used.add(name)
    return name


def _claim_holds(context: CodeContext, row: dict[str, Any], claim: str | None) -> bool:
    returned = row.get("returned")
    if claim is None or not returned or not returned["literal"]:
        return False
    try:
        return bool(
            value_from_text(claim, project_class_lookup(context))
            == python_ast.literal_eval(returned["repr"])
        )
    except (ValueError, SyntaxError):
        return False


@host_function
async def search_tests(
    context: CodeContext, path: str, max_tests: int = 6, time_budget_s: float = 60.0
) -> dict[str, Any]:
    """Find, write and measure the node's tests: ``{kept, dropped, coverage_before,
    coverage_after, missed, tried, model, model_may_add}``; ``missed`` is the node's source
    with what no test ran marked (empty when all is covered); ``model_may_add`` says whether
    a model turn aimed at it is worth its cost."""
    target = node_call_target(context)
    if target["reason"]:
        return {"kept": [], "missed": "", "reason": target["reason"]}
    remembered = _RUN_COVERAGE.get(_run_key(context))
    if remembered is not None and remembered["files"] == overlay_digest(context):
        # Searched already, and nothing changed since: the same arguments find nothing new.
        return {
            "kept": [],
            "dropped": [],
            "missed": remembered["missed"],
            "searched": "before",
            "model_may_add": False,
        }
    started = time.monotonic()
    span = node_span(context)
    candidates = {f"h{i}": c for i, c in enumerate(host_candidates(context, target, span))}
    rows, gains, totals = await _run_round(context, list(candidates.values()), span, "h")
    if totals is None:  # the model's cases may still run: its turn is not skipped
        why = "the search could not run the node with derived arguments"
        return {"kept": [], "dropped": [], "missed": why, "reason": why, "model_may_add": True}
    chosen = greedy_cover(gains, (), max_tests)
    covered = totals.copy()
    for name in chosen:
        covered.add(gains[name])
    missed = missed_report(_span_source(context, span), span.start, span, covered)
    model: dict[str, Any] = {"asked": False, "kept": 0, "problems": []}
    claims: dict[str, str] = {}
    # The model's completed call varies the arguments only: none, nothing to ask.
    askable = bool(target["parameters"]) and context.completer is not None
    record = ask_record(context.completer)
    if missed and askable and time.monotonic() - started < time_budget_s:
        model["asked"] = record.worth_asking()
        if not model["asked"]:
            model["not_asked"] = record.why_not()
    if model["asked"]:
        extra: list[str] = []
        try:  # the record hears how the ask ended, a cancelled or failed one too
            found, claims, model["problems"] = await model_candidates(context, target, missed)
            named = {f"m{i}": c for i, c in enumerate(found)}
            model_rows, model_gains, _ = await _run_round(context, list(named.values()), span, "m")
            extra = greedy_cover(model_gains, covered.units(), max_tests - len(chosen))
        finally:
            record.asked(bool(extra))
        candidates.update(named)
        rows.update(model_rows)
        gains.update(model_gains)
        chosen += extra
        model["kept"] = len(extra)
        model["dropped"] = len(named) - len(extra)
    names = module_names(context.node_file_text())
    owner_args = owner_arguments(context, target)
    used = set(_tests_of(context, path))
    pieces = []
    for name in chosen:
        why = candidates[name].why
        row = rows[name]
        holds = _claim_holds(context, row, claims.get(why))
        test = _test_name(target, row, why, used)
        pieces.append(observed_piece(target, names, owner_args, row, test, marked=not holds))
    # A chat turn only while the model's cases still add coverage: after its completed
    # calls added nothing, a turn of the same model costs seconds and, measured on the
    # example project, kept nothing. A model that cannot complete text has only its turn.
    result: dict[str, Any] = {"tried": len(candidates), "model": model}
    result["model_may_add"] = model["kept"] > 0 if model["asked"] else context.completer is None
    result.update(await write_measured(context, path, span, pieces, time_budget_s, ran_before=True))
    if not result["kept"] and "coverage_after" not in result:
        result["missed"] = missed  # what the search saw; no test of it could be kept
    return result


def _tests_of(context: CodeContext, path: str) -> list[str]:
    return tests_in_file(context.read_text(path), path) if context.workspace.exists(path) else []


def _span_source(context: CodeContext, span: Span) -> str:
    return "\n".join(context.node_file_text().splitlines()[span.start - 1 : span.last])


async def write_measured(
    context: CodeContext,
    path: str,
    span: Span,
    pieces: list[dict[str, Any]],
    time_budget_s: float | None = None,
    *,
    ran_before: bool = False,
) -> dict[str, Any]:
    """Write the pieces that pass, run the file again under coverage, and keep those that
    passed twice and add a line or a branch to what the file's other tests cover.

    The measured run measures the file's other tests too: they are the coverage
    before. ``ran_before``: each piece's call already ran once, in the search's probe
    process, and gave the value the piece asserts; the measured run is then its second
    run, in a second process, and no plain pytest run comes first (it would be a third).
    """
    existing = _tests_of(context, path)
    original = context.read_text(path) if context.workspace.exists(path) else None
    result: dict[str, Any] = {"kept": [], "dropped": [], "missed": ""}
    module = module_name(context, context.bound_node().file_path)
    if not pieces:
        return result
    if ran_before:
        context.write_text(path, with_pieces(original or "", path, module, pieces))
        kept = [p["name"] for p in pieces]
    else:
        outcome = await add_passing_tests(context, path, pieces)
        kept = outcome["kept"]
        result["dropped"] = [f"{r['name']} failed: {r['message']}" for r in outcome["refused"]]
    if not kept:
        return result
    report, measured = await measure_test_file(context, path, span, time_budget_s)
    if measured is None:
        if not ran_before:  # kept as pytest left them; nothing to say about coverage
            result["kept"] = kept
            return result
        restore_file(context, path, original)  # no pytest run has passed them
        problems = [e["message"] for e in report["collection_errors"]] or [report["output"]]
        result["dropped"] = [f"{n}: the test file did not run: {problems[0]}" for n in kept]
        return result
    tests = {str(t["name"]): t for t in report["tests"]}
    before = Coverage.of(measured)
    for name, test in tests.items():  # a parametrized test runs as name[params]
        if name.split("[", 1)[0] in existing and test["outcome"] == "passed":
            before.add(context_units(measured, name))
    after = before.copy()
    differs = [n for n in kept if tests.get(n, {}).get("outcome") != "passed"]
    dropped = [f"{n}: it passed once, then {_outcome_words(tests.get(n))}" for n in differs]
    gains = {n: frozenset(context_units(measured, n)) for n in kept if n not in differs}
    covering = greedy_cover(gains, before.units(), len(gains))
    dropped += [f"{n}: it adds no line or branch" for n in gains if n not in covering]
    for name in covering:
        after.add(gains[name])
    if len(covering) < len(kept):  # the same pieces that passed twice, the others left out
        chosen = [p for p in pieces if p["name"] in covering]
        if chosen:
            context.write_text(path, with_pieces(original or "", path, module, chosen))
        else:
            restore_file(context, path, original)
    result["kept"] = [p["name"] for p in pieces if p["name"] in covering]
    result["dropped"] += dropped
    result["coverage_before"] = before.summary()
    result["coverage_after"] = after.summary()
    result["missed"] = missed_report(_span_source(context, span), span.start, span, after)
    _remember(context, result)
    return result


def _outcome_words(test: dict[str, Any] | None) -> str:
    if test is None:
        return "did not run"
    message = str(test.get("message") or "").strip()
    return f"{test['outcome']}: {message[:200]}" if message else str(test["outcome"])


def _run_key(context: CodeContext) -> tuple[str, float]:
    return (context.workspace.id, context.workspace.created)


def _remember(context: CodeContext, result: dict[str, Any]) -> None:
    """The run's first coverage before (the project's own tests), its latest after and
    what that leaves missed, with the files they were measured on."""
    key = _run_key(context)
    first = _RUN_COVERAGE.get(key, {}).get("before", result["coverage_before"])
    _RUN_COVERAGE[key] = {
        "before": first,
        "after": result["coverage_after"],
        "missed": result["missed"],
        "files": overlay_digest(context),
    }
    while len(_RUN_COVERAGE) > _MAX_REMEMBERED:
        _RUN_COVERAGE.popitem(last=False)


@host_function
async def run_coverage(context: CodeContext, path: str) -> dict[str, Any]:
    """The node's coverage before this run's tests and now: ``{before, after}`` summaries
    (``{lines, branches, line_rate, branch_rate}``), measured again only when the files
    changed since the last measurement; ``before`` is None when this run never measured it."""
    remembered = _RUN_COVERAGE.get(_run_key(context))
    if remembered is not None and remembered["files"] == overlay_digest(context):
        return {"before": remembered["before"], "after": remembered["after"]}
    span = node_span(context)
    report, measured = await measure_test_file(context, path, span)
    if measured is None:
        return {"before": None, "after": None}
    after = Coverage.of(measured)
    for test in report["tests"]:
        if test["outcome"] == "passed":
            after.add(context_units(measured, str(test["name"])))
    before = remembered["before"] if remembered is not None else None
    return {"before": before, "after": after.summary()}


@host_function
async def add_covering_tests(
    context: CodeContext, path: str, pieces: list[dict[str, Any]]
) -> dict[str, Any]:
    """Add the test pieces that pass twice and add coverage: ``{kept, dropped,
    coverage_before, coverage_after, missed}`` (``dropped`` says why for each)."""
    return await write_measured(context, path, node_span(context), pieces)


@host_function
def observed_in(context: CodeContext, path: str, names: list[str]) -> list[str]:
    """Those of ``names`` (test functions of ``path``) whose expected values were observed."""
    text = context.read_text(path)
    tree = python_ast.parse(text)
    return [
        stmt.name
        for stmt in tree.body
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
        and stmt.name in names
        and OBSERVED_MARKER in (ast.get_source_segment(text, stmt) or "")
    ]
