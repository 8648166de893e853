"""A summary's ``None`` needs a path of the code that returns it (docstring/returned_kind.py).

A reviewer of a sorted mapping rejected "Return the item at the given index, or None if
the index is out of range." on a method that returns ``key, self[key]`` and raises
``IndexError`` past the end: no path returns None.
"""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

SOURCE = """\
from typing import Optional


class Shelf:
    def __init__(self):
        self.keys = []
        self.values = {}

    def peek(self, index=-1):
        key = self.keys[index]
        return key, self.values[key]

    def label(self, index):
        if index < 0:
            raise IndexError("negative")
        return f"#{index}"

    def get(self, key, default=None):
        return self.values.get(key, default)

    def lookup(self, key):
        return self.values.get(key)

    def first(self) -> Optional[str]:
        return str(self.keys[0]) if self.keys else self.keys

    def find(self, key):
        for found in self.keys:
            if found == key:
                return len(found)

    def size(self):
        return len(self.keys)
"""


def refused_for(name: str, summary: str) -> str:
    return summary_refusal(SOURCE, "pkg/shelf.py", "method", name, summary)


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("Shelf.peek", "Return the key and value at the index, or None if it is out of range."),
        ("Shelf.label", "Return the label of the index, or None when it is negative."),
    ],
)
def test_a_none_no_path_returns_is_refused(name: str, summary: str) -> None:
    assert refused_for(name, summary).startswith("it says the code may return None"), name


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        # None written in the code (a default handed back), or a call that may give it.
        ("Shelf.get", "Return the value of the key, or the default (None) if it is missing."),
        ("Shelf.lookup", "Return the value of the key, or None if it is missing."),
        # The annotation lets None through; the loop may end without a return.
        ("Shelf.first", "Return the first key as text, or None if there is none."),
        ("Shelf.find", "Return the length of the key found, or None if it is missing."),
        # No None claimed.
        ("Shelf.size", "Return how many keys the shelf holds."),
    ],
)
def test_a_none_the_code_may_return_stands(name: str, summary: str) -> None:
    assert "may return None" not in refused_for(name, summary), name
