"""The test search on a class of elements: real probes in the sandbox, no model.

Made-up project: tests/shelf_source.py's ``Shelf``, filled from its constructor's
``labels``. ``take`` does its work only for a label the shelf holds; ``within`` and
``minus`` compare another collection's labels with its own, ``merge`` puts them in.
Before: ``take`` was tried on an empty shelf only and its test named "changes order and
where" though nothing changed; ``within`` got the string "sample other", ``merge`` a
string read letter by letter, and ``minus()`` a test of its call with nothing. The
labels come from the module's own shelf (``PANTRY``): made-up ones are shown to no reader.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import bench, find_node, write_project
from shelf_source import SHELF

pytestmark = pytest.mark.integration

SOURCE = SHELF + '\n\nPANTRY = Shelf(labels=["flour", "sugar", "salt"])\n'


async def _search(root: Path, qualname: str) -> tuple[dict[str, Any], str]:
    node = find_node(root, "shelf.py", qualname)
    async with bench(root) as b:
        found = await b.run("test", "search_tests", node)
        path = "tests/test_shelf.py"
        text = b.text("test", node, path) if found["kept"] else ""
        return found, text


async def test_a_looked_up_argument_is_one_the_shelf_holds_and_no_name_claims_a_change(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path, {"shelf.py": SOURCE})
    found, text = await _search(root, "Shelf.take")
    assert "test_take_when_self_holds_label_changes_order_and_where" in found["kept"], found
    assert "shelf = Shelf(labels=[" in text
    # The call that found nothing to take says so, and under what condition.
    for name in found["kept"]:
        assert "changes" in name or "unchanged" in name, name
        assert not re.search(r"_\d+$", name), name
    assert "test_take_changes" not in text


async def test_a_collection_of_elements_is_drawn_from_the_shelf_s_and_never_a_string(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path, {"shelf.py": SOURCE})
    within, within_text = await _search(root, "Shelf.within")
    assert within["kept"], within
    assert "sample other" not in within_text and "shelf.within([" in within_text
    minus, minus_text = await _search(root, "Shelf.minus")
    assert minus["kept"], minus
    assert "shelf.minus()" not in minus_text and "shelf.minus([" in minus_text, minus_text
    merge, merge_text = await _search(root, "Shelf.merge")
    assert merge["kept"], merge
    assert 'merge("' not in merge_text and "shelf.merge([" in merge_text, merge_text
