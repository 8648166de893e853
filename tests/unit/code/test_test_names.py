"""A test is named for the one behaviour it checks."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from ast_support import first_function

from remora.code.testgen.outcome_words import assigned_attributes, case_words
from remora.code.testgen.test_names import behaviour_name, node_words

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
    # a private attribute's words: one underscore, not pyfiglet's ``when__direction_...``
    assert behaviour_name("direction", raised, "_direction_is_not_auto", used, set()) == (
        "test_direction_when_direction_is_not_auto_raises_value_error"
    )


def test_a_returned_value_is_never_spelled_out_nor_named_by_its_kind_alone() -> None:
    used: set[str] = set()
    # "returns_11th", "returns_nvb", "returns_15": the pinned value says no behaviour;
    # "'returns_string' describes a type the test never checks": the condition alone.
    assert behaviour_name("ordinal", {"returned": _seen("'11th'")}, "n_is_11", used, set()) == (
        "test_ordinal_when_n_is_11"
    )
    sentence = {"returned": _seen("'SKU   Product\\n---'")}
    assert behaviour_name("table", sentence, "typical", used, set()) == "test_table"
    assert behaviour_name("table", sentence, "rows_has_tilde", used, set()) == (
        "test_table_when_rows_has_tilde"
    )
    assert behaviour_name("ok", {"returned": _seen("True")}, "doc", used, set()) == (
        "test_ok_returns_true"
    )
    # The text "None" is no None: "returns_none" on `== "None"` says the opposite.
    assert behaviour_name("show", {"returned": _seen("'None'")}, "doc", used, set()) == (
        "test_show"
    )
    assert behaviour_name("find", {"returned": _seen("None")}, "doc", used, set()) == (
        "test_find_returns_none"
    )
    # A dict subclass's literal is not named "returns_one_item".
    copied = {"returned": {"repr": "{'a': 1}", "literal": True, "type": "Dict"}}
    assert behaviour_name("copy", copied, "typical", used, set()) == "test_copy"
    assert behaviour_name("size", {"returned": _seen("15")}, "typical", used, set()) == (
        "test_size"
    )
    found = {"returned": {"repr": "<StockItem>", "literal": False, "type": "StockItem"}}
    assert behaviour_name("get", found, "typical", used, set()) == "test_get"


def test_a_result_equal_to_one_argument_is_named_for_that_argument() -> None:
    row = {"returned": _seen("'fallback'"), "args": {"key": "k", "default": "fallback"}}
    assert behaviour_name("setdefault", row, "typical", set(), set()) == (
        "test_setdefault_returns_default"
    )
    # Two arguments equal to it, or a number that may equal one by chance: its kind.
    both = {"returned": _seen("'a'"), "args": {"key": "a", "default": "a"}}
    assert behaviour_name("pick", both, "typical", set(), set()) == (
        "test_pick_when_key_is_letter_a_and_default_is_letter_a"
    )
    number = {"returned": _seen("2"), "args": {"n": 2}}
    assert behaviour_name("half", number, "typical", set(), set()) == "test_half_when_n_is_2"
    # A conversion equal to its input is named for the type its test asserts, not the input.
    returned = {"repr": "{'a': 1}", "literal": True, "type": "FrozenMap"}
    frozen = {"returned": {**returned, "twin": {"of": "argument", "type_differs": True}}}
    frozen["args"] = {"obj": {"a": 1}}
    assert behaviour_name("freeze", frozen, "typical", set(), set()) == (
        "test_freeze_returns_frozen_map"
    )


def test_a_text_result_that_is_a_part_of_a_text_argument_is_named_by_its_words() -> None:
    # nameparser's HumanName("Dr. Juan Q. Xavier de la Vega III").last: "returns_string"
    # named a type the test never checked; the part of the name it takes says what is pinned.
    full = {"full_name": "Dr. Juan Q. Xavier de la Vega III"}
    row = {"returned": _seen("'de la Vega'"), "args": {}, "owner_args": full}
    assert behaviour_name("last", row, "typical", set(), set(), owner_args=full) == (
        "test_last_returns_de_la_vega"
    )
    # Not a part of the input (a code the call made up, a suffix it chose): its kind.
    made = {"returned": _seen("'nvb'"), "args": {"number": 5}}
    assert behaviour_name("encode", made, "typical", set(), set()) == (
        "test_encode_when_number_is_5"
    )
    long = {"returned": _seen("'a b c d e'"), "args": {"text": "a b c d e f"}}
    assert behaviour_name("head", long, "typical", set(), set()) == "test_head"


def test_a_text_result_that_transforms_the_text_given_is_named_by_the_transform() -> None:
    # "rename test_reverse_returns_string to say that it reverses the characters"
    row = {"returned": _seen("'gnirts tupni'"), "args": {"input_string": "input string"}}
    assert behaviour_name("reverse", row, "typical", set(), set()) == (
        "test_reverse_reverses_input_string"
    )
    slug = {"returned": _seen("'input-string'"), "args": {"text": "input string"}}
    assert behaviour_name("slugify", slug, "typical", set(), set()) == (
        "test_slugify_joins_words_with_hyphens"
    )
    # The instance's one text, for a method that reads it; a parameter's words (``s``).
    owner = {"input_string": "input string"}
    row = {"returned": _seen("'Input string'"), "args": {}, "owner_args": owner}
    assert behaviour_name("format", row, "typical", set(), set(), owner_args=owner) == (
        "test_format_capitalizes_input_string"
    )
    upper = {"returned": _seen("'AB'"), "args": {"s": "ab"}}
    assert behaviour_name("shout", upper, "typical", set(), set()) == "test_shout_uppercases_s"
    # Of the one text it transforms, beside another (slugify's separator, passed).
    slug["args"] = {"text": "input string", "separator": "-"}
    assert behaviour_name("slugify", slug, "typical", set(), set()) == (
        "test_slugify_joins_words_with_hyphens"
    )
    # No transform of these: of two texts, a text unchanged, a number that may be a count.
    two = {"returned": _seen("'AB'"), "args": {"a": "ab", "b": "BA"}}
    assert behaviour_name("pick", two, "typical", set(), set()) == (
        "test_pick_when_a_is_ab_and_b_is_ba"
    )
    same = {"returned": _seen("'aba'"), "args": {"text": "aba"}}
    assert behaviour_name("flip", same, "typical", set(), set()) == "test_flip_returns_text"
    counted = {"returned": _seen("2"), "args": {"text": "two words"}}
    assert behaviour_name("count", counted, "typical", set(), set()) == "test_count"


def test_a_placeholder_argument_tells_no_name_apart() -> None:
    used: set[str] = set()
    named: dict[str, dict[str, Any]] = {}
    first = {"returned": _seen("()"), "args": {"hashid": "sample hashid"}}
    assert behaviour_name("decode", first, "typical", used, set(), named=named) == (
        "test_decode_returns_empty_tuple"
    )
    # Not "test_decode_when_hashid_is_other_space_hashid_returns_empty_tuple".
    other = {**first, "args": {"hashid": "other hashid"}}
    assert behaviour_name("decode", other, "varied_arguments", used, set(), named=named) is None
    word = {**first, "args": {"hashid": "xoz"}}
    assert behaviour_name("decode", word, "as_called", used, set(), named=named) == (
        "test_decode_when_hashid_is_xoz_returns_empty_tuple"
    )


def test_a_star_parameter_is_worded_by_how_many_arguments_it_was_given() -> None:
    function = ast.parse("def update(self, *args, **kwargs):\n    return None\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    raised = {"raised": {"type": "TypeError"}, "args": {"args": ["a", "zz"]}}
    # Not "when_args_has_two_items": the items are placeholders, their count is the point.
    assert behaviour_name(
        "update", raised, "args_has_two_items", set(), set(), function=function
    ) == ("test_update_when_given_2_positional_arguments_raises_type_error")
    used: set[str] = set()
    one = {"returned": _seen("'x'"), "args": {"args": [1]}}
    assert behaviour_name("update", one, "as_called", used, set(), function=function) == (
        "test_update"
    )
    three = {**one, "args": {"args": [1, 2, 3]}}
    assert behaviour_name("update", three, "as_called", used, set(), function=function) == (
        "test_update_when_given_3_positional_arguments"
    )


def test_star_iterables_of_different_lengths_name_that_not_their_count() -> None:
    function = ast.parse("def interleave(*iterables):\n    return []\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    row = {"returned": _seen("[1, 3, 2, 4]"), "args": {"iterables": [[1, 2], [3, 4, 5]]}}
    why = "iterables_has_two_items"
    # Not "when_given_2_positional_arguments", which only restates the call.
    assert behaviour_name("interleave", row, why, set(), set(), function=function) == (
        "test_interleave_when_iterables_differ_in_length"
    )
    # Called with none, it was given no iterables: not "by_default", which hides that.
    none = {"returned": _seen("[]"), "args": {}}
    assert behaviour_name("interleave", none, "typical", set(), set(), function=function) == (
        "test_interleave_when_given_no_iterables_returns_empty_list"
    )
    even = {**row, "args": {"iterables": [[1, 2], [3, 4]]}}
    assert behaviour_name("interleave", even, why, set(), set(), function=function) == (
        "test_interleave_when_given_2_positional_arguments"
    )


def test_a_plain_call_is_named_for_the_branch_it_left_by() -> None:
    source = (
        "def decode(self, hashid):\n"  # 1
        "    try:\n"  # 2
        "        return parse(hashid)\n"  # 3
        "    except ValueError:\n"  # 4
        "        return ()\n"  # 5
    )
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    row = {"returned": _seen("()"), "args": {"hashid": "sample hashid"}}
    assert behaviour_name(
        "decode", row, "typical", set(), set(), function=function, lines={2, 3, 4, 5}
    ) == ("test_decode_when_hashid_is_invalid_returns_empty_tuple")
    # A reason of its own (a boundary the search chose) is kept as it is.
    assert behaviour_name(
        "decode", row, "hashid_is_xoz", set(), set(), function=function, lines={2, 3, 4, 5}
    ) == ("test_decode_when_hashid_is_xoz_returns_empty_tuple")


def test_a_call_that_passes_nothing_to_parameters_with_defaults_is_named_by_default() -> None:
    # colorama's Cursor.UP(): "the names should say they check the default" (blind review).
    function = ast.parse("def up(self, n=1):\n    return f'{n}A'\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    row = {"returned": _seen("'1A'"), "args": {}}
    assert behaviour_name("up", row, "typical", set(), set(), function=function) == (
        "test_up_by_default"
    )
    # An argument given is the condition (dicttoxml's `cdata=True` was named as the plain
    # case: "named plain test_dicttoxml when it actually tests cdata=True").
    given = {**row, "args": {"n": 2}}
    assert behaviour_name("up", given, "typical", set(), set(), function=function) == (
        "test_up_when_n_is_2"
    )
    same = {**row, "args": {"n": 1}}
    assert behaviour_name("up", same, "typical", set(), set(), function=function) == "test_up"
    bare = ast.parse("def up(self):\n    return 'A'\n").body[0]
    assert isinstance(bare, ast.FunctionDef)
    assert behaviour_name("up", row, "typical", set(), set(), function=bare) == ("test_up")


def test_a_taken_name_is_told_apart_by_the_call_s_arguments_never_by_a_number() -> None:
    used: set[str] = set()
    named: dict[str, dict[str, Any]] = {}
    one = {"returned": _seen("[]"), "args": {"items": ["a"], "strict": True}}
    assert behaviour_name("ok", one, "typical", used, set(), named=named) == (
        "test_ok_returns_empty_list"
    )
    # What differs from the test that took the name says which this one is.
    two = {**one, "args": {"items": ["a", "b"], "strict": True}}
    assert behaviour_name("ok", two, "typical", used, set(), named=named) == (
        "test_ok_when_items_has_2_items_returns_empty_list"
    )
    loose = {**one, "args": {"items": ["a"], "strict": False}}
    assert behaviour_name("ok", loose, "typical", used, set(), named=named) == (
        "test_ok_when_strict_is_false_returns_empty_list"
    )
    # Nothing a name can say tells it apart: no test rather than "test_ok_returns_empty_list_2".
    again = {**one, "args": {"items": ["c"], "strict": True}}
    assert behaviour_name("ok", again, "typical", used, set(), named=named) is None
    assert not any(name[-1].isdigit() for name in used)


def test_a_name_of_neither_condition_nor_outcome_says_what_the_call_was_given() -> None:
    # "the vague name test_encode", "'test_parse' is an empty name": the commonest name edit.
    used: set[str] = set()
    zero = {"returned": _seen("b'AA'"), "args": {"val": 0}}
    assert behaviour_name("to_base64url", zero, "typical", used, set()) == (
        "test_to_base64url_when_val_is_0"
    )
    # A default no constant spells (webencodings' `encoding=UTF8`) may be any value.
    coded = ast.parse("def encode(text, encoding=UTF8):\n    return text\n").body[0]
    assert isinstance(coded, ast.FunctionDef)
    latin = {"returned": _seen("b'\\xbc'"), "args": {"text": "\u0152", "encoding": "latin9"}}
    assert behaviour_name("encode", latin, "typical", used, set(), function=coded) == (
        "test_encode_when_encoding_is_latin9"
    )
    # A placeholder of several words says nothing, nor does a count of items or `*args`.
    graph = {"returned": _seen("1.0"), "args": {"graph": {"a": ["b"], "b": []}}}
    assert behaviour_name("degree", graph, "typical", used, set()) == "test_degree"
    vague = {"returned": _seen("b'AA'"), "args": {"text": "sample text here"}}
    assert behaviour_name("pack", vague, "typical", used, set()) == "test_pack"
    function = ast.parse("def join(*parts):\n    return '/'.join(parts)\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    starred = {"returned": _seen("'a/b'"), "args": {"parts": ["a", "b"]}}
    assert behaviour_name("join", starred, "typical", used, set(), function=function) == (
        "test_join"
    )


def test_a_predicate_s_answer_is_named_with_the_input_it_answers_for() -> None:
    # `test_key_is_valid_xml_returns_false` read as "always False" (dicttoxml's and
    # pygtrie's reviewers: "the names don't say which input is being checked").
    used: set[str] = set()
    empty = {"returned": _seen("False"), "args": {"key": ""}}
    assert behaviour_name("valid_key", empty, "typical", used, set()) == (
        "test_valid_key_when_key_is_empty_returns_false"
    )
    plain = {"returned": _seen("True"), "args": {"key": "alpha"}}
    assert behaviour_name("valid_key", plain, "typical", used, set()) == (
        "test_valid_key_when_key_is_alpha_returns_true"
    )
    # An argument no words can say (a placeholder of several words) leaves the answer alone.
    vague = {"returned": _seen("True"), "args": {"key": "sample key text"}}
    assert behaviour_name("has", vague, "typical", used, set()) == "test_has_returns_true"
    # A look-up's None too (webencodings' `test_lookup_returns_none`: "should say it's
    # about an empty or unknown label"); another outcome keeps its plain name.
    none = {"returned": _seen("None"), "args": {"label": ""}}
    assert behaviour_name("lookup", none, "typical", used, set()) == (
        "test_lookup_when_label_is_empty_returns_none"
    )
    other = {"returned": _seen("[]"), "args": {"key": "alpha"}}
    assert behaviour_name("find", other, "typical", used, set()) == ("test_find_returns_empty_list")


def test_a_long_condition_keeps_whole_clauses_and_never_ends_on_a_cut_word() -> None:
    long_why = "self_status_is_placed_and_lines_has_one_item_and_more_words_here"
    name = behaviour_name("cancel", {"raised": {"type": "KeyError"}}, long_why, set(), set())
    assert name == "test_cancel_when_self_status_is_placed_raises_key_error"
    # One clause too long for 72 characters is kept whole (a def line still fits in 100),
    # not cut to "when_self_shelf_has".
    row = {"returned": _seen("True")}
    name = behaviour_name(
        "read_through_shelf_names_first", row, "self_shelf_has_key_oak", set(), set()
    )
    assert name == "test_read_through_shelf_names_first_when_self_shelf_has_key_oak_returns_true"
    assert len(name) > 72
    # Longer still: no condition rather than a cut one.
    far = "self_shelf_has_key_oak_beside_its_pending_one_of_the_same_key"
    name = behaviour_name("read_through_shelf_names_first", row, far, set(), set())
    assert name == "test_read_through_shelf_names_first_returns_true"


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
    assert case_words({"args": "n=11", "expected": "'11th'"}) == "returns_string"
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


def _contents(*keys: str, removed: tuple[str, ...] = ()) -> dict[str, Any]:
    items = [{"key": _seen(repr(k)), "value": _seen("1")} for k in keys]
    return {
        "kind": "dict",
        "length": 3,
        "length_before": 3 + len(removed) - len(keys),
        "items": items,
        "removed": [_seen(repr(k)) for k in removed],
        "all_keys": True,
    }


def test_a_procedure_that_stores_an_item_is_named_for_it_never_for_a_result() -> None:
    # dict_obj.update({"a": {"c": 4}}); assert dict_obj["a"] == {"c": 4}: no result asserted.
    row = {"returned": _seen("None"), "contents": _contents("a"), "args": {"args": [{}]}}
    assert behaviour_name("update", row, "typical", set(), set(), procedure=True) == (
        "test_update_stores_a"
    )
    gone = {"returned": _seen("None"), "contents": _contents(removed=("tea",))}
    assert behaviour_name("use_up", gone, "typical", set(), set(), procedure=True) == (
        "test_use_up_removes_tea"
    )
    # Its items changed: not "leaves_log_unchanged" beside them.
    log = {"log": _seen("['x']")}
    both = {**row, "state": log, "state_before": log}
    assert behaviour_name("update", both, "typical", set(), set(), procedure=True) == (
        "test_update_stores_a"
    )
    # A procedure whose test asserts only that the state holds what it was built with says
    # it left it so, or (not known empty before: "flush leaves log unchanged" would say it
    # never changes it) gets no name; it was "test_flush_returns_none".
    kept = {"returned": _seen("None"), "state": log, "owner_args": {"log": ["x"]}}
    assert behaviour_name("flush", kept, "typical", set(), set(), procedure=True) is None
    assert behaviour_name("flush", kept, "log_is_full", set(), set(), procedure=True) == (
        "test_flush_when_log_is_full_leaves_log_unchanged"
    )


def test_an_item_stored_beside_a_result_names_both_where_the_name_stays_short() -> None:
    row = {
        "returned": _seen("'other default'"),
        "contents": _contents("beta"),
        "args": {"key": "beta", "default": "other default"},
    }
    # The key is the call's own argument, worded by its parameter: not "stores_beta".
    assert behaviour_name("setdefault", row, "key_is_missing", set(), set()) == (
        "test_setdefault_when_key_is_missing_stores_key_and_returns_default"
    )
    long_node = "setdefault_with_a_rather_long_method_name"
    assert behaviour_name(long_node, row, "key_is_missing", set(), set()) == (
        f"test_{long_node}_when_key_is_missing_stores_key"
    )


def test_an_unread_keyword_the_call_stored_is_named_a_keyword() -> None:
    function = ast.parse("def update(self, *args, **kwargs):\n    pass\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    stored = {"returned": _seen("None"), "contents": _contents("zz"), "args": {"kwargs": {"zz": 1}}}
    why = "kwargs_has_an_unread_keyword"
    name = behaviour_name("update", stored, why, set(), set(), function=function, procedure=True)
    # Not "stores_zz": the keyword is one the search made up.
    assert name == "test_update_when_kwargs_has_a_keyword_stores_given_key"
    # Handed back in the result (its names): read too.
    echoed = {"returned": _seen("['a', 'zz']"), "args": {"kwargs": {"zz": 1}}}
    name = behaviour_name("update", echoed, why, set(), set(), function=function)
    assert name == "test_update_when_kwargs_has_a_keyword"
    # Nothing shows it: the code's keyed reads are all there is to go on.
    other = {"returned": _seen("{'a': 1}"), "args": {"kwargs": {"zz": 1}}}
    name = behaviour_name("update", other, why, set(), set(), function=function)
    assert name == "test_update_when_kwargs_has_an_unread_keyword"


def test_items_stored_under_other_keys_are_worded_generically_and_stay_identifiers() -> None:
    used: set[str] = set()
    names = [
        behaviour_name(
            "put",
            {"returned": _seen("None"), "contents": c},
            "typical",
            used,
            set(),
            procedure=True,
        )
        for c in (
            _contents("Content-Type"),
            _contents("a", "b"),
            _contents("a", "b", "c"),
            _contents("x", removed=("y",)),
        )
    ]
    assert names == [
        "test_put_stores_item",
        "test_put_stores_a_and_b",
        "test_put_stores_items",
        "test_put_stores_x_and_removes_y",
    ]
    assert all(name is not None and name.isidentifier() for name in names)


def test_a_short_parameter_is_named_by_what_the_code_does_with_it() -> None:
    source = (
        "def get(self, k, d=None):\n"  # 1
        "    if k in self.data:\n"  # 2
        "        return self.data[k]\n"  # 3
        "    return d\n"  # 4
    )
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    row = {"returned": _seen("'fallback'"), "args": {"k": "beta", "d": "fallback"}}
    # Not "test_get_when_k_is_missing_returns_d".
    assert behaviour_name(
        "get", row, "k_is_missing", set(), set(), function=function, lines={1, 2, 4}
    ) == ("test_get_when_key_is_missing_returns_default")
    # Told apart from a test that took the name by the key, worded so too.
    used = {"test_get_returns_default"}
    named: dict[str, dict[str, Any]] = {"test_get_returns_default": {"k": "a", "d": "fallback"}}
    assert behaviour_name("get", row, "typical", used, set(), function=function, named=named) == (
        "test_get_when_key_is_beta_returns_default"
    )


def test_a_model_s_call_is_named_for_its_branch_not_its_spelled_arguments() -> None:
    source = "def days(year, month):\n    if month == 2:\n        return 28\n    return 31\n"
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    why = "model_year_2024_month_sample_month"
    row = {"returned": _seen("31"), "args": {"year": 2024, "month": "sample month"}}
    used: set[str] = set()
    named: dict[str, dict[str, Any]] = {}

    def name() -> str | None:
        lines = {1, 2, 4}
        return behaviour_name(
            "days", row, why, used, set(), function=function, named=named, lines=lines
        )

    # Not "test_days_with_year_2024_month_sample_month"; the placeholder month unsaid.
    assert name() == "test_days_when_year_is_2024"
    # Where nothing else tells it apart, its words rather than lose what it covers.
    assert name() == "test_days_with_year_2024_month_sample_month"


def test_a_result_stored_under_the_key_the_call_gives_is_named_the_stored_value() -> None:
    steps = [{"method": "__setitem__", "args": ["alpha", "other value"], "keywords": {}}]
    row = {
        "returned": _seen("'other value'"),
        "args": {"key": "alpha"},
        "owner_args": {"size": 2, "__calls__": steps},
    }
    # Not "returns_string".
    assert behaviour_name("get", row, "typical", set(), set()) == ("test_get_returns_stored_value")
    # Under another key than the call's: a string as any other.
    other = {**row, "args": {"key": "beta"}}
    assert behaviour_name("get", other, "typical", set(), set()) == "test_get_when_key_is_beta"


def test_keys_a_call_handed_over_are_never_spelled() -> None:
    # dict_obj.update({"a": 1, "b": 2}): the search's keys, not the behaviour.
    row = {
        "returned": _seen("None"),
        "contents": _contents("a", "b"),
        "args": {"args": [{"a": 1, "b": 2}]},
    }
    assert behaviour_name("update", row, "typical", set(), set(), procedure=True) == (
        "test_update_stores_given_keys"
    )
    popped = {
        "returned": _seen("1"),
        "contents": _contents(removed=("tea",)),
        "args": {"name": "tea"},
    }
    assert behaviour_name("pop", popped, "typical", set(), set()) == ("test_pop_removes_name")


def test_a_reason_about_a_local_leaves_the_condition_to_the_branch_the_call_took() -> None:
    # rfc3986's add_port(-1), chosen for ``port_int < 0``, a local tested twice (no range
    # claim holds for it: .claimed_ranges): "rename it to say negative port".
    function = ast.parse(
        "def add_port(self, port):\n"
        "    port_int = int(port)\n"
        "    if port_int < 0:\n"
        "        raise ValueError('negative')\n"
        "    if port_int > 65535:\n"
        "        raise ValueError('too large')\n"
        "    return port_int\n"
    ).body[0]
    assert isinstance(function, ast.FunctionDef)
    row = {"raised": {"type": "ValueError"}, "args": {"port": -1}}
    name = behaviour_name(
        "add_port", row, "port_int_below_0", set(), set(), function=function, lines={1, 2, 3, 4}
    )
    assert name == "test_add_port_when_port_below_0_raises_value_error"


def test_an_instance_built_as_documented_is_named_by_what_it_holds() -> None:
    used: set[str] = set()
    stored = {"returned": _seen("['a', 'b']")}
    items = [{"method": "__setitem__", "args": [key, 1]} for key in ("a", "b", "a")]
    filled = {**stored, "owner_args": {"path": "db", "__calls__": items}}
    assert behaviour_name("keys", filled, "as_documented", used, set()) == (
        "test_keys_when_holding_2_entries"
    )
    rows = [{"method": "addRows", "args": [[1]]}, {"method": "addRows", "args": [[2]]}]
    added = {**stored, "owner_args": {"__calls__": rows}}
    assert (
        behaviour_name("draw", added, "as_built", used, set()) == "test_draw_after_add_rows_twice"
    )
    mixed = [items[0], rows[0]]
    assert (
        behaviour_name(
            "size", {**stored, "owner_args": {"__calls__": mixed}}, "as_built", used, set()
        )
        == "test_size"
    )


STATE = """\
class Row:
    def __init__(self, mark, status):
        self.mark = mark
        self.status = status

    def inserted(self):
        return self.mark == "+"

    def moved(self, status):
        return self.status == status and self.mark == "+"
