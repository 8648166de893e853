"""Which tests stay: the fewest that keep the coverage and the killed mutants."""

from __future__ import annotations

from typing import Any

from remora.code.probes.coverage_probe import Coverage
from remora.code.testgen.kept_tests import choose_kept, mutation_summaries
from remora.code.testgen.mutants import Mutant
from remora.code.testgen.mutation_check import MutationOutcome


def _mutants(count: int) -> list[Mutant]:
    return [
        Mutant(f"m{i}", i + 1, "constant", f"line {i + 1}: change {i}", "") for i in range(count)
    ]


def _units(*lines: int) -> frozenset[Any]:
    return frozenset(("line", n, 0) for n in lines)


def test_a_test_no_mutant_fails_is_dropped_whatever_it_covers() -> None:
    outcome = MutationOutcome(_mutants(2), killed_by={"m0": {"test_a"}, "m1": set()})
    gains = {"test_a": _units(1), "test_runs_only": _units(1, 2)}
    kept, dropped = choose_kept(gains, {}, Coverage([1, 2], []), outcome)
    assert kept == ["test_a"]
    assert dropped == ["test_runs_only: no mutant of the node fails it"]


def test_a_test_that_covers_nothing_new_stays_when_it_kills_a_mutant_the_others_do_not() -> None:
    outcome = MutationOutcome(
        _mutants(3), killed_by={"m0": {"test_a", "test_b"}, "m1": {"test_b"}, "m2": {"test_c"}}
    )
    gains = {"test_a": _units(1, 2), "test_b": _units(1), "test_c": _units(1)}
    kept, dropped = choose_kept(gains, {}, Coverage([1, 2], []), outcome)
    assert sorted(kept) == ["test_a", "test_b", "test_c"]
    assert dropped == []


def test_a_test_whose_kills_and_lines_others_keep_is_dropped() -> None:
    outcome = MutationOutcome(_mutants(2), killed_by={"m0": {"test_a", "test_b"}, "m1": {"test_a"}})
    gains = {"test_a": _units(1, 2), "test_b": _units(1)}
    kept, dropped = choose_kept(gains, {}, Coverage([1, 2], []), outcome)
    assert kept == ["test_a"]
    assert dropped == ["test_b: it adds no line, branch or killed mutant to the others'"]


def test_what_the_file_s_own_tests_kill_and_cover_counts_as_kept_already() -> None:
    outcome = MutationOutcome(_mutants(1), killed_by={"m0": {"test_theirs", "test_new"}})
    before = Coverage([1], [])
    before.add(_units(1))
    theirs = {"test_theirs": _units(1)}
    kept, dropped = choose_kept({"test_new": _units(1)}, theirs, before, outcome)
    assert kept == []
    assert dropped == ["test_new: it adds no line, branch or killed mutant to the others'"]


def test_a_test_that_passes_were_the_node_to_hand_back_its_instance_is_dropped() -> None:
    # m0 hands back the instance unchanged; `assert result == {...}` of a copy passes on it.
    identity = Mutant("m0", 1, "identity", "line 1: the body -> `return self`", "")
    outcome = MutationOutcome(
        [identity, *_mutants(2)[1:]],
        killed_by={"m0": {"test_apart"}, "m1": {"test_equal", "test_apart"}},
    )
    gains = {"test_equal": _units(1, 2), "test_apart": _units(1)}
    kept, dropped = choose_kept(gains, {}, Coverage([1, 2], []), outcome)
    assert kept == ["test_apart"]
    assert dropped == [
        "test_equal: it would pass were the node to hand back its instance or argument unchanged"
    ]
    # Not run (the time box was spent): it tells nothing, the test stays.
    outcome.not_run.add("m0")
    assert sorted(choose_kept(gains, {}, Coverage([1, 2], []), outcome)[0]) == [
        "test_apart",
        "test_equal",
    ]


def test_a_test_of_the_node_s_own_return_of_its_argument_stays_though_identity_passes() -> None:
    # def snake(text): text = text.strip() (1); if not text: (2) return text (3);
    # return ... (4). snake("") == "" passes on m0 (`return text`) as the node's own
    # line 3 does; it still fails m1 (the condition negated) and is the one test of line 3.
    identity = Mutant("m0", 1, "identity", "line 1: the body -> `return text`", "", frozenset({3}))
    negated = Mutant("m1", 2, "negate", "line 2: condition negated", "")
    outcome = MutationOutcome(
        [identity, negated],
        killed_by={"m0": {"test_words"}, "m1": {"test_empty", "test_words"}},
    )
    gains = {"test_empty": _units(1, 2, 3), "test_words": _units(1, 2, 4)}
    kept, dropped = choose_kept(gains, {}, Coverage([1, 2, 3, 4], []), outcome)
    assert sorted(kept) == ["test_empty", "test_words"]
    assert dropped == []
    # Its return computed (line 4 alone): passing the identity mutant pins nothing.
    gains["test_equal"] = _units(1, 2, 4)
    outcome.killed_by["m1"].add("test_equal")
    assert choose_kept(gains, {}, Coverage([1, 2, 3, 4], []), outcome)[1] == [
        "test_equal: it would pass were the node to hand back its instance or argument unchanged"
    ]


