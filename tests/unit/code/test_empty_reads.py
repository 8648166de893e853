"""A read of an instance built with nothing that gives an empty value pins no behaviour."""

from __future__ import annotations

from typing import Any

import pytest

from remora.code.testgen.empty_reads import changes_nothing_of_empty_start, reads_empty_start


def _row(repr_: str, literal: bool = True, **more: Any) -> dict[str, Any]:
    return {"name": "h0", "args": {}, "returned": {"repr": repr_, "literal": literal}, **more}


@pytest.mark.parametrize(
    ("row", "owner_args", "empty"),
    [
        (_row("0"), {"capacity": None}, True),  # an empty cache's length
        (_row("[]"), None, True),  # built with no argument at all
        (_row("''"), {"items": [], "index": {}}, True),
        (
            {"args": {}, "returned": {"repr": "set()", "literal": False, "length": 0}},
            {"seed": {"__set__": []}},
            True,
        ),
        (_row("0"), {"capacity": 3}, False),  # a bounded instance: the argument is state
        (_row("[]"), {"items": ["a"]}, False),  # built with items, still empty: behaviour
        (_row("None"), {}, False),  # None before any write is a choice the code makes
        (_row("False"), {}, False),  # and so is a boolean
        (_row("3"), {}, False),  # not empty
        (_row("0", args={"key": "alpha"}), {}, False),  # the call's own argument
        (_row("0", raised={"type": "KeyError"}), {}, False),
        (_row("0", contents={"removed": ["a"]}), {}, False),  # it changed its items
        (_row("0", state={"size": 0}, state_before={"size": 1}), {}, False),  # it changed
        (_row("0", state={"size": 0}, state_before={"size": 0}), {}, True),
        (_row("{'__expression__': 1}"), {"__expression__": {"call": "where"}}, False),
    ],
)
def test_an_empty_read_of_an_instance_built_with_nothing(
    row: dict[str, Any], owner_args: dict[str, Any] | None, empty: bool
) -> None:
    assert reads_empty_start(row, owner_args) is empty


@pytest.mark.parametrize(
    ("row", "owner_args", "unchanged"),
    [
        # Decoder().reset(): the buffer the constructor's own reset() left, unchanged
        (_row("None", state={"buffer": []}, state_before={"buffer": []}), None, True),
        # a fresh table's reset() handing back itself
        (
            {"args": {}, "returned": {"is_instance": True}, "state": {}, "state_before": {}},
            {"max_width": None},
            True,
        ),
        (_row("None", state={"n": 1}, state_before={"n": 0}), None, False),  # it changed
        (_row("None", args={"n": 1}, state={}, state_before={}), None, False),  # given one
        (_row("None", state={}, state_before={}), {"rows": [["a"]]}, False),  # built with rows
        (_row("None", raised={"type": "ValueError"}, state={}, state_before={}), None, False),
        (_row("None", contents={"added": ["a"]}, state={}, state_before={}), None, False),
        (_row("3", state={}, state_before={}), None, False),  # it gave something back
        (_row("None"), None, False),  # nothing of the instance was read: nothing known
    ],
)
def test_a_procedure_that_changes_nothing_of_an_instance_built_with_nothing(
    row: dict[str, Any], owner_args: dict[str, Any] | None, unchanged: bool
) -> None:
    assert changes_nothing_of_empty_start(row, owner_args) is unchanged
