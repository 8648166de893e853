"""The pure parts of lint's two measures: what the compared calls never ran, and which of
ruff's findings after a fix are new."""

from __future__ import annotations

from typing import Any

from remora.code.lint.caused_findings import apply_edits, new_records
from remora.code.lint.same_behaviour import raised_lines, unmeasured
from remora.code.probes import Span

MEASURED: dict[str, Any] = {
    "statements": [10, 11, 12, 13],
    "branches": [[11, 12], [11, 13], [13, -9]],
    "contexts": {
        "call_0": {"lines": [10, 11, 12], "arcs": [[11, 12]]},
        "call_1": {"lines": [10, 11, 13], "arcs": [[11, 13], [13, -9]]},
    },
}


def test_the_compared_calls_together_ran_everything() -> None:
    assert unmeasured(MEASURED, ["call_0", "call_1"]) == []


def test_a_call_that_was_not_compared_does_not_count() -> None:
    # call_1 ran the other side of line 11, but its answer was not compared.
    assert unmeasured(MEASURED, ["call_0"]) == ["line 13", "line 11 -> line 13"]


def test_a_side_to_the_exit_is_named_so() -> None:
    measured = {**MEASURED, "contexts": {"call_1": MEASURED["contexts"]["call_1"]}}
    measured["contexts"]["call_1"] = {"lines": [10, 11, 13], "arcs": [[11, 13]]}
    assert unmeasured(measured, ["call_1"]) == ["line 12", "line 11 -> line 12", "line 13 -> exit"]


def test_no_measure_is_no_proof() -> None:
    assert unmeasured(None, ["call_0"]) == ["the coverage of the calls could not be measured"]


def test_a_statement_a_call_raised_from_is_not_run_by_it() -> None:
    # Both calls raised from line 12 (a call in its format's argument): coverage.py counts the
    # line they started, not the format they never reached.
    assert unmeasured(MEASURED, ["call_0"], {"call_0": {12}}) == [
        "line 12",
        "line 13",
        "line 11 -> line 13",
    ]
    # A call that raised later still ran what came before it.
    assert unmeasured(MEASURED, ["call_0", "call_1"], {"call_0": {12}}) == ["line 12"]


def test_a_line_inside_a_multi_line_statement_names_the_statement() -> None:
    # The traceback names line 14 of the statement that starts at line 13.
    assert "line 13" in unmeasured(MEASURED, ["call_0", "call_1"], {"call_1": {14}})


def test_the_raised_lines_are_the_spans_own() -> None:
    row = {
        "raised": {
            "through": [["/tmp/x/pkg/m.py", 12], ["/tmp/x/pkg/m.py", 40], ["/usr/inspect.py", 12]]
        }
    }
    assert raised_lines(row, Span("pkg/m.py", 9, 10, 13)) == {12}
    assert raised_lines({"returned": {}}, Span("pkg/m.py", 9, 10, 13)) == set()


def _record(code: str, message: str, row: int) -> dict[str, Any]:
    return {"code": code, "message": message, "location": {"row": row, "column": 1}}


def test_new_records_are_those_whose_message_was_not_there_before() -> None:
    before = [_record("F401", "`os` imported but unused", 1)]
    after = [
        _record("F401", "`os` imported but unused", 1),
        _record("F401", "`typing.List` imported but unused", 2),
    ]
    assert new_records(before, after) == [after[1]]


def test_a_finding_that_only_moved_is_not_new() -> None:
    before = [_record("E711", "Comparison to `None`", 5)]
    assert new_records(before, [_record("E711", "Comparison to `None`", 4)]) == []


def test_edits_are_applied_from_the_end() -> None:
    assert apply_edits(b"abcdef", [(0, 1, b"X"), (4, 6, b"")]) == b"Xbcd"
