"""A test is named for the one behaviour it checks."""

from __future__ import annotations

import ast
from typing import Any

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


def test_names_stay_unique_and_a_long_condition_is_cut_at_a_word() -> None:
    used = {"test_ok_returns_true"}
    assert behaviour_name("ok", {"returned": _seen("True")}, "typical", used, set()) == (
        "test_ok_returns_true_2"
    )
    long_why = "self_status_is_placed_and_lines_has_one_item_and_more_words_here"
    name = behaviour_name("cancel", {"raised": {"type": "KeyError"}}, long_why, used, set())
    assert name.startswith("test_cancel_when_self_status_is_placed_and_lines")
    assert name.endswith("_raises_key_error")
    assert len(name) <= 72
    condition = name.removeprefix("test_cancel_").removesuffix("_raises_key_error")
    assert long_why.startswith(condition.removeprefix("when_") + "_")


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
