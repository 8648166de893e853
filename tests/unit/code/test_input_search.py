"""Candidate arguments from the node's own syntax tree, and the greedy set cover."""

from __future__ import annotations

from ast_support import first_function

from remora.code.probes.coverage_probe import Coverage, Span, missed_report
from remora.code.testgen.model_cases import model_call_texts
from remora.code.values.call_sites import call_site_arguments, doctest_calls
from remora.code.values.input_search import Candidate, boundary_values, greedy_cover, vary
from remora.code.values.value_words import label
from remora.results.summary import coverage_line


def values(source: str, kinds: dict[str, str] | None = None) -> list[tuple[str, object, str]]:
    return boundary_values(first_function(source), kinds or {})


def test_a_comparison_gives_a_value_on_each_side_of_the_boundary() -> None:
    found = values("def f(n):\n    if n < 10:\n        return 1\n    return 2\n")
    # At the boundary first, then the side that tells ``<=`` and ``n < 9`` apart, then 11.
    assert found == [("n", 10, "n_is_10"), ("n", 9, "n_below_10"), ("n", 11, "n_above_10")]


def test_an_expression_of_one_parameter_is_named_after_the_expression() -> None:
    found = values("def ordinal(n):\n    if 11 <= n % 100 <= 13:\n        return 'th'\n")
    assert ("n", 11, "n_mod_100_is_11") in found
    assert ("n", 14, "n_mod_100_above_13") in found
    assert ("n", 10, "n_mod_100_below_11") in found


def test_equality_membership_and_string_prefixes() -> None:
    source = (
        "def f(x, kind, s):\n"
        "    if x == 0:\n"
        "        return 0\n"
        "    if kind in ('a', 'b'):\n"
        "        return 1\n"
        "    if s.startswith('-'):\n"
        "        return 2\n"
    )
    found = values(source)
    assert ("x", 0, "x_is_0") in found and ("x", 1, "x_is_not_0") in found
    assert ("kind", "a", "kind_is_letter_a") in found and ("kind", "b", "kind_is_letter_b") in found
    assert ("kind", "zz", "kind_is_not_listed") in found
    assert ("s", "-a", "s_starts_with_dash") in found
    assert ("s", "a", "s_does_not_start_with_dash") in found


def test_isinstance_truthiness_none_and_length() -> None:
    source = (
        "def f(x, items, flag, key):\n"
        "    if isinstance(x, str):\n"
        "        return x\n"
        "    if not items:\n"
        "        return None\n"
        "    if key is None or len(items) > 2:\n"
        "        return flag\n"
    )
    found = values(source, {"items": "list"})
    assert ("x", "a", "x_is_str") in found
    assert ("items", [], "items_is_empty") in found
    assert ("key", None, "key_is_none") in found
    # A list's length is a list's, not a string's.
    assert ("items", ["a", "a", "a"], "items_of_length_3") in found
    assert not [v for n, v, _w in found if n == "items" and isinstance(v, str)]


def test_a_type_compared_with_is_or_equals_asks_what_isinstance_asks() -> None:
    source = (
        "def f(val, k):\n"
        "    if type(val) is not int:\n"
        "        val = 0\n"
        "    if type(k) == str:\n"
        "        return k\n"
    )
    found = values(source)
    assert ("val", 1, "val_is_int") in found and ("val", "a", "val_is_not_int") in found
    assert ("k", "a", "k_is_str") in found and ("k", 1, "k_is_not_str") in found


def test_a_type_s_name_compared_asks_for_a_value_of_that_type_not_the_name() -> None:
    # dicttoxml's get_xml_type was tested with the string "NoneType" (its reviewer: "the
    # real None case is never tested").
    source = (
        "def kind_of(value, other):\n"
        "    if type(value).__name__ == 'NoneType':\n"
        "        return 'null'\n"
        "    name = other.__class__.__name__\n"
        "    if name in ('float', 'unicode'):\n"
        "        return 'number'\n"
        "    return 'other'\n"
    )
    found = values(source)
    assert ("value", None, "value_is_none") in found
    assert ("value", "a", "value_is_not_none") in found
    assert ("other", 1.5, "other_is_float") in found
    assert ("other", "a", "other_is_not_float") in found
    # The names themselves are no values of the parameters.
    assert not [v for _n, v, _w in found if v in ("NoneType", "float", "unicode")]


def test_a_mapping_s_length_boundary_gives_the_empty_mapping_and_no_string() -> None:
    source = (
        "def total(table):\n"
        "    if len(table) == 0:\n"
        "        return 0\n"
        "    return sum(v for k, v in table.items())\n"
    )
    found = values(source)
    assert ("table", {}, "table_of_length_0") in found
    assert not [v for n, v, _w in found if n == "table" and isinstance(v, str)]


def test_a_comparison_between_two_parameters_gives_nothing() -> None:
    assert values("def f(a, b):\n    if a < b:\n        return a\n    return b\n") == []


def test_vary_changes_one_parameter_of_the_base_set_at_a_time() -> None:
    found = vary({"n": 3, "s": "x"}, [("n", 3, "n_is_3"), ("n", 10, "n_is_10")])
    assert found == [
        Candidate({"n": 3, "s": "x"}, "typical_arguments"),
        Candidate({"n": 10, "s": "x"}, "n_is_10"),
    ]


