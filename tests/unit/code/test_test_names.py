"""A test is named for the one behaviour it checks."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.testgen.test_names import (
    assigned_attributes,
    behaviour_name,
    case_words,
    node_words,
)

MODULE = """class Query:
    def limit(self, n):
        self.limit_value = n
        self.log.append(n)
        return self

    def where(self, column):
        return self


class Other:
    def where(self, column):
        return 1
"""


def _target(qualname: str) -> dict[str, Any]:
    owner, _, name = qualname.rpartition(".")
    return {"qualname": qualname, "name": name, "kind": "method" if owner else "function"}


def _seen(repr_: str, literal: bool = True) -> dict[str, Any]:
    return {"repr": repr_, "literal": literal, "type": "Query"}


def test_a_method_is_named_alone_unless_another_class_has_its_name() -> None:
    assert node_words(_target("Query.limit"), MODULE) == "limit"
    assert node_words(_target("Query.where"), MODULE) == "query_where"
    assert node_words(_target("parse_date"), MODULE) == "parse_date"


def test_the_attributes_a_method_assigns_are_told_from_those_it_changes_in_place() -> None:
    query = ast.parse(MODULE).body[0]
    assert isinstance(query, ast.ClassDef)
    limit = query.body[0]
    assert isinstance(limit, ast.FunctionDef)
    assert assigned_attributes(limit) == {"limit_value"}


def test_the_name_says_the_condition_and_the_outcome() -> None:
    used: set[str] = set()
    builder = {"returned": _seen("<Query>", False), "state": {"limit_value": _seen("10")}}
    assert behaviour_name("limit", builder, "typical", used, {"limit_value"}) == (
        "test_limit_sets_limit_value"
    )
    raised = {"raised": {"type": "ValueError"}}
    assert behaviour_name("where", raised, "column_is_empty", used, set()) == (
        "test_where_when_column_is_empty_raises_value_error"
    )
    changed = {"returned": _seen("None"), "state": {"log": _seen("[1]")}}
    assert behaviour_name("limit", changed, "typical", used, {"limit_value"}) == (
        "test_limit_changes_log"
    )


def test_a_returned_value_is_named_by_its_words_or_its_kind() -> None:
    used: set[str] = set()
    assert behaviour_name("ordinal", {"returned": _seen("'11th'")}, "n_is_11", used, set()) == (
        "test_ordinal_when_n_is_11_returns_11th"
    )
    sentence = {"returned": _seen("'SKU   Product\\n---'")}
    assert behaviour_name("table", sentence, "typical", used, set()) == "test_table_returns_text"
    # Where a condition says what the test is about, no vacuous "returns_text" after it.
    assert behaviour_name("table", sentence, "rows_has_tilde", used, set()) == (
        "test_table_when_rows_has_tilde"
    )
    assert behaviour_name("ok", {"returned": _seen("True")}, "doc", used, set()) == (
        "test_ok_returns_true"
    )
    found = {"returned": {"repr": "<StockItem>", "literal": False, "type": "StockItem"}}
    assert behaviour_name("get", found, "typical", used, set()) == "test_get_returns_stock_item"


def test_a_taken_name_is_told_apart_by_the_call_s_arguments_never_by_a_number() -> None:
    used: set[str] = set()
    named: dict[str, dict[str, Any]] = {}
    one = {"returned": _seen("True"), "args": {"items": ["a"], "strict": True}}
    assert behaviour_name("ok", one, "typical", used, set(), named=named) == (
        "test_ok_returns_true"
    )
    # What differs from the test that took the name says which this one is.
    two = {**one, "args": {"items": ["a", "b"], "strict": True}}
    assert behaviour_name("ok", two, "typical", used, set(), named=named) == (
        "test_ok_when_items_has_2_items_returns_true"
    )
    loose = {**one, "args": {"items": ["a"], "strict": False}}
    assert behaviour_name("ok", loose, "typical", used, set(), named=named) == (
        "test_ok_when_strict_is_false_returns_true"
    )
    # Nothing a name can say tells it apart: no test rather than "test_ok_returns_true_2".
    again = {**one, "args": {"items": ["c"], "strict": True}}
    assert behaviour_name("ok", again, "typical", used, set(), named=named) is None
    assert not any(name[-1].isdigit() for name in used)


def test_a_long_condition_keeps_whole_clauses_and_never_ends_on_a_cut_word() -> None:
    long_why = "self_status_is_placed_and_lines_has_one_item_and_more_words_here"
    name = behaviour_name("cancel", {"raised": {"type": "KeyError"}}, long_why, set(), set())
    assert name == "test_cancel_when_self_status_is_placed_raises_key_error"
    # One clause too long for 72 characters is kept whole (a def line still fits in 100),
    # not cut to "when_self_shelf_has".
    row = {"returned": _seen("[('oak', 1)]")}
    name = behaviour_name("read_through_shelf_names", row, "self_shelf_has_key_oak", set(), set())
    assert name == "test_read_through_shelf_names_when_self_shelf_has_key_oak_returns_one_item"
    assert len(name) > 72
    # Longer still: no condition rather than a cut one.
    far = "self_shelf_has_key_oak_beside_its_pending_one_of_the_same_key"
    name = behaviour_name("read_through_shelf_names", row, far, set(), set())
    assert name == "test_read_through_shelf_names_returns_one_item"


def test_a_call_that_left_the_state_as_it_found_it_changes_nothing_by_its_name() -> None:
    empty = {"labels": _seen("[]"), "slots": _seen("{}")}
    row = {"returned": _seen("None"), "state": empty, "state_before": empty, "args": {"key": "k"}}
    # Before the probe saw the state before the call: "changes_labels_and_slots".
    assert behaviour_name("take", row, "typical", set(), set()) == (
        "test_take_when_self_is_empty_leaves_labels_and_slots_unchanged"
    )
    held = {"labels": _seen("['k']"), "slots": _seen("{'k': 0}")}
    absent = {**row, "state": held, "state_before": held}
    # On an instance holding something, "take leaves labels unchanged" would say it never
    # changes them: no name, no test.
    assert behaviour_name("take", absent, "typical", set(), set()) is None
    assert behaviour_name("take", absent, "self_lacks_key", set(), set()) == (
        "test_take_when_self_lacks_key_leaves_labels_and_slots_unchanged"
    )
    removed = {**absent, "state": empty}
    assert behaviour_name("take", removed, "self_holds_key", set(), set()) == (
        "test_take_when_self_holds_key_changes_labels_and_slots"
    )


def test_an_attribute_still_holding_what_the_instance_was_built_with_is_no_change() -> None:
    row = {
        "returned": _seen("False"),
        "state": {"items": _seen("['a']")},
        "owner_args": {"items": ["a"]},
    }
    assert behaviour_name("add", row, "items_holds_item", set(), set()) == (
        "test_add_when_items_holds_item_returns_false"
    )
    grown = {**row, "state": {"items": _seen("['a', 'b']")}}
    assert behaviour_name("add", grown, "typical", set(), set()) == "test_add_changes_items"


def test_a_model_s_case_is_named_for_what_it_claims() -> None:
    assert case_words({"args": "n=-1", "raises": "ValueError"}) == "raises_value_error"
    assert case_words({"args": "n=11", "expected": "'11th'"}) == "returns_11th"
    assert case_words({"args": "n=1", "expected": "True"}) == "returns_true"
    assert case_words({"args": "", "expected": "Order(customer='a')"}) == ("returns_expected_value")


@pytest.mark.parametrize(
    ("returned", "words"),
    [("''", "string"), ("()", "tuple"), ("[]", "list"), ("{}", "dict"), ("b''", "bytes")],
)
def test_an_empty_result_is_named_empty(returned: str, words: str) -> None:
    row = {"returned": {"repr": returned, "literal": True}, "args": {"code": "zz"}}
    name = behaviour_name("decode", row, "typical", set(), set())
    assert name == f"test_decode_returns_empty_{words}"
