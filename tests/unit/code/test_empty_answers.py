"""A value an empty instance answers is no test; an empty case the code tells apart is."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from probe_support import probe_outcome

from remora.code.testgen.empty_answers import empty_answer, without_lone_empty_answers

REGISTRY = """\
class Registry(dict):
    def copy(self):
        return Registry(self)

    def names(self):
        return sorted(self)

    def add(self, name):
        self[name] = True
"""


def _row(**given: Any) -> dict[str, Any]:
    returned = {"repr": "[]", "literal": True}
    return {"args": {}, "returned": returned, "size_before": 0, **given}


def test_a_value_read_from_an_empty_instance_is_left_out() -> None:
    # bidict's copy() of an empty bidict: "copying an empty bidict pins almost nothing".
    assert empty_answer(_row(), "test_names_returns_empty_list")
    before = {"items": {"repr": "[]", "literal": True}}
    assert empty_answer({**_row(), "size_before": None, "state_before": before}, "test_x_returns_0")


def test_an_empty_case_the_code_tells_apart_or_a_change_stays() -> None:
    # Its name states the case: popitem on an empty one, has_receivers_for "when … is empty".
    assert not empty_answer(_row(), "test_names_when_self_is_empty_returns_empty_list")
    assert not empty_answer(_row(), "test_send_after_connect_returns_empty_list")
    assert not empty_answer(_row(raised={"type": "KeyError"}), "test_popitem_raises_key_error")
    # pop handing back its default; an item stored; a state that changed.
    handed = _row(args={"default": "d"}, returned={"repr": "'d'", "literal": True})
    assert not empty_answer(handed, "test_pop_returns_default")
    assert not empty_answer(_row(contents={"added": 1}), "test_add_stores_name")
    changed = _row(state={"n": {"repr": "1"}}, state_before={"n": {"repr": "0"}})
    assert not empty_answer(changed, "test_bump_sets_n")
    # Not empty: a real answer.
    assert not empty_answer(_row(size_before=2), "test_names_returns_list")


def test_a_call_given_only_empty_collections_that_gives_back_empty_ones_is_left_out() -> None:
    # dictdiffer's find_conflicts([], []) == [] and conflicts == []: no rule ran.
    state = {"conflicts": {"repr": "[]", "literal": True}}
    given = _row(args={"first": [], "second": []}, size_before=None, state=state)
    assert empty_answer(given, "test_find_conflicts_sets_conflicts")
    # A condition named, an item handed in, or an answer with something in it: kept.
    assert not empty_answer(given, "test_find_conflicts_when_first_is_empty_returns_empty_list")
    assert not empty_answer({**given, "args": {"first": [("add", "", [])], "second": []}}, "t")
    full = {**given, "returned": {"repr": "[1]", "literal": True}}
    assert not empty_answer(full, "test_find_conflicts_returns_list")
    kept_one = {**given, "state": {"conflicts": {"repr": "[1]", "literal": True}}}
    assert not empty_answer(kept_one, "test_find_conflicts_sets_conflicts")


def test_an_instance_built_with_no_arguments_and_nothing_in_its_collections_is_empty() -> None:
    # dictdiffer's PathLimit(): its limits empty, its final key set; every answer False.
    before = {
        "dict": {"repr": "{}", "literal": True},
        "final_key": {"repr": "'!'", "literal": True},
    }
    row = _row(size_before=None, state_before=before, returned={"repr": "False", "literal": True})
    assert empty_answer(row, "test_path_is_limit_returns_false", owner_args={})
    # Built with an argument, or holding an item, or with no collection seen: not empty.
    assert not empty_answer(row, "test_path_is_limit_returns_false", owner_args={"limits": []})
    assert not empty_answer({**row, "owner_args": {"limits": [["a"]]}}, "t", owner_args={})
    full = {**before, "dict": {"repr": "{'a': {}}", "literal": True}}
    assert not empty_answer({**row, "state_before": full}, "t", owner_args={})
    named = {"final_key": {"repr": "'!'", "literal": True}}
    assert not empty_answer({**row, "state_before": named}, "t", owner_args={})


def test_the_probe_reports_how_many_items_a_container_instance_held(tmp_path: Path) -> None:
    (tmp_path / "registry.py").write_text(REGISTRY)
    outcome = probe_outcome(
        tmp_path, "registry", "Registry.names", {}, owner="Registry", owner_args={}
    )
    assert outcome["size_before"] == 0


def test_an_empty_answer_is_written_beside_a_test_of_a_filled_instance_only() -> None:
    # send_async's "returns [] with no receiver" beside its test of one connected: merged.
    empty = {"name": "test_send_async_returns_empty_list", "empty_answer": True}
    filled = {"name": "test_send_async_after_connect_raises", "empty_answer": False}
    kept, dropped = without_lone_empty_answers([filled, empty])
    assert [p["name"] for p in kept] == [filled["name"], empty["name"]] and dropped == []
    assert all("empty_answer" not in p for p in kept)
    kept, dropped = without_lone_empty_answers([empty])
    assert kept == [] and dropped[0].startswith("test_send_async_returns_empty_list: what an")


def test_a_scan_of_empty_text_that_finds_nothing_is_left_out() -> None:
    # mistune's parse_link("", 0) == (None, None): "only the empty-string case".
    nothing = _row(args={"src": "", "pos": 0}, size_before=None)
    assert empty_answer({**nothing, "returned": {"repr": "(None, None)", "literal": True}}, "t")
    assert empty_answer({**nothing, "returned": {"repr": "(None, 0)", "literal": True}}, "t")
    # Text to scan, a position found, or a condition named: kept.
    text = {**nothing, "args": {"src": "[a](b)", "pos": 0}}
    assert not empty_answer({**text, "returned": {"repr": "(None, None)", "literal": True}}, "t")
    found = {**nothing, "returned": {"repr": "('a', 3)", "literal": True}}
    assert not empty_answer(found, "test_parse_link_returns_tuple")
    named = {**nothing, "returned": {"repr": "(None, None)", "literal": True}}
    assert not empty_answer(named, "test_parse_link_when_src_is_empty_returns_none")
    # A number alone is no empty input.
    counted = _row(args={"n": 0}, size_before=None, returned={"repr": "None", "literal": True})
    assert not empty_answer(counted, "t")


SWATCH = """\
def parse_swatch(value):
    if value.startswith("@"):
        if len(value) == 4:
            return tuple(value[1:])
    return None


