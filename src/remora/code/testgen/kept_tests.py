"""Which written tests stay: they passed twice, and each keeps a line, a branch or a killed mutant.

A test's pieces (from the host's search or the model's cases) are written to the module's
test file, laid out by the project's formatter (:mod:`remora.code.testgen.test_layout`),
and run by pytest under coverage (each piece's call ran once already, in the search's
probe, or in a plain pytest run first), this second run as on another machine: another
locale and time zone (:mod:`remora.code.probes.machine_settings`), so a test that passes
only under the sandbox's ``C.UTF-8`` and UTC (English text the code picks by the system's
locale, a local time) fails there. A test whose outcome differs is dropped, and says why.
The mutation check (:mod:`remora.code.testgen.mutation_check`) then runs the rest, and
the file's tests that reach the node, against the node's mutants: a test no mutant fails
is dropped
(it would pass whatever the code did there; one that asserts only that the call returned
its instance is dropped before it is written: :mod:`remora.code.testgen.identity_asserts`),
as is one the identity mutant (the node handing back its instance or argument unchanged)
reaches and does not fail: a copy's ``assert result == {...}`` alone, and the kept set is
the smallest that keeps every line, branch and killed mutant the candidates reach
(a greedy set cover over both). A node keeps no test unless they, with the file's others,
show each outcome :mod:`remora.code.testgen.shown_outcomes` asks: fail its body replaced by
``return True`` and ``return False`` (a predicate), by ``return []`` (each empty value its
results take). Without a matrix to decide by (a node without mutants, the check off or
failed), coverage alone decides, and the result says so.

The result gives the coverage and the mutation score (killed/total) of the
file's other tests, before, and with the kept ones, after; the run remembers
them (and which tests' expected values were observed rather than claimed) for
its submit, which reports them in the result's details.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.probes import (
    OTHER_MACHINE_WORDS,
    Coverage,
    Span,
    add_passing_tests,
    context_units,
    measure_test_file,
    missed_report,
    node_span,
    reported_name,
    restore_file,
    tests_in_file,
    written_class,
)
from remora.code.testgen.identity_asserts import without_identity_only
from remora.code.testgen.mutation_check import MutationOutcome, mutation_outcome
from remora.code.testgen.parametrized_tests import merged_cases
from remora.code.testgen.run_memory import earlier_run, remember_run, remembered_search
from remora.code.testgen.test_layout import add_package_marker, new_test_folder, write_pieces
from remora.code.testgen.test_results import MeasuredTests, RunCoverage, TestScores
from remora.code.values import greedy_cover

__all__ = [
    "DEFAULT_MUTATION_BUDGET_S",
    "add_covering_tests",
    "choose_kept",
    "mutation_summaries",
    "observed_in",
    "remembered_search",
    "run_coverage",
    "span_source",
    "write_measured",
]

DEFAULT_MUTATION_BUDGET_S = 20.0


def _tests_of(context: CodeContext, path: str) -> list[str]:
    return tests_in_file(context.read_text(path), path) if context.workspace.exists(path) else []


def span_source(context: CodeContext, span: Span) -> str:
    """The node's lines (decorators included) as the file has them now."""
    return "\n".join(context.node_file_text().splitlines()[span.start - 1 : span.last])


def _lines(units: frozenset[Any] | set[Any]) -> set[int]:
    return {a for kind, a, _ in units if kind == "line"}


