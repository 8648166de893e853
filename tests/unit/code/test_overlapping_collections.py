"""Collections that hold an item twice: the later of two shares the earlier's first item,
and a list alone repeats its own."""

from __future__ import annotations

from pathlib import Path

from candidate_support import candidates_of

from remora.code.values.overlapping_collections import (
    overlapping_arguments,
    repeated_item_arguments,
)
from remora.code.values.unspelled_values import set_of


def test_the_later_collection_of_a_kind_shares_the_earlier_ones_first_item() -> None:
    base = {
        "base": ["sample base", "other base"],
        "nxt": ["sample nxt", "other nxt"],
        "left": set_of([1, 2]),
        "right": set_of([3, 4]),
        "name": "Alice",
    }
    found = overlapping_arguments(["base", "nxt", "left", "right", "name"], base)
    assert found == [
        ("nxt", ["sample base", "other nxt"], "nxt_shares_an_item_with_base"),
        ("right", set_of([1, 4]), "right_shares_an_item_with_left"),
    ]


def test_collections_that_share_an_item_already_or_hold_none_get_nothing() -> None:
    assert overlapping_arguments(["a", "b"], {"a": [1, 2], "b": [1, 3]}) == []
    assert overlapping_arguments(["a", "b"], {"a": [], "b": [1]}) == []
    assert overlapping_arguments(["a", "b"], {"a": [{"k": 1}], "b": [{"k": 2}]}) == []


def test_a_list_of_distinct_items_repeats_its_first_next_to_itself_and_at_the_end() -> None:
    base = {"items": ["a", "b"], "tags": set_of(["x", "y"]), "name": "Alice", "runs": [1, 1]}
    found = repeated_item_arguments(["items", "tags", "name", "runs", "absent"], base)
    # Not the set (it holds no repeat) or the text, nor a list that repeats one already.
    assert found == [("items", ["a", "a", "b", "a"], "items_has_a_repeated_item")]
    assert repeated_item_arguments(["items"], {"items": []}) == []


def test_the_search_repeats_an_item_with_the_other_parameters_at_their_defaults(
    tmp_path: Path,
) -> None:
    text = (
        "def first_seen(items, key=None):\n"
        "    seen = set()\n"
        "    for item in items:\n"
        "        marker = key(item) if key else item\n"
        "        if marker not in seen:\n"
        "            seen.add(marker)\n"
        "            yield item\n"
    )
    found = candidates_of(tmp_path, "m.py", text, "first_seen")
    repeated = [c.args for c in found if c.why == "items_has_a_repeated_item"]
    # Not beside a made-up key, which would hand the placeholder items to a callable.
    assert repeated == [{"items": ["sample item", "sample item", "other item", "sample item"]}]
