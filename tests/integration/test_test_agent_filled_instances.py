"""Tests of state-changing methods reach their real cases: an instance with content, a
store checked through its reader.

An invented bounded cache's ``put`` overwrites a stored key, moves it to the newest end
and evicts the oldest past its capacity; only an instance already holding entries takes
those branches, so the search fills one through ``put`` itself and builds it with a small
capacity. An invented store's ``save`` only assigns its state; its test writes then reads
(``box.load()``), as a maintainer checks a store, instead of restating the assignment
(issue 56), with what the module's own call saves. A lower-case mapping class whose only
adder is ``__setitem__`` is filled item by item, its instance named apart from its class.
The sandbox, the probe and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

CACHE = """\
from collections import OrderedDict


class Recent:
    def __init__(self, capacity=None):
        self.capacity = capacity
        self.entries = OrderedDict()

    @property
    def order(self):
        return list(self.entries)

    def put(self, key, value):
        if key in self.entries:
            self.entries[key] = value
            self.entries.move_to_end(key)
        else:
            self.entries[key] = value
            if self.capacity is not None and len(self.entries) > self.capacity:
                self.entries.popitem(last=False)


def seen(recent: Recent, page: str) -> None:
    recent.put(page, 1)
"""

STORE = """\
class Box:
    def __init__(self):
        self.content = None

    def load(self):
        return self.content

    def save(self, data):
        self.content = data


def archive(box: Box) -> None:
    box.save("report")
"""


RANKED = """\
class ranked:
    def __init__(self):
        self.order = []
        self.store = {}

    def __setitem__(self, key, value):
        if key not in self.store:
            self.order.append(key)
        self.store[key] = value

    def lowest(self):
        key = min(self.order, key=self.store.__getitem__)
        return key, self.store[key]
"""


async def test_a_lower_case_mapping_is_filled_by_item_and_named_apart_from_its_class(
    tmp_path: Path,
) -> None:
    # Empty, `lowest` raises on `min(())`: only `obj[key] = value` gives it a case; and
    # `ranked = ranked()` would make the class a local of the test, unbound when called.
    found, data = await search_tests_on(
        tmp_path, {"ranked.py": RANKED}, "ranked.py", "ranked.lowest", "tests/test_ranked.py"
    )
    written = (data or b"").decode()
    assert found["kept"], found
    assert "ranked_obj = ranked()" in written, written
    assert 'ranked_obj["beta"] = "other value"' in written, written
    assert "__setitem__" not in written, written


async def test_a_bounded_cache_is_tested_filled_and_at_capacity(tmp_path: Path) -> None:
    found, data = await search_tests_on(
        tmp_path, {"recent.py": CACHE}, "recent.py", "Recent.put", "tests/test_recent.py"
    )
    written = (data or b"").decode()
    assert found["kept"], found
    # The instance is filled through its own method before the call under test.
    assert written.count(".put(") > len(found["kept"]), written
    assert "Recent(capacity=1)" in written, written  # the eviction, at a small bound
    assert 'recent.order == ["alpha"]' in written, written  # the oldest key evicted
    assert 'recent.order == ["beta", "alpha"]' in written, written  # an overwrite moves it


async def test_a_store_is_tested_through_its_reader(tmp_path: Path) -> None:
    found, data = await search_tests_on(
        tmp_path, {"box.py": STORE}, "box.py", "Box.save", "tests/test_box.py"
    )
    written = (data or b"").decode()
    assert found["kept"], found
    assert "box.load() ==" in written, written
    assert "def test_save_changes_what_load_returns" in written, written
    assert "box.content" not in written, written


SHELF = """\
class Shelf:
    def __init__(self, capacity=3):
        self.capacity = capacity
        self.books = []

    def put(self, title, pinned=False):
        self.books.append((title, pinned))

    def pinned_titles(self):
        found = []
        for title, pinned in self.books:
            if pinned:
                found.append(title)
        return found
"""

SHELF_README = """\
```python
>>> shelf = Shelf(capacity=2)
>>> shelf.put("Emma")
>>> shelf.put("Dune", pinned=True)
```
"""


async def test_an_instance_built_and_filled_as_the_docs_do_reaches_what_a_made_up_fill_cannot(
    tmp_path: Path,
) -> None:
    # The search's own fill passes the required title alone: nothing pinned, an empty
    # answer. The README's instance holds a pinned book (values/built_instances).
    files = {"shelf.py": SHELF, "README.md": SHELF_README}
    found, data = await search_tests_on(
        tmp_path, files, "shelf.py", "Shelf.pinned_titles", "tests/test_shelf.py"
    )
    written = (data or b"").decode()
    assert found["kept"], found
    assert 'shelf.put("Dune", pinned=True)' in written, written
    assert 'assert result == ["Dune"]' in written, written