async def write_measured(
    context: CodeContext,
    path: str,
    span: Span,
    pieces: list[dict[str, Any]],
    time_budget_s: float | None = None,
    *,
    ran_before: bool = False,
    mutation_budget_s: float = DEFAULT_MUTATION_BUDGET_S,
) -> MeasuredTests:
    """Write the pieces that pass, run the file again under coverage and against the
    node's mutants, and keep the fewest that keep the coverage and the killed mutants.

    ``ran_before``: each piece's call already ran once, in the search's probe
    process, and gave the value the piece asserts; the measured run is then its second
    run, in a second process, and no plain pytest run comes first (it would be a third).
    A piece with ``observed`` true asserts values observed from the code, not claimed.
    """
    existing = _tests_of(context, path)
    original = context.read_text(path) if context.workspace.exists(path) else None
    # unittest's discovery needs a new test folder to be a package.
    new_folder = new_test_folder(context, path) if written_class(context) else ""
    pieces, identity_only = without_identity_only(pieces)  # `assert result is obj` alone
    result: MeasuredTests = {"kept": [], "dropped": identity_only, "missed": "", "observed": []}
    if not pieces:
        return result
    if ran_before:
        kept = [p["name"] for p in pieces]
    else:
        outcome = await add_passing_tests(context, path, pieces)
        kept = outcome["kept"]
        result["dropped"] += [f"{r['name']} failed: {r['message']}" for r in outcome["refused"]]
    if not kept:
        return result
    # Each test by the name pytest reports it under (``Class::name`` in a TestCase class).
    test_class = written_class(context)
    pieces = [
        {**p, "id": reported_name(test_class, p["name"])} for p in pieces if p["name"] in kept
    ]
    kept = [p["id"] for p in pieces]
    await write_pieces(context, path, original, pieces)  # laid out as the project formats
    report, measured = await measure_test_file(context, path, span, time_budget_s, elsewhere=True)
    if measured is None:
        if not ran_before:  # kept as pytest left them; nothing to say about coverage
            result["kept"] = [p["name"] for p in pieces]
            if new_folder:
                add_package_marker(context, new_folder)
            return result
        restore_file(context, path, original)  # no pytest run has passed them
        problems = [e["message"] for e in report["collection_errors"]] or [report["output"]]
        result["dropped"] = [f"{n}: the test file did not run: {problems[0]}" for n in kept]
        return result
    tests: dict[str, Mapping[str, Any]] = {t["name"]: t for t in report["tests"]}
    before = Coverage.of(measured)
    others: dict[str, frozenset[Any]] = {}
    for name, test in tests.items():  # a parametrized test runs as name[params]
        if name.split("[", 1)[0] in existing and test["outcome"] == "passed":
            others[name] = frozenset(context_units(measured, name))
            before.add(others[name])
    differs = [n for n in kept if tests.get(n, {}).get("outcome") != "passed"]
    dropped = [f"{n}: {_second_run_words(tests.get(n))}" for n in differs]
    gains = {n: frozenset(context_units(measured, n)) for n in kept if n not in differs}
    lines_by_test = {n: _lines(units) for n, units in {**others, **gains}.items() if units}
    kinds = [str(p["returned_kind"]) for p in pieces if p.get("returned_kind")]  # observed
    mutation = await mutation_outcome(context, path, span, lines_by_test, mutation_budget_s, kinds)
    covering, more = choose_kept(gains, others, before, mutation)
    dropped += more
    after = before.copy()
    for name in covering:
        after.add(gains[name])
    chosen = [p for p in pieces if p["id"] in covering]
    # Tests that raise the same way on other values, as one parametrized test where it passes.
    merged = await merged_cases(context, path, original, chosen, set(existing))
    if merged is not None:
        chosen = merged
    elif len(covering) < len(kept):  # the same pieces that passed twice, the others left out
        if chosen:
            await write_pieces(context, path, original, chosen)
        else:
            restore_file(context, path, original)
    result["kept"] = [p["id"] for p in chosen]
    if new_folder and result["kept"]:
        add_package_marker(context, new_folder)
    result["observed"] = [p["id"] for p in chosen if p.get("observed")]
    result["dropped"] += dropped
    result["coverage_before"] = before.summary()
    result["coverage_after"] = after.summary()
    scores = mutation_summaries(mutation, set(others), set(covering))
    if "mutation_note" in scores:
        result["mutation_note"] = scores["mutation_note"]
    if "mutation_before" in scores and "mutation_after" in scores:
        result["mutation_before"] = scores["mutation_before"]
        result["mutation_after"] = scores["mutation_after"]
    result["missed"] = missed_report(span_source(context, span), span.start, span, after)
    remember_run(context, result)
    return result


