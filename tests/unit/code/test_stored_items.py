"""A test of a container's method is named for the items it stored or removed, as seen."""

from __future__ import annotations

from typing import Any

from remora.code.probes.programs.own_contents import contents_change, contents_snapshot
from remora.code.testgen.stored_items import shows_key, stored_words


def _seen(value: Any) -> dict[str, Any]:
    return {"repr": repr(value), "literal": True, "type": type(value).__name__}


class Shelf(list[str]):
    def take(self) -> str:
        return self.pop()

    def add(self, *books: str) -> None:
        self.extend(books)

    def swap(self) -> None:
        self.reverse()


def _change(shelf: Shelf, call: str, *args: str) -> dict[str, Any] | None:
    method = getattr(shelf, call)
    before = contents_snapshot(method)
    method(*args)
    return contents_change(method, before, values=True)


def test_a_sequence_s_change_is_worded_by_how_its_count_moved() -> None:
    shelf = Shelf(["a", "b", "c"])
    took = _change(shelf, "take")
    assert took is not None and (took["length_before"], took["length"]) == (3, 2)
    # Not "stores_items": the call took one.
    assert stored_words(took) == "removes_item"
    assert stored_words(_change(shelf, "add", "x", "y")) == "stores_items"
    assert stored_words(_change(shelf, "add", "z")) == "stores_item"
    assert stored_words(_change(shelf, "swap")) == "changes_items"
    assert stored_words(None) == ""


def test_a_mapping_s_keys_name_what_it_stored_and_removed() -> None:
    contents: dict[str, Any] = {"kind": "dict", "length": 2, "length_before": 2}
    one = {**contents, "items": [{"key": _seen("beta")}], "all_keys": True}
    assert stored_words(one) == "stores_beta"
    # A key no identifier spells, or a long one, is worded generically.
    for key in (1, "two words", "x" * 30, "__"):
        assert stored_words({**one, "items": [{"key": _seen(key)}]}) == "stores_item"
    # More changed keys than the probe reports: never one of them by name.
    assert stored_words({**one, "all_keys": False}) == "stores_items"
    gone = {**contents, "removed": [_seen("tea")], "all_keys": True}
    assert stored_words(gone) == "removes_tea"
    # A call that left none of several: all of them, not the one key the probe named.
    emptied = {**gone, "length": 0}
    assert stored_words(emptied) == "removes_all_items"
    # The one key of a mapping the call emptied: all its items, unless the call was
    # handed that key (pop("tea")): cachetools' clear() was "removes_alpha".
    assert stored_words({**emptied, "length_before": 1}) == "removes_all_items"
    assert stored_words({**emptied, "length_before": 1}, (("tea", "key"),)) == "removes_key"


def test_a_cleared_mapping_is_said_to_lose_all_its_items() -> None:
    class Table(dict[str, int]):
        def wipe(self) -> None:
            self.clear()

    table = Table(alpha=1, beta=2)
    before = contents_snapshot(table.wipe)
    table.wipe()
    assert stored_words(contents_change(table.wipe, before, values=True)) == "removes_all_items"


def test_a_key_shows_where_the_call_stored_it_returned_it_or_set_it() -> None:
    assert shows_key({"contents": {"kind": "dict", "items": [{"key": _seen("zz")}]}}, "zz")
    assert shows_key({"returned": _seen({"n": {"zz": 1}})}, "zz")
    assert not shows_key({"returned": _seen({"n": {"a": "zzz"}})}, "zz")
    # An attribute holding it already before the call shows nothing of this call.
    state = {"seen": _seen(["zz"])}
    assert not shows_key({"state": state, "state_before": state}, "zz")
    assert shows_key({"state": state, "state_before": {"seen": _seen([])}}, "zz")
    # Nor do a mapping's contents whole: its old keys are there too.
    whole = {"kind": "dict", "items": [], "whole": _seen({"zz": 1})}
    assert not shows_key({"contents": whole}, "zz")
