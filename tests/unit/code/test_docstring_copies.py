"""A method that returns a changed copy is not summed up as changing its instance."""

from __future__ import annotations

import pytest
from test_docstring_claims import refusal

# An immutable link: each change is a new one (hyperlink's URL, a persistent map).
LINK = """\
class Link:
    def __init__(self, path, query=()):
        self.path = path
        self.query = tuple(query)

    def replace(self, path=None, query=None):
        return self.__class__(path or self.path, self.query if query is None else query)

    def add(self, name, value):
        return self.replace(query=self.query + ((name, value),))

    def set(self, name, value) -> "Link":
        kept = [(k, v) for k, v in self.query if k != name]
        return type(self)(self.path, kept + [(name, value)])

    def remember(self, name):
        self.query = self.query + ((name, None),)
        return self

    def names(self):
        return [k for k, _ in self.query]
"""


@pytest.mark.parametrize("name", ["Link.add", "Link.set", "Link.replace"])
def test_a_change_verb_on_a_method_returning_a_new_one_is_refused(name: str) -> None:
    reason = refusal(name, "Add a query parameter to the link.", LINK)
    assert "returns a new Link" in reason, reason


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("Link.add", "Return a new link with the query parameter added."),  # says so
        ("Link.add", "Add a query parameter to a copy of the link."),
        ("Link.remember", "Add a name to the link's query."),  # it does change the instance
        ("Link.names", "List the names of the query."),  # no change verb
    ],
)
def test_a_summary_that_says_so_or_a_method_that_changes_is_kept(name: str, summary: str) -> None:
    assert "returns a new Link" not in refusal(name, summary, LINK)
