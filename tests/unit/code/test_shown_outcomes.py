"""The outcomes a node's tests must show, and the call of the one its chosen calls lack first."""

from __future__ import annotations

from typing import Any

from ast_support import first_function

from remora.code.testgen.shown_outcomes import other_outcome_first, outcome_results


def _row(value: str | None = None, raised: bool = False, kind: str = "bool") -> dict[str, Any]:
    returned = {"repr": value, "literal": True, "type": kind, "type_module": "builtins"}
    row: dict[str, Any] = {"returned": returned if value else None}
    return row | ({"raised": {"type": "ValueError"}} if raised else {})


def test_a_predicate_must_show_both_booleans_another_node_something_not_empty() -> None:
    assert outcome_results(first_function("def f(x):\n    return x > 1\n")) == (
        "outcome",
        ["True", "False"],
    )
    values = first_function("def f(x):\n    return [y for y in x]\n")
    assert outcome_results(values) == ("empty", ["[]"])
    # What its tests saw returned comes first.
    assert outcome_results(values, ["int"]) == ("empty", ["0", "[]"])


def test_a_node_whose_tests_saw_only_booleans_must_show_both() -> None:
    # rfc3986's scheme_is_valid hands back is_valid(...): True for None, a match otherwise.
    handed_on = first_function("def f(x):\n    return check(x)\n")
    assert outcome_results(handed_on, ["bool", "bool"]) == ("outcome", ["True", "False"])
    assert outcome_results(handed_on, ["bool", "NoneType"])[0] == "empty"
    assert outcome_results(handed_on)[0] == "empty"
    # The search sends the other boolean first where the chosen calls saw only one.
    rows = {"h0": _row("True"), "h1": _row("['a']", kind="list"), "h2": _row("False")}
    assert other_outcome_first(handed_on, ["h1", "h2"], rows, ["h0"]) == ["h2", "h1"]


def test_the_first_call_of_each_outcome_the_chosen_lack_goes_first() -> None:
    rows = {
        "h0": _row("False"),
        "h1": _row("False"),
        "h2": _row(raised=True),
        "h3": _row("True"),
        "h4": _row("True"),
    }
    predicate = first_function("def f(x):\n    return x > 1\n")
    assert other_outcome_first(predicate, ["h1", "h2", "h3", "h4"], rows, ["h0"]) == [
        "h3",
        "h1",
        "h2",
        "h4",
    ]
    # Both shown already, or a node whose results have no empty value: the order stays.
    assert other_outcome_first(predicate, ["h1", "h2", "h4"], rows, ["h0", "h3"]) == [
        "h1",
        "h2",
        "h4",
    ]
    other = first_function("def f(x):\n    return x\n")
    lists = {name: _row(f"[{n}]", kind="list") for n, name in enumerate(["h0", "h1", "h3"])}
    assert other_outcome_first(other, ["h1", "h3"], lists, ["h0"]) == ["h1", "h3"]


def test_a_call_whose_result_is_not_empty_goes_first_where_the_chosen_only_saw_nothing() -> None:
    rows = {
        "h0": _row("[]", kind="list"),
        "h1": _row("None", kind="NoneType"),
        "h2": _row(raised=True),
        "h3": _row("['a']", kind="list"),
        "h4": _row("['b']", kind="list"),
    }
    values = first_function("def values(obj, glob):\n    return [v for v in obj if v == glob]\n")
    assert other_outcome_first(values, ["h1", "h2", "h3", "h4"], rows, ["h0"]) == [
        "h3",
        "h1",
        "h2",
        "h4",
    ]
    # One chosen call did something already: the order stays.
    assert other_outcome_first(values, ["h0", "h1", "h4"], rows, ["h3"]) == ["h0", "h1", "h4"]
    # A call that changed the state did something, though it returned nothing.
    rows["h5"] = {**_row("None", kind="NoneType"), "state": {"n": 1}, "state_before": {"n": 0}}
    assert other_outcome_first(values, ["h1", "h5"], rows, ["h0"]) == ["h5", "h1"]
