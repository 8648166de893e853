"""Values from the constants the code compares against: both sides of every boundary, in an
order that tries each boundary first, values of an expression solved for its parameter,
a parameter's type from what it is compared with, and no None an annotation rules out."""

from __future__ import annotations

import ast
from typing import Any

from ast_support import first_function

from remora.code.values.argument_fit import excluded_value
from remora.code.values.compared_kinds import compared_base, compared_kinds
from remora.code.values.derived_sets import sample_value
from remora.code.values.input_search import boundary_search, boundary_values
from remora.code.values.parameters import Parameter, function_parameters
from remora.code.values.type_aliases import admits_none, module_aliases, resolved_parameters

SOURCE = """
from typing import Any, Callable, Optional, Tuple, TypeVar

FIRST = 0x0
Pair = Tuple[str, ...]
MaybePair = Optional[Pair]
Reader = Callable[[str], Any]
T = TypeVar("T")


def in_two_ranges(code: int) -> bool:
    return (FIRST <= code <= 0x3FF) or (0x800 <= code <= 0xFFFF)


def week_length(cycle, slot):
    if slot in (1, 3, 5, 6):
        return 7
    if slot in (4, 8):
        return 6
    if ((cycle % 300) == 0) or ((cycle % 30) != 0) and ((cycle % 3) == 0):
        return 5
    return 4


def season(m):
    if m in (1, 2, 3):
        return "early"
    if m in (5, 6):
        return "late"
    return "between"


def shifted(n: int) -> int:
    if n - 3 >= 20:
        return 1
    if n * 2 == 7:
        return 2
    return 0


def scaled(n):
    return n * 1000 + 1 > 50001


def mode_of(flag):
    if flag == "on":
        return 1
    if flag in ("off", "idle"):
        return 0
    return -1


def mixed(value):
    if isinstance(value, str):
        return value
    return value > 3


def opens_comment(s):
    pos = s.find("/")
    if s[pos : pos + 2] == "/*":
        return True
    return False


def lookup(key: Pair, maybe: MaybePair, reader: Reader, anything: T, bare: Pair = None):
    return key, maybe, reader, anything, bare
"""
MODULE = ast.parse(SOURCE)


