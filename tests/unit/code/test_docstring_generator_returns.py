"""A generator is not described as returning its items (docstring/returned_kind.py).

sqlitedict's reviewer sent back "Execute a request and return the results." on a method
that yields the rows: calling it runs no query until it is iterated. The code here is
invented.
"""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

SOURCE = """\
class Feed:
    def __init__(self, rows):
        self.rows = rows

    def fetch(self, query):
        for row in self.rows:
            if query in row:
                yield row

    def first(self, query):
        return next(self.fetch(query), None)
"""


def refused_for(name: str, summary: str) -> str:
    return summary_refusal(SOURCE, "pkg/feed.py", "method", name, summary)


@pytest.mark.parametrize(
    "summary",
    ["Look up the query and return the matching rows.", "Get the rows holding the query."],
)
def test_a_generator_said_to_return_its_items_is_refused(summary: str) -> None:
    assert "it is a generator" in refused_for("Feed.fetch", summary)


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("Feed.fetch", "Yield the rows that hold the query."),
        ("Feed.fetch", "Return an iterator over the rows holding the query."),
        ("Feed.first", "Return the first row holding the query, or None."),  # no generator
    ],
)
def test_a_generator_said_to_yield_stands(name: str, summary: str) -> None:
    assert "it is a generator" not in refused_for(name, summary)