def choose_kept(
    gains: dict[str, frozenset[Any]],
    others: dict[str, frozenset[Any]],
    before: Coverage,
    mutation: MutationOutcome,
) -> tuple[list[str], list[str]]:
    """(the tests kept, why each other one is dropped): with a kill matrix, only tests
    that pin something of the node (:meth:`MutationOutcome.pinning_nothing`), the fewest
    keeping every line, branch and killed mutant; none where they and the file's others
    all pass on a body of ``return True``/``return False`` (a predicate's) or of ``return
    []`` (an empty result: :meth:`MutationOutcome.one_outcome`)."""
    if not mutation.measured:
        covering = greedy_cover(gains, before.units(), len(gains))
        return covering, [f"{n}: it adds no line or branch" for n in gains if n not in covering]
    why = mutation.pinning_nothing({n: _lines(units) for n, units in gains.items()})
    dropped = [f"{n}: {why[n]}" for n in gains if n in why]
    killing = {n: units | mutation.kills(n) for n, units in gains.items() if n not in why}
    have: set[Any] = set(before.units())
    for name in others:
        have |= mutation.kills(name)
    covering = greedy_cover(killing, have, len(killing))
    dropped += [
        f"{n}: it adds no line, branch or killed mutant to the others'"
        for n in killing
        if n not in covering
    ]
    # Both outcomes of a predicate, a call doing something, or none kept: `== []` alone.
    one_outcome = mutation.one_outcome({*covering, *others}) if covering else ""
    if one_outcome:
        dropped += [f"{n}: {one_outcome}" for n in covering]
        covering = []
    return covering, dropped


def mutation_summaries(mutation: MutationOutcome, others: set[str], kept: set[str]) -> TestScores:
    if not mutation.mutants:
        return {"mutation_note": mutation.problem or "the node has nothing to mutate"}
    if mutation.problem:
        return {"mutation_note": mutation.problem}
    return {
        "mutation_before": mutation.summary(others),
        "mutation_after": mutation.summary(others | kept),
    }


def _second_run_words(test: Mapping[str, Any] | None) -> str:
    """Why a test that passed once is dropped: its second run, as on another machine."""
    if test is None:
        return f"it passed once, then did not run under {OTHER_MACHINE_WORDS}"
    message = str(test.get("message") or "").strip()
    outcome = f"{test['outcome']}: {message[:200]}" if message else str(test["outcome"])
    return (
        "its outcome depends on the machine's locale, time zone, system or environment "
        f"(or on chance): it passed here, then under {OTHER_MACHINE_WORDS} {outcome}"
    )


@host_function
async def run_coverage(context: CodeContext, path: str) -> RunCoverage:
    """The node's coverage and mutation score before this run's tests and now: ``{before,
    after, mutation_before, mutation_after, mutation_note, dropped}`` (``dropped``: the
    tests this run wrote and took back, each with why; coverage summaries ``{lines,
    branches, line_rate, branch_rate}``; scores ``{killed, total, score, not_run,
    survived}``), measured again only when the files changed since the last measurement
    (then without the mutants); ``before`` is None when this run never measured it."""
    remembered = remembered_search(context)
    if remembered is not None:
        return {
            "before": remembered["before"],
            "after": remembered["after"],
            "mutation_before": remembered["mutation_before"],
            "mutation_after": remembered["mutation_after"],
            "mutation_note": remembered["mutation_note"],
            "dropped": remembered["dropped"],
        }
    earlier = earlier_run(context)
    span = node_span(context)
    report, measured = await measure_test_file(context, path, span)
    dropped: list[str] = earlier["dropped"] if earlier is not None else []
    if measured is None:
        return {
            "before": None,
            "after": None,
            "mutation_before": None,
            "mutation_after": None,
            "dropped": dropped,
            "mutation_note": "",
        }
    after = Coverage.of(measured)
    for test in report["tests"]:
        if test["outcome"] == "passed":
            after.add(context_units(measured, str(test["name"])))
    before = earlier["before"] if earlier is not None else None
    note = "the test file changed after the mutation check: not measured again"
    return {
        "before": before,
        "after": after.summary(),
        "mutation_before": None,
        "mutation_after": None,
        "dropped": dropped,
        "mutation_note": note,
    }


@host_function
async def add_covering_tests(
    context: CodeContext,
    path: str,
    pieces: list[dict[str, Any]],
    mutation_budget_s: float = DEFAULT_MUTATION_BUDGET_S,
) -> MeasuredTests:
    """Add the test pieces that pass twice, add coverage and kill a mutant of the node:
    ``{kept, dropped, coverage_before, coverage_after, mutation_before, mutation_after,
    missed}`` (``dropped`` says why for each)."""
    return await write_measured(
        context, path, node_span(context), pieces, mutation_budget_s=mutation_budget_s
    )


@host_function
def observed_in(context: CodeContext, path: str, names: list[str]) -> list[str]:
    """Those of ``names`` (test functions of ``path``) whose expected values this run
    observed from the code rather than took from a claim (the review says so)."""
    remembered = earlier_run(context) or {}
    present = set(_tests_of(context, path))
    return [n for n in names if n in present and n in remembered.get("observed", [])]
