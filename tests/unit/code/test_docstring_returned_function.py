"""A function that only returns a function it defines is not described as doing its work."""

from __future__ import annotations

import pytest

from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.parsing import NodeRef, locate, parse

SOURCE = """\
def scale(key, factor):
    def apply(record):
        record[key] *= factor

    return apply


def dropper(key):
    return lambda record: record.pop(key, None)


def maybe_scale(key, factor):
    if factor == 1:
        return None
    return scale(key, factor)


def scaled(record, key, factor):
    record[key] *= factor
    return record


def chooser(kind):
    def first(items):
        return items[0]

    def last(items):
        return items[-1]

    if kind == "first":
        return first
    return last


def decoder(encoding):
    return functools.partial(decoded, encoding=encoding)


def lookup(table, key):
    def missing():
        raise KeyError(key)

    return table.get(key) or missing
"""


def summary_refusal(name: str, summary: str) -> str:
    node = locate(parse(SOURCE, "pkg/records.py"), NodeRef("function", name, 0))
    _, refused = check_pieces(node, Pieces(summary=summary))
    return "; ".join(r["reason"] for r in refused if r["field"] == "summary")


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("scale", "Multiply the value of a key in a record by a factor."),
        ("dropper", "Remove a key from the record if it is there."),
        ("chooser", "Pick the first or the last of the items."),
        ("decoder", "Decode a given string using the specified encoding."),  # natsort's
        # The work first, the return after: the call is said to do it.
        ("scale", "Scale the record's key and return the result."),
        # A word for a function that names what it takes, not what comes back (blinker's
        # ``connect_via``: "reads as if it connects something right away").
        ("scale", "Apply a factor to a function's record."),
    ],
)
def test_the_returned_functions_work_is_not_the_calls(name: str, summary: str) -> None:
    assert summary_refusal(name, summary).startswith(f"it describes what {name} does when called")


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("scale", "Return a function that multiplies a record's key by a factor."),
        ("dropper", "Make an operation that removes a key from a record."),
        ("chooser", "A picker function, chosen by its kind."),
        ("decoder", "Return a decoder of the given encoding."),
        # It returns another call's value, or a value besides its own function: not only one.
        ("maybe_scale", "Scale a key of records by a factor unless it is one."),
        ("scaled", "Multiply the value of a key in a record by a factor."),
        ("lookup", "Look a key up in the table."),
    ],
)
def test_a_summary_that_says_what_comes_back_or_of_other_code_stands(
    name: str, summary: str
) -> None:
    assert "does when called" not in summary_refusal(name, summary)
