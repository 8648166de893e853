"""A container's word ("the item", "the collection") where the code names none is vague
(docstring/vague_subjects.py): unidiff's ``Line.is_removed`` "Check if the item was
removed." and ``PatchSet.added`` "... from all items in the collection.", boolean.py's
"from the collection" (edits: "wrong about the object")."""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

CONTAINERS = """\
MARK_GONE = "-"


class Row:
    def __init__(self, mark):
        self.mark = mark

    def gone(self):
        return self.mark == MARK_GONE


class Shelf:
    def __init__(self):
        self.items = []

    def first(self):
        return self.items[0]
"""


@pytest.mark.parametrize(
    ("name", "summary", "refused"),
    [
        # unidiff's Line.is_removed: "the item" is what the code never calls it.
        ("Row.gone", "Check if the item was removed.", True),
        ("Row.gone", "Return True when the row's mark is the removal mark.", False),
        # A class that holds its items may say so.
        ("Shelf.first", "Return the first of the items.", False),
    ],
)
def test_a_container_word_the_code_never_uses_is_vague(
    name: str, summary: str, refused: bool
) -> None:
    reason = summary_refusal(CONTAINERS, "pkg/rows.py", "method", name, summary)
    assert ("never names" in reason and "the item" in reason) is refused, reason


MODES = """\
import os

LINK_MODE = "120000"


class Entry:
    def __init__(self, mode):
        self.mode = mode

    def is_link(self):
        return self.mode == LINK_MODE

    def proxy(self):
        return os.environ.get("HTTP_PROXY", "")
"""


@pytest.mark.parametrize(
    ("name", "summary", "refused"),
    [
        # unidiff's is_submodule: "repeats a constant's name instead of saying what it means".
        ("Entry.is_link", "Return True if the mode is LINK_MODE.", True),
        ("Entry.is_link", "Return `self.mode == LINK_MODE` if the entry is a link.", True),
        ("Entry.is_link", "Return True if the entry is a symbolic link.", False),
        # An environment variable's name is text the code reads, not a constant.
        ("Entry.proxy", "Return the HTTP_PROXY environment variable, or an empty string.", False),
    ],
)
def test_a_constants_name_in_the_summary_is_refused(name: str, summary: str, refused: bool) -> None:
    reason = summary_refusal(MODES, "pkg/entries.py", "method", name, summary)
    assert ("names the constant" in reason) is refused, reason
