"""Which tests would notice the node being wrong: its mutants run against them, in the sandbox.

:func:`remora.code.testgen.mutants.node_mutants` changes the node's own source one
place at a time; :mod:`remora.code.probes.programs.mutation_run` runs each test whose
coverage reached the changed line on each mutant, in one sandboxed pytest
process, time-boxed (the test operation's ``mutation_budget_s``). What comes
back is, per mutant, the tests it failed: the kill matrix from which the test
search keeps only tests that kill a mutant, and the mutation score
(killed/total) of the file's tests before this run and after it. A mutant no
test reaches survives; one left when the time box was spent is counted apart
(``not_run``), neither killed nor survived.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict

from remora.code.context import CodeContext
from remora.code.import_paths import module_name
from remora.code.probes import Span, pytest_args, run_program
from remora.code.testgen.mutants import MAX_MUTANTS, Mutant, node_mutants
from remora.code.testgen.shown_outcomes import unshown_reason
from remora.code.values import node_function

__all__ = ["MutationOutcome", "MutationScore", "mutation_outcome", "score"]


class MutationScore(TypedDict):
    """Mutants the tests fail (:meth:`MutationOutcome.summary`): ``score`` killed/total
    (1.0 with none), ``not_run`` those the time box left, ``survived`` up to five in words."""

    killed: int
    total: int
    score: float
    not_run: int
    survived: list[str]


_UNCHANGED = "it would pass were the node to hand back its instance or argument unchanged"
# The program's own start (Python, pytest, the project's import), beyond the time box.
_START_S = 15.0
# A test's first run, on the code as it is, before its time on the mutants is known.
_FIRST_LIMIT_S = 10.0


@dataclass
class MutationOutcome:
    """The mutants and, per mutant id, the tests it failed (empty: it survived)."""

    mutants: list[Mutant]
    killed_by: dict[str, set[str]] = field(default_factory=dict)
    not_run: set[str] = field(default_factory=set)
    problem: str = ""

    @property
    def measured(self) -> bool:
        """Whether there is a matrix to decide by: mutants, run without a problem."""
        return bool(self.mutants) and not self.problem

    def kills(self, test: str) -> frozenset[tuple[str, str, int]]:
        """The mutants ``test`` kills, as units a set cover can count beside coverage's."""
        return frozenset(
            ("mutant", mutant_id, 0) for mutant_id, tests in self.killed_by.items() if test in tests
        )

    def pinning_nothing(self, lines_by_test: dict[str, set[int]]) -> dict[str, str]:
        """Of ``lines_by_test`` (each test with the node's lines it ran), those that pin
        nothing of the node, each with why: no mutant fails it, or the identity mutant
        (the node handing back its instance or argument unchanged) ran with it and it
        passed, as a copy's ``assert result == {...}`` alone does, unless the test ran a
        return of the node's own that gives that argument back (``Mutant.given_back``:
        ``if not text: return text``), a path the identity mutant cannot tell apart, or a
        decorator stands between the body and the caller (``Mutant.wrapped``: a
        validator's decorator makes any true value True), so that the identity's pass
        says nothing of what the test pins."""
        why = {t: "no mutant of the node fails it" for t in lines_by_test if not self.kills(t)}
        for mutant in self.mutants:
            if mutant.kind != "identity" or mutant.id in self.not_run or mutant.wrapped:
                continue
            for test, lines in lines_by_test.items():
                if lines & mutant.given_back or test in self.killed_by.get(mutant.id, set()):
                    continue
                if mutant.line in lines:
                    why.setdefault(test, _UNCHANGED)
        return why

    def one_outcome(self, tests: set[str]) -> str:
        """Why ``tests`` together show one outcome only: a mutant a kept set must fail
        (``return True``/``return False`` of a predicate, ``return []`` or ``return acc``
        of a node whose call may do nothing: ``Mutant.must_fail``) that ran and that none
        of them fails, in words; '' when there is none."""
        for mutant in self.mutants:
            if not mutant.must_fail or mutant.id in self.not_run:
                continue
            if not self.killed_by.get(mutant.id, set()) & tests:
                return unshown_reason(mutant.must_fail, mutant.description)
        return ""

    def summary(self, tests: set[str]) -> MutationScore:
        """``{killed, total, score, not_run, survived}`` for the tests ``tests`` together;
        ``survived`` names (in words) up to five mutants none of them fails."""
        counted = [m for m in self.mutants if m.id not in self.not_run]
        killed = [m for m in counted if self.killed_by.get(m.id, set()) & tests]
        survived = [m.description for m in counted if m not in killed]
        return {
            "killed": len(killed),
            "total": len(counted),
            "score": score(len(killed), len(counted)),
            "not_run": len(self.not_run),
            "survived": survived[:5],
        }


def score(killed: int, total: int) -> float:
    return round(killed / total, 2) if total else 1.0


async def mutation_outcome(
    context: CodeContext,
    path: str,
    span: Span,
    lines_by_test: dict[str, set[int]],
    budget_s: float,
    observed: Iterable[str] = (),
) -> MutationOutcome:
    """Run ``path``'s tests named in ``lines_by_test`` (each with the lines of the node
    it ran) against the node's mutants; a mutant is run only with the tests that ran
    its line. ``budget_s`` 0 runs nothing (``problem`` says so). ``observed``: the
    builtin type names of the values the tests saw the node return (its empty values)."""
    function = node_function(context)
    if function is None:
        return MutationOutcome([], problem="the node's definition was not found")
    mutants = node_mutants(context.node_file_text(), function, MAX_MUTANTS, observed)
    outcome = MutationOutcome(mutants)
    if budget_s <= 0:
        outcome.problem = "the mutation check is off (mutation_budget_s: 0)"
        return outcome
    plan = [
        {
            "id": m.id,
            "source": m.source,
            "tests": sorted(t for t, lines in lines_by_test.items() if m.line in lines),
        }
        for m in mutants
    ]
    reached = sorted({t for row in plan for t in row["tests"]})
    if not reached:  # no test runs a mutated line: every mutant survives, nothing to run
        return outcome
    request = {
        "args": [*pytest_args(context, path)[:-1], *(f"{path}::{t}" for t in reached)],
        "autoload_plugins": False,  # the plugins pytest_args names, as the file's other runs
        "module": module_name(context, context.bound_node().file_path),
        "qualname": context.bound_node().full_name,
        "mutants": [row for row in plan if row["tests"]],
        "budget_s": budget_s,
        "first_limit_s": _FIRST_LIMIT_S,
    }
    run = await run_program(context, "mutation_run", request, timeout_s=budget_s + _START_S)
    report = run.report
    if report is None or report.get("error"):
        outcome.problem = (report or {}).get("error") or f"the mutants could not run: {run.problem}"
        return outcome
    for mutant in mutants:
        entry = report["mutants"].get(mutant.id, {"ran": True, "killed_by": []})
        if not entry["ran"]:
            outcome.not_run.add(mutant.id)
        outcome.killed_by[mutant.id] = set(entry["killed_by"])
    return outcome