def test_a_decorated_node_s_identity_pass_drops_no_test() -> None:
    # validators' `@validator def md5(value): return re.match(...)`: the decorator makes
    # the identity mutant's true string True, so `md5(<32 hex digits>) is True` passes on
    # it, yet the test is the one that fails the pattern's mutant (m1).
    identity = Mutant("m0", 1, "identity", "line 1: the body -> `return value`", "", wrapped=True)
    pattern = Mutant("m1", 1, "constant", "line 1: the pattern changed", "")
    outcome = MutationOutcome(
        [identity, pattern], killed_by={"m0": {"test_refused"}, "m1": {"test_matching"}}
    )
    gains = {"test_matching": _units(1), "test_refused": _units(1)}
    kept, dropped = choose_kept(gains, {}, Coverage([1], []), outcome)
    assert sorted(kept) == ["test_matching", "test_refused"]
    assert dropped == []


def test_without_a_matrix_coverage_alone_decides() -> None:
    outcome = MutationOutcome([], problem="")  # a node with nothing to mutate
    gains = {"test_a": _units(1), "test_b": _units(1)}
    kept, dropped = choose_kept(gains, {}, Coverage([1], []), outcome)
    assert kept == ["test_a"]
    assert dropped == ["test_b: it adds no line or branch"]
    assert mutation_summaries(outcome, set(), {"test_a"}) == {
        "mutation_note": "the node has nothing to mutate"
    }


def test_the_score_before_and_after_counts_the_mutants_run_and_names_the_survivors() -> None:
    outcome = MutationOutcome(
        _mutants(4),
        killed_by={"m0": {"test_theirs"}, "m1": {"test_new"}, "m2": set()},
        not_run={"m3"},
    )
    summaries = mutation_summaries(outcome, {"test_theirs"}, {"test_new"})
    assert summaries["mutation_before"] == {
        "killed": 1,
        "total": 3,
        "score": 0.33,
        "not_run": 1,
        "survived": ["line 2: change 1", "line 3: change 2"],
    }
    assert summaries["mutation_after"]["killed"] == 2
    assert summaries["mutation_after"]["survived"] == ["line 3: change 2"]


def test_a_check_that_could_not_run_says_why_and_gives_no_score() -> None:
    outcome = MutationOutcome(_mutants(1), problem="the mutants could not run: timed out")
    assert mutation_summaries(outcome, set(), set()) == {
        "mutation_note": "the mutants could not run: timed out"
    }


def _predicate_outcome(killed_by: dict[str, set[str]]) -> MutationOutcome:
    # A predicate's two whole-body mutants: m0 `return True`, m1 `return False`.
    always = [
        Mutant(
            f"m{i}", 1, "outcome", f"line 1: the body -> `return {value}`", "", must_fail="outcome"
        )
        for i, value in enumerate((True, False))
    ]
    return MutationOutcome([*always, *_mutants(3)[2:]], killed_by=killed_by)


def test_a_predicate_s_tests_showing_one_outcome_are_all_dropped() -> None:
    # Both tests assert `is False`: each passes on `return False` (m1).
    outcome = _predicate_outcome({"m0": {"test_no", "test_other_no"}, "m1": set(), "m2": set()})
    gains = {"test_no": _units(1), "test_other_no": _units(1)}
    kept, dropped = choose_kept(gains, {}, Coverage([1], []), outcome)
    assert kept == []
    assert dropped[-1] == (
        "test_no: the node returns a boolean and no test shows the other outcome: "
        "all pass with line 1: the body -> `return False`"
    )


def test_a_predicate_keeps_a_test_of_each_outcome_though_they_cover_the_same_line() -> None:
    outcome = _predicate_outcome({"m0": {"test_no"}, "m1": {"test_yes"}, "m2": {"test_no"}})
    gains = {"test_no": _units(1), "test_yes": _units(1)}
    kept, dropped = choose_kept(gains, {}, Coverage([1], []), outcome)
    assert sorted(kept) == ["test_no", "test_yes"]
    assert dropped == []
    # The file's own test of the other outcome counts: the new one shows the rest.
    outcome = _predicate_outcome({"m0": {"test_no"}, "m1": {"test_theirs"}, "m2": set()})
    kept, _ = choose_kept(
        {"test_no": _units(1)}, {"test_theirs": _units(1)}, Coverage([1], []), outcome
    )
    assert kept == ["test_no"]


def test_a_node_s_tests_that_only_see_the_call_do_nothing_are_all_dropped() -> None:
    # m0: the body -> `return []`. Both tests assert `== []` of a glob matching nothing.
    empty = Mutant("m0", 1, "empty", "line 1: the body -> `return []`", "", must_fail="empty")
    outcome = MutationOutcome(
        [empty, *_mutants(2)[1:]], killed_by={"m0": set(), "m1": {"test_none", "test_other"}}
    )
    gains = {"test_none": _units(1, 2), "test_other": _units(1)}
    kept, dropped = choose_kept(gains, {}, Coverage([1, 2], []), outcome)
    assert kept == []
    assert dropped[-1] == (
        "test_none: no test shows the call doing something: "
        "all pass with line 1: the body -> `return []`"
    )
    # One test of a call that found something: both stay, each pins a mutant.
    outcome.killed_by["m0"] = {"test_found"}
    gains["test_found"] = _units(1, 2)
    outcome.killed_by["m1"] = {"test_none"}
    kept, dropped = choose_kept(gains, {}, Coverage([1, 2], []), outcome)
    assert sorted(kept) == ["test_found", "test_none"]