def test_labels_are_words_for_test_names() -> None:
    assert [label(v) for v in (-1, 1.5, "-", "", "--x", None, True, [])] == [
        "minus_1",
        "1_5",
        "dash",
        "empty",
        "dash_dash_x",
        "none",
        "true",
        "empty",
    ]
    # Punctuation in a string is named as a reader says it: cssselect's tokenizer test was
    # ``when_..._is_slash_times`` for "/*", and ``s_contains_text`` for a quote (both: edit).
    assert [label(v) for v in ("/*", "'", '"', "\\")] == [
        "slash_star",
        "quote",
        "double_quote",
        "backslash",
    ]
    # One letter alone is no word: mistune's ``test_block_code_when_info_is_a`` ("rename it").
    assert [label(v) for v in ("a", "B", "1", "ab")] == ["letter_a", "letter_b", "1", "ab"]
    # Words are spelled whole: all of them where they fit, never one cut short
    # (``known_space_flags_co`` for "Known flags:").
    assert label("Known flags:") == "known_flags_colon"
    assert label("Usage: run the report, then the summary") == "usage"
    assert [label(v) for v in (" ", "a b", "a ")] == ["space", "a_b", "a_space"]
    # An identifier's underscore joins its words, as in code; a lone one is a symbol.
    assert [label(v) for v in ("dictionary_name", "_", "a_")] == [
        "dictionary_name",
        "underscore",
        "a_underscore",
    ]
    # So does a hyphen between words (webencodings' `x_dash_user_dash_defined`: "clumsy");
    # a leading or doubled one is a symbol.
    assert [label(v) for v in ("x-user-defined", "-", "--a")] == [
        "x_user_defined",
        "dash",
        "dash_dash_a",
    ]
    # A hyphen that starts a number is its sign, as the number's own label says
    # (bracex's int64 tests: ``string_is_dash_9223...`` beside ``minus_9223...``).
    assert [label(v) for v in ("-5", "{-05..3}", "a-1", "--5")] == [
        "minus_5",
        "minus_05_dot_dot_3",
        "a_1",
        "dash_minus_5",
    ]
    assert label("x" * 50) == "x" * 20
    # Nor the word the first 40 characters end inside ("abcdefghi" of "abcdefghijk").
    assert label("\u00e9" * 30 + " abcdefghijk") == "space"


def test_doctest_examples_and_literal_call_sites() -> None:
    doc = "Ordinal.\n\n>>> ordinal(3)\n'3rd'\n>>> ordinal(n=11)\n'11th'\n>>> other(2)\n"
    assert doctest_calls(doc, "ordinal") == ["3", "n=11"]
    module = "a = ordinal(4)\nb = ordinal(z)\nc = ordinal([1, 2], k='a')\nd = ordinal(*xs)\n"
    assert call_site_arguments(module, "ordinal") == ["4", "[1, 2], k='a'"]


def test_greedy_cover_takes_the_fewest_keys_that_cover_every_unit() -> None:
    gains = {
        "a": frozenset({1, 2}),
        "b": frozenset({2, 3, 4}),
        "c": frozenset({1}),
        "d": frozenset({4}),
    }
    assert greedy_cover(gains, [], 10) == ["b", "a"]
    assert greedy_cover(gains, [1, 2, 3, 4], 10) == []  # nothing adds a unit
    assert greedy_cover(gains, [], 1) == ["b"]


def test_the_models_completion_is_parsed_as_a_call_and_a_claim() -> None:
    assert model_call_texts("10) == 'lucky'", "lucky") == ("10", "'lucky'")
    assert model_call_texts("n=3, s='x')", "f") == ("n=3, s='x'", None)
    assert model_call_texts("10) == 'lucky' and", "lucky") is None


def test_the_missed_report_marks_lines_never_run_and_branches_never_taken() -> None:
    source = "def f(n):\n    if n > 0:\n        return 1\n    return 2\n"
    covered = Coverage([2, 3, 4], [(2, 3), (2, 4)], lines={2, 4}, arcs={(2, 4)})
    report = missed_report(source, 1, Span("m.py", 1, 2, 4), covered)
    assert report.splitlines() == [
        "   def f(n):",
        "       if n > 0:  # never went to line 3",
        ">>         return 1",
        "       return 2",
    ]
    assert covered.summary() == {
        "lines": "2/3",
        "branches": "1/2",
        "line_rate": 0.67,
        "branch_rate": 0.5,
    }
    covered.add([("line", 3, 0), ("arc", 2, 3)])
    assert missed_report(source, 1, Span("m.py", 1, 2, 4), covered) == ""


def test_the_coverage_line_of_a_result() -> None:
    details = {
        "coverage_before": {"lines": "0/5", "branches": "0/4"},
        "coverage_after": {"lines": "5/5", "branches": "4/4"},
    }
    assert coverage_line(details) == "branches 0/4 -> 4/4 · lines 0/5 -> 5/5"
    assert coverage_line({"coverage_before": None, "coverage_after": {"lines": "1/1"}}) == (
        "lines 1/1"
    )
    assert coverage_line({}) == ""
