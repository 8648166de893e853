"""Tests found by measuring: candidates run under coverage; the fewest that cover the most kept.

``search_tests`` is the test agent's host step. Round one needs no model: the candidates
come from what the node branches on (:mod:`remora.code.values.input_search`), its
docstring's examples, the literal arguments the project's own calls pass, and the derived
typical set; all are called in ONE sandboxed process under coverage.py (a context per
candidate), and a greedy set cover keeps the few that reach every line and branch any of
them reached. Round two, only while something is missed and a model is bound: the model
completes ``assert node(`` under a list of what is still missed, and its calls are run the
same way; one is kept only if it adds a line or a branch. Expected values are the ones
observed (marked so, unless the model's own claim was right). No candidate is a call whose
test would assert nothing it did, or raised what the node's own code does not
(:mod:`remora.code.probes.own_raises`), or returned what the builtin the node shadows
returns (:mod:`remora.code.testgen.shadowed_builtins`, which also refuses a node under
``try/except ImportError`` or reading its caller's frame); nor does a node returning its
arguments as given (:mod:`remora.code.testgen.pass_through`) or a method its class's
``__init__`` runs as a step (:mod:`remora.code.testgen.construction_steps`). The kept
tests are named for the behaviour they check (:mod:`remora.code.testgen.test_names`),
written and run by pytest (a second process: each kept test has run twice), measured
under coverage and run against the node's mutants (:mod:`remora.code.testgen.kept_tests`):
a test whose outcome differs, or that no mutant fails, is dropped; the coverage and
mutation score before and after are the result.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.parsing import module_names
from remora.code.probes import (
    missed_report,
    node_call_target,
    node_span,
    taken_names,
    tests_in_file,
)
from remora.code.python_floor import floor_of
from remora.code.testgen.boolean_results import answers_by_truth
from remora.code.testgen.construction_steps import construction_step_reason
from remora.code.testgen.deciding_conditions import deciding_reason
from remora.code.testgen.empty_answers import empty_answer, without_lone_empty_answers
from remora.code.testgen.kept_tests import DEFAULT_MUTATION_BUDGET_S, span_source, write_measured
from remora.code.testgen.message_words import with_fixed_words
from remora.code.testgen.model_asks import ask_record
from remora.code.testgen.model_cases import claim_holds, model_candidates
from remora.code.testgen.observed_asserts import is_procedure
from remora.code.testgen.outcome_words import assigned_attributes
from remora.code.testgen.pass_through import pass_through_reason
from remora.code.testgen.project_usage import usage_first
from remora.code.testgen.raised_names import node_imports
from remora.code.testgen.run_memory import remember_problem, remembered_search
from remora.code.testgen.search_round import run_round
from remora.code.testgen.shadowed_builtins import untestable_reason
from remora.code.testgen.shown_outcomes import other_outcome_first
from remora.code.testgen.skipped_loops import without_skipped_loops
from remora.code.testgen.test_names import behaviour_name, node_words
from remora.code.testgen.test_results import ModelAsk, TestSearch
from remora.code.testgen.unread_arguments import settle_unread, without_made_up
from remora.code.testgen.written_tests import observed_piece
from remora.code.values import (
    CallTarget,
    Candidate,
    empty_variadic_call,
    greedy_cover,
    host_candidates,
    node_function,
    owner_arguments,
    owner_expressions,
    project_class_lookup,
    public_caller,
)
from remora.code.values.method_state import class_methods
from remora.code.values.unstable_sources import returns_unstable

__all__ = ["UNSTABLE_REASON", "search_tests"]

UNSTABLE_REASON = (
    "it returns a value from a clock or a random source (date.today(), random.random(), or "
    "another method of its class that does): a test would pin today's value"
)


@host_function
async def search_tests(
    context: CodeContext,
    path: str,
    max_tests: int = 6,
    time_budget_s: float = 60.0,
    mutation_budget_s: float = DEFAULT_MUTATION_BUDGET_S,
    model_cases: bool = True,
) -> TestSearch:
    """Find, write and measure the node's tests: ``{kept, dropped, coverage_before,
    coverage_after, missed, tried, model, model_may_add}``; ``missed`` is the node's source
    with what no test ran marked (empty when all is covered); ``model_may_add`` says whether
    a model turn aimed at it is worth its cost. Without ``model_cases`` the model is asked
    for nothing: neither completed calls nor a turn (the host's candidates alone)."""
    target = node_call_target(context)
    caller = public_caller(context.node_file_text(), target["qualname"])
    if caller is not None:
        why = f"a private helper: its tests go through {caller}, the public code that calls it"
        return {"kept": [], "dropped": [], "missed": "", "reason": why, "model_may_add": False}
    untestable = untestable_reason(context, target)
    function = node_function(context)
    # ``def field(name): return {"type": "field", "value": name}``: a test restates it.
    restated = pass_through_reason(context, target, function)
    # ``self.parse()`` in ``__init__``: a test calling it again pins a second run.
    step = construction_step_reason(context.node_file_text(), target["qualname"])
    if function and returns_unstable(function, class_methods(context.node_file_text(), function)):
        step = step or UNSTABLE_REASON
    if target["reason"] or untestable or restated or step:
        why = target["reason"] or str(untestable or restated or step)
        return {"kept": [], "dropped": [], "missed": "", "reason": why}
    remembered = remembered_search(context)
    if remembered is not None:
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
    candidates = {f"h{i}": c for i, c in enumerate(host_candidates(context, target))}
    setups: dict[str, int] = {}
    unusable: list[str] = []
    rows, gains, totals = await run_round(
        context, list(candidates.values()), span, "h", setups, unusable
    )
    built = _built_as_written(context, target, [candidates[name] for name in unusable])
    if totals is not None and built:
        # The bare instance failed these calls at its precondition: the project's own way
        # of building one (where('name'), Query().name) may run the method's logic.
        more_rows, more_gains, _ = await run_round(context, list(built.values()), span, "x", setups)
        candidates.update(built)
        rows.update(more_rows)
        gains.update(more_gains)
    if totals is None:  # the model's cases may still run: its turn is not skipped
        problems = [str(r["reason"]).splitlines()[0] for r in rows.values() if r["reason"]]
        why = remember_problem(context, problems)
        return {
            "kept": [],
            "dropped": [],
            "missed": why,
            "reason": why,
            "model_may_add": model_cases,
        }
    chosen = greedy_cover({k: gains[k] for k in usage_first(gains, candidates)}, (), max_tests)
    covered = totals.copy()
    for name in chosen:
        covered.add(gains[name])
    missed = missed_report(span_source(context, span), span.start, span, covered)
    model: ModelAsk = {"asked": False, "kept": 0, "problems": []}
    claims: dict[str, str] = {}
    # The model's completed call varies the arguments only: none, nothing to ask.
    askable = model_cases and bool(target["parameters"]) and context.completer is not None
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
            model_rows, model_gains, _ = await run_round(
                context, list(named.values()), span, "m", setups
            )
            extra = greedy_cover(model_gains, covered.units(), max_tests - len(chosen))
        finally:
            record.asked(bool(extra))
        candidates.update(named)
        rows.update(model_rows)
        gains.update(model_gains)
        chosen += extra
        model["kept"] = len(extra)
        model["dropped"] = len(named) - len(extra)
    text = context.node_file_text()
    names, node = module_names(text), node_words(target, text)
    owner_args = owner_arguments(context, target)
    used = taken_names(_tests_of(context, path))
    given: dict[str, dict[str, Any]] = {}  # each name given here, and its call's arguments
    assigned = assigned_attributes(function)
    procedure = is_procedure(context)
    truth = answers_by_truth(function)  # an and/or chain's operand is asserted as truth
    imports = node_imports(context)  # a raised class of another module named through them
    source = context.bound_node().file_path
    python2 = floor_of(context, source).python2  # match words (message_words)
    pieces = []
    # Other first-round candidates too, up to ``max_tests`` in all: a call on a boundary's
    # other side covers nothing new but may kill a mutant (``<`` for ``<=``; kept_tests).
    room = max(0, max_tests - len(chosen))
    others = [n for n in usage_first(rows, candidates) if n not in chosen and n[0] != "m"]
    chosen += other_outcome_first(function, others, rows, chosen)[:room]  # the lacking outcome
    # power(a=10**6, b="sample b") pins a's check alone: b made up and never read.
    rows.update(await settle_unread(context, target, candidates, rows, chosen, owner_args))
    chosen, left_out = without_made_up(rows, chosen, candidates, owner_args, function)
    chosen, skipped = without_skipped_loops(function, chosen, rows, gains)  # an empty table
    left_out += skipped
    for name in chosen:
        row = with_fixed_words(rows[name], text, source, python2=python2) | {"truth": truth}
        holds = claim_holds(context, row, claims.get(candidates[name].why))
        why = deciding_reason(name, candidates, rows, gains)
        if empty_variadic_call(target, row.get("args") or {}):
            continue  # ``union()``: a method whose point is its arguments, given none
        ran = {line for kind, line, _ in gains.get(name, ()) if kind == "line"}
        test = behaviour_name(
            node, row, why, used, assigned, owner_args, function, given, ran, procedure
        )
        if test is None:
            continue  # told apart from a test already there by nothing it could name
        piece = observed_piece(
            target,
            names,
            owner_args,
            row,
            test,
            marked=not holds,
            procedure=procedure,
            imports=imports,
            classes=project_class_lookup(context),
        )
        pieces.append(piece | {"empty_answer": empty_answer(row, test, owner_args, function)})
    pieces, empties = without_lone_empty_answers(pieces)  # BidictBase().copy() alone
    # A chat turn only while the model's cases still add coverage: after its completed
    # calls added nothing, a turn of the same model costs seconds and, measured on the
    # example project, kept nothing. A model that cannot complete text has only its turn.
    if not model_cases:
        model["not_asked"] = "the model's cases are off (model_cases: false)"
    may_add = model["kept"] > 0 if model["asked"] else context.completer is None
    measured = await write_measured(
        context,
        path,
        span,
        pieces,
        time_budget_s,
        ran_before=True,
        mutation_budget_s=mutation_budget_s,
    )
    # mypy's extra checks want TestSearch's own optional keys (reason, searched) in some
    # ** item; they are left out on purpose: a search that wrote tests has neither.
    result: TestSearch = {
        "tried": len(candidates),
        "model": model,
        "model_may_add": model_cases and may_add,
        **measured,  # type: ignore[typeddict-item]
    }
    if not result["kept"] and "coverage_after" not in result:
        result["missed"] = missed  # what the search saw; no test of it could be kept
    result["dropped"] = [*result["dropped"], *_setup_drops(setups), *left_out, *empties]
    return result


def _built_as_written(
    context: CodeContext, target: CallTarget, failed: list[Candidate]
) -> dict[str, Candidate]:
    """The calls a bare instance failed at its precondition, each again on each instance
    the project builds with an expression (:func:`~remora.code.values.owner_expressions`),
    named ``x0``, ``x1``, ... as :func:`.search_round.run_round` names them."""
    if not failed:
        return {}
    expressions = owner_expressions(context, str(target["owner"]))
    again: list[Candidate] = []
    for expression in expressions:
        for candidate in failed:  # owners of its own that differed now build one instance
            built = replace(candidate, owner_args=expression)
            if all(built.args != c.args or built.owner_args != c.owner_args for c in again):
                again.append(built)
    return {f"x{i}": c for i, c in enumerate(again)}


def _setup_drops(setups: dict[str, int]) -> list[str]:
    """The calls no test pins because their exception is the set-up's, one line a reason."""
    return [
        f"{count} call{'s' if count > 1 else ''} not made a test: {reason}"
        for reason, count in setups.items()
    ]


def _tests_of(context: CodeContext, path: str) -> list[str]:
    return tests_in_file(context.read_text(path), path) if context.workspace.exists(path) else []