def _function(name: str) -> ast.FunctionDef:
    found = next(n for n in MODULE.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return found


def _values(name: str, kinds: dict[str, str] | None = None) -> list[tuple[str, Any, str]]:
    return boundary_values(_function(name), kinds or {}, MODULE)


def _params(name: str) -> list[Parameter]:
    return function_parameters(_function(name).args)


def _no_classes(_name: str) -> None:
    return None


def test_each_boundary_of_two_ranges_is_tried_at_it_before_any_other_side() -> None:
    found = [value for _name, value, _words in _values("in_two_ranges", {"code": "int"})]
    assert found[:4] == [0, 0x3FF, 0x800, 0xFFFF]
    # then the side just outside each, the one a changed constant or ``<`` is told by
    assert found[4:8] == [-1, 0x400, 0x7FF, 0x10000]


def test_the_values_at_a_boundary_or_just_outside_it_are_its_edges() -> None:
    _found, edges = boundary_search(_function("in_two_ranges"), {"code": "int"}, MODULE)
    assert {"code_is_1023", "code_above_1023", "code_is_2048", "code_below_2048"} <= edges
    assert "code_below_1023" not in edges  # inside, as 1023 is: no sample of its own


def test_nested_modulo_rules_get_a_value_reaching_each_branch() -> None:
    cycles = {value for name, value, _words in _values("week_length") if name == "cycle"}
    assert any(c % 300 == 0 for c in cycles)
    assert any(c % 30 == 0 and c % 300 != 0 for c in cycles)
    assert any(c % 3 == 0 and c % 30 != 0 for c in cycles)
    assert any(c % 3 != 0 for c in cycles)


def test_an_expression_is_solved_for_its_parameter() -> None:
    found = {words: value for _name, value, words in _values("shifted", {"n": "int"})}
    assert found["n_minus_3_is_20"] == 23
    assert found["n_minus_3_below_20"] == 22
    assert "n_times_2_is_7" not in found  # no integer n gives 7
    # a line is solved from two points: of 50000, 50001, 50002 only 50001 has an integer n
    assert _values("scaled") == [("n", 50, "n_times_1000_plus_1_is_50001")]


def test_a_number_outside_every_literal_falls_in_a_gap_of_the_members() -> None:
    found = _values("week_length")
    assert ("slot", 2, "slot_is_not_listed") in found
    assert ("slot", 1, "slot_is_1") in found and ("slot", 4, "slot_is_4") in found
    # no gap in either literal: one in a gap of both, never one above them all
    assert [v for _n, v, w in _values("season") if w == "m_is_not_listed"] == [4]


def test_an_unannotated_parameter_takes_the_kind_of_what_it_is_compared_with() -> None:
    kinds = compared_kinds(_function("week_length"), MODULE)
    assert kinds["slot"] == ("number", 2)
    assert kinds["cycle"][0] == "number"
    assert compared_kinds(_function("mode_of"))["flag"] == ("str", "on")
    assert "value" not in compared_kinds(_function("mixed"))
    base = {"cycle": 7, "slot": "sample slot"}
    assert compared_base(_function("week_length"), MODULE, _params("week_length"), base) == {
        "slot": 2
    }


def test_a_string_for_a_parameter_compared_with_numbers_is_excluded() -> None:
    function, params = _function("week_length"), _params("week_length")
    why = excluded_value(function, params, {"cycle": 7, "slot": "sample slot"}, _no_classes)
    assert why == "slot: compared with number constants only, not a str"
    assert excluded_value(function, params, {"cycle": 7, "slot": 2}, _no_classes) is None
    # a string compared with may be a sentinel beside numbers (``height == "auto"``)
    assert (
        excluded_value(_function("mode_of"), _params("mode_of"), {"flag": 1}, _no_classes) is None
    )


def test_an_annotation_that_takes_no_none_excludes_none_through_its_aliases() -> None:
    aliases = module_aliases(MODULE)
    assert not admits_none("Pair", None, aliases)
    assert not admits_none("Reader", None, aliases)
    assert admits_none("MaybePair", None, aliases)
    assert admits_none("T", None, aliases)
    assert admits_none("Any", None, aliases)
    assert admits_none("Pair", "None", aliases)
    assert admits_none(None, None, aliases)
    function, params = _function("lookup"), _params("lookup")
    args = {"key": ["a"], "maybe": None, "reader": None, "anything": None}
    why = excluded_value(function, params, args, _no_classes, MODULE, aliases)
    assert why == "reader: annotated Reader, which takes no None"
    kept = {**args, "reader": {"__callable__": "str"}, "bare": None}
    assert excluded_value(function, params, kept, _no_classes, MODULE, aliases) is None


def test_an_aliased_annotation_gets_a_value_of_what_it_stands_for() -> None:
    params = resolved_parameters(_params("lookup"), module_aliases(MODULE))
    key = next(p for p in params if p.name == "key")
    assert key.annotation == "Tuple[str, ...]"
    assert sample_value(key.name, key.annotation, 2, _no_classes) == {"__tuple__": []}  # ()
    assert sample_value(key.name, "Pair", 2, _no_classes) is None  # what the alias hid


def test_a_part_of_a_string_compared_says_the_string_has_the_value() -> None:
    # cssselect's tokenizer test was ``when_s_pos_pos2_is_slash_times``: the slice's
    # internals, and "*" read as a product (reviewer: edit, "names the code's internals").
    assert ("s", "/*", "s_has_slash_star") in _values("opens_comment")
    assert ("s", "", "s_lacks_slash_star") in _values("opens_comment")


def test_a_length_no_test_writes_out_gives_no_value() -> None:
    # ``len(frame) < 10**7``: three values of ten million items each are no test's
    # (one of 2**32 ran ``remora analyze`` out of memory); a short length still gives them.
    source = (
        "def frame_kind(frame: bytes, tag: str):\n"
        "    if len(frame) < 10**7 and len(tag) == 3:\n"
        "        return 'short'\n"
        "    return 'long'\n"
    )
    found, _edges = boundary_search(first_function(source), {"frame": "bytes", "tag": "str"})
    sized = {words: value for _name, value, words in found if "_of_length_" in words}
    assert sorted(sized) == ["tag_of_length_2", "tag_of_length_3", "tag_of_length_4"]
    assert sized["tag_of_length_3"] == "aaa"
