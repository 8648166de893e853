"""A method that hands its call to a method its mapping lacks gets no summary
(docstring/missing_methods.py): dotmap's six Python 2 leftovers (``self._map.iterkeys()``
on an ``OrderedDict``), each documented as if it worked, all rejected as false."""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

SOURCE = """\
from collections import OrderedDict


class Bag:
    def __init__(self):
        self._map = OrderedDict()
        self._seen = []

    def iterkeys(self):
        return self._map.iterkeys()

    def keys(self):
        return self._map.keys()

    def seen_first(self):
        return self._seen.index(0)

    def has(self, key):
        return self._map.has_key(key)
"""


@pytest.mark.parametrize(
    ("name", "summary", "lacking"),
    [
        ("Bag.iterkeys", "Return an iterator over the bag's keys.", "OrderedDict.iterkeys"),
        ("Bag.has", "Check whether the bag holds the key.", "OrderedDict.has_key"),
    ],
)
def test_a_call_handed_to_a_method_the_mapping_lacks_is_refused(
    name: str, summary: str, lacking: str
) -> None:
    reason = summary_refusal(SOURCE, "pkg/bag.py", "method", name, summary)
    assert lacking in reason and "AttributeError" in reason, reason


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("Bag.keys", "Return a view of the bag's keys."),
        ("Bag.seen_first", "Return the position of the first zero seen."),
    ],
)
def test_a_method_the_type_has_stands(name: str, summary: str) -> None:
    assert "AttributeError" not in summary_refusal(SOURCE, "pkg/bag.py", "method", name, summary)
