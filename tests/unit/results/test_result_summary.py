"""The coverage and mutation lines of a test agent's result, as the review shows them."""

from __future__ import annotations

from remora.results.summary import coverage_line, mutation_line


def test_the_mutation_line_gives_killed_of_total_before_and_after() -> None:
    details = {
        "mutation_before": {"killed": 0, "total": 7, "score": 0.0},
        "mutation_after": {"killed": 5, "total": 7, "score": 0.71},
    }
    assert mutation_line(details) == "mutants killed 0/7 -> 5/7"
    assert mutation_line({"mutation_after": {"killed": 2, "total": 3}}) == "mutants killed 2/3"


def test_a_result_without_a_mutation_check_has_no_line() -> None:
    assert mutation_line({}) == ""
    assert mutation_line({"mutation_after": None, "mutation_note": "off"}) == ""
    assert mutation_line({"mutation_after": {"killed": "2"}}) == ""
    assert coverage_line({}) == ""
