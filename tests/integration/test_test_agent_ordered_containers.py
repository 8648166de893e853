"""A container class's tests say what a plain container would not pass: its order, its type.

Reviewers of a sorted-containers project edited tests that "would pass on a plain
``dict``": ``setdefault`` checked by ``d["beta"] == ...`` alone, ``copy`` by ``==`` to a
value a plain ``list`` also equals. The real search (real Monty, real pytest) on a small
project of its own: a mapping that iterates its keys sorted is asserted in that order after
a call that stores one, and a returned container that equals the plain one it holds has its
type asserted beside the ``==``.
"""

from __future__ import annotations

from pathlib import Path

from bundled_agents_support import search_tests_on

SHELVES = """\
class SortedBag(dict):
    def __init__(self, items=()):
        super().__init__(items)
        self._keys = sorted(dict.keys(self))

    def __iter__(self):
        return iter(self._keys)

    def put(self, key, value):
        if key not in self:
            self._keys.append(key)
            self._keys.sort()
        dict.__setitem__(self, key, value)


def stock():
    bag = SortedBag()
    bag.put("pear", 4)
    return bag


class Stack(list):
    def __init__(self, items=(3, 1, 2)):  # not empty: the top of an empty one is itself
        super().__init__(items)

    def top(self, count):
        return Stack(self[-count:])
"""


async def _search(tmp_path: Path, qualname: str) -> str:
    files = {"shelves.py": SHELVES}
    found, data = await search_tests_on(
        tmp_path, files, "shelves.py", qualname, "tests/test_shelves.py"
    )
    assert found["kept"] and data is not None, found  # kept: passed twice, each killing a mutant
    return data.decode()


async def test_a_mapping_that_orders_its_keys_is_asserted_in_that_order(tmp_path: Path) -> None:
    text = await _search(tmp_path, "SortedBag.put")
    # The key checked one by one would pass were `put` to skip the key list.
    assert "sorted_bag.put(" in text, text
    assert "assert list(sorted_bag) == [" in text, text


async def test_a_returned_container_equal_to_a_plain_one_has_its_type_asserted(
    tmp_path: Path,
) -> None:
    text = await _search(tmp_path, "Stack.top")
    assert "result = stack.top(" in text, text
    assert "assert type(result) is Stack" in text, text
