"""What a summary says is returned must be something the code's returns name
(docstring/returned_noun.py).

The parsers are mistune 3.4.0's shape (a development project of the review benchmark): each
appends a token to the state and returns the position after what it read, and its blind
reviewers rejected "Parse an ATX heading and return its level.", "... return its length.",
"... return its tokens." as false.
"""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

SOURCE = """\
from typing import Optional


def parse_atx_heading(block, m, state) -> int:
    level = len(m.group("atx_1"))
    state.append_token({"type": "heading", "attrs": {"level": level}})
    return m.end() + 1


def parse_block_quote(block, m, state) -> Optional[int]:
    end_pos = block.parse_quote(m, state)
    if end_pos is None:
        return None
    return end_pos


def ttl(cache, key):
    key_ttl = cache.max_age - cache.age(key)
    return key_ttl


def pairs(items):
    return zip(items, items[1:])


def heading_level(m) -> int:
    level = len(m.group("atx_1"))
    return level


def scan(src, pos):
    end = src.find("]", pos)
    return end + 1


def get(store, key, default=None):
    return store.get(key, default)
"""


def refused_for(name: str, summary: str) -> str:
    return summary_refusal(SOURCE, "pkg/block.py", "function", name, summary)


@pytest.mark.parametrize(
    ("name", "summary", "named"),
    [
        ("parse_atx_heading", "Parse an ATX heading and return its level.", "'level'"),
        ("parse_block_quote", "Parse a block quote and return its length.", "'length'"),
        ("scan", "Scan the source and return its tokens.", "'tokens'"),
    ],
)
def test_a_returned_thing_no_return_names_is_refused(name: str, summary: str, named: str) -> None:
    reason = refused_for(name, summary)
    assert f"returns {named}, which nothing it returns names" in reason


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        # the words of the returned expression, of a returned local's value, of the name
        ("parse_atx_heading", "Add a heading token and return the end of the match."),
        ("heading_level", "Return the heading level of the match."),
        ("scan", "Return the position after the end of the bracket."),
        # initials ("time to live": ttl), a part of a name ("pair" of pairs)
        ("ttl", "Return the time-to-live of the key in the cache."),
        ("pairs", "Return successive pairs of the items."),
        # a generic noun, a truth value or a type word names nothing to hold
        ("get", "Return the value stored under the key, or the default."),
        ("parse_block_quote", "Parse a block quote and return None when it is not one."),
    ],
)
def test_a_returned_thing_the_code_names_stands(name: str, summary: str) -> None:
    assert "which nothing it returns names" not in refused_for(name, summary)