def note(value):
    print(value)
"""


def test_none_from_a_function_that_returns_a_value_elsewhere_is_a_refusal() -> None:
    tree = ast.parse(SWATCH)
    parse, note = (n for n in tree.body if isinstance(n, ast.FunctionDef))
    refused = _row(args={"value": "@a"}, returned={"repr": "None", "literal": True})
    # Whatever its name says: every test of "@a" or "x" pins only what it does not parse.
    assert empty_answer(
        refused, "test_parse_swatch_when_value_starts_with_at_returns_none", None, parse
    )
    parsed = _row(args={"value": "@abc"}, returned={"repr": "('a', 'b', 'c')", "literal": True})
    assert not empty_answer(parsed, "test_parse_swatch_when_value_starts_with_at", None, parse)
    # A procedure's None is its only answer; a raise is a behaviour of its own.
    assert not empty_answer(refused, "test_note_when_value_is_a", None, note)
    raised = {**refused, "raised": {"type": "ValueError"}}
    assert not empty_answer(raised, "test_parse_swatch_raises_value_error", None, parse)
    pieces, left_out = without_lone_empty_answers(
        [{"name": "test_a", "empty_answer": True}, {"name": "test_b", "empty_answer": True}]
    )
    assert pieces == [] and len(left_out) == 2


FRAMES = """\
def joined(rows):
    return "\\n".join(rows) + "\\n"


def blanked(rows, blank="$"):
    return ("\\n".join(rows) + "\\n").replace(blank, " ")


def boxed(rows):
    if not rows:
        return "\\n"
    return "\\n".join(rows) + "\\n"
"""


def test_empty_input_that_only_gets_the_text_the_code_writes_around_it_is_left_out() -> None:
    # pyfiglet's replaceHardblanks([]) == "\n" and newFromList([]) == "\n": "never checks
    # that the hardblank is turned into a space", "joining an empty list is trivial".
    joined, blanked, boxed = ast.parse(FRAMES).body
    newline = _row(args={"rows": []}, size_before=None, returned={"repr": "'\\n'", "literal": True})
    assert empty_answer(newline, "test_joined_when_rows_is_empty", None, joined)
    assert empty_answer(newline, "test_blanked_when_rows_is_empty", None, blanked)
    # Rows handed in, text of its own in the answer, or a branch that tells empty apart: kept.
    given = {**newline, "args": {"rows": ["a"]}, "returned": {"repr": "'a\\n'", "literal": True}}
    assert not empty_answer(given, "test_joined", None, joined)
    other = {**newline, "returned": {"repr": "'x\\n'", "literal": True}}
    assert not empty_answer(other, "test_joined_when_rows_is_empty", None, joined)
    assert not empty_answer(newline, "test_boxed_when_rows_is_empty", None, boxed)