"""


def _state_method(name: str) -> ast.FunctionDef:
    return next(
        node
        for node in ast.walk(ast.parse(STATE))
        if isinstance(node, ast.FunctionDef) and node.name == name
    )


@pytest.mark.parametrize(
    ("method", "why", "words"),
    [
        # The instance's state by its attribute (unidiff: "when_self_line_type_is_plus").
        ("inserted", "self_mark_is_plus", "when_mark_is_plus"),
        # Beside a parameter of the same name, the instance's own stays told apart.
        (
            "moved",
            "self_status_is_placed_and_self_mark_is_plus",
            "when_self_status_is_placed_and_mark_is_plus",
        ),
        # The instance as a whole keeps its word.
        ("inserted", "self_is_empty", "when_self_is_empty"),
    ],
)
def test_the_instances_state_is_named_by_its_attribute(method: str, why: str, words: str) -> None:
    function = _state_method(method)
    name = behaviour_name(method, {"returned": _seen("True")}, why, set(), set(), function=function)
    assert name == f"test_{method}_{words}_returns_true"


def test_a_predicate_on_an_instance_built_with_no_argument_is_by_default() -> None:
    # unidiff's PatchedFile().is_added_file: "returns_false" alone reads "always".
    function = _state_method("inserted")
    bare = {"returned": _seen("False"), "owner_args": {}}
    name = behaviour_name("inserted", bare, "typical", set(), set(), function=function)
    assert name == "test_inserted_by_default_returns_false"
    built = {**bare, "owner_args": {"mark": "-", "status": "open"}}
    name = behaviour_name("inserted", built, "typical", set(), set(), function=function)
    assert name == "test_inserted_returns_false"


def test_a_private_attribute_the_method_reads_is_named_without_self() -> None:
    # pyfiglet's ``direction`` property, tried on ``Figlet(direction="left-to-right")``:
    # ``when_direction_is_left_to_right``, not ``when_self_direction_...``.
    function = first_function(
        "def direction(self):\n"
        "    if self._direction == 'auto':\n"
        "        return 'left-to-right'\n"
        "    return self._direction\n"
    )
    row = {"args": {}, "returned": {"repr": "'left-to-right'", "literal": True}}
    name = behaviour_name(
        "direction", row, "self__direction_is_left_to_right", set(), set(), {}, function
    )
    assert name == "test_direction_when_direction_is_left_to_right"
