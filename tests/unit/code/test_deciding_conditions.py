"""A test is named for the condition its call was chosen for only where that condition
decided what the test sees (validators' ``visa`` of sixteen a's: the digits check failed
before the length was looked at)."""

from __future__ import annotations

from typing import Any

from remora.code.testgen.deciding_conditions import PLAIN_REASON, deciding_reason
from remora.code.values import Candidate


def _error() -> dict[str, Any]:
    return {
        "returned": {"repr": "ValidationError(...)", "literal": False, "type": "ValidationError"}
    }


def test_a_condition_that_changed_no_line_or_outcome_is_not_named() -> None:
    reasons = {"c1": Candidate({}, "value_of_length_16"), "c2": Candidate({}, "typical_arguments")}
    rows = {"c1": _error(), "c2": _error()}
    same = frozenset({("line", 3, 0)})
    assert deciding_reason("c1", reasons, rows, {"c1": same, "c2": same}) == PLAIN_REASON


def test_a_condition_that_took_other_lines_or_ended_otherwise_is_named() -> None:
    reasons = {"c1": Candidate({}, "value_of_length_16"), "c2": Candidate({}, "typical_arguments")}
    rows = {"c1": _error(), "c2": _error()}
    units = {"c1": frozenset({("line", 3, 0), ("line", 5, 0)}), "c2": frozenset({("line", 3, 0)})}
    assert deciding_reason("c1", reasons, rows, units) == "value_of_length_16"
    # The same lines, but True against False: the condition decided the result.
    true = {"returned": {"repr": "True", "literal": True, "type": "bool"}}
    false = {"returned": {"repr": "False", "literal": True, "type": "bool"}}
    same = frozenset({("line", 3, 0)})
    assert (
        deciding_reason("c1", reasons, {"c1": true, "c2": false}, {"c1": same, "c2": same})
        == "value_of_length_16"
    )
