"""A call given None for every argument is no test where the node never tells None apart.

A blind reviewer rejected ``fake_isbn(None, author=None, publisher=None, sid=None) ==
"None663243286"``: "locks in a value for input that never happens". Invented snippets.
"""

from __future__ import annotations

import ast

import pytest

from remora.code.testgen.none_calls import unhandled_nones

MODULE = """\
def key(title, author="someone", sid=1):
    return "%s %s %s" % (sid, title, author)


def label(title, author):
    if author is None:
        return title
    return f"{title} by {author}"


def name(first, last):
    return (first or "") + " " + (last or "")


def one(title):
    return "%s" % title


def checked(scheme, require):
    return is_valid(scheme, require)
"""


def _function(name: str) -> ast.FunctionDef:
    tree = ast.parse(MODULE)
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


@pytest.mark.parametrize(
    ("node", "args", "unhandled"),
    [
        ("key", {"title": None, "author": None, "sid": None}, True),
        ("key", {"title": None, "author": "Ann"}, False),  # not every argument None
        ("label", {"title": None, "author": None}, False),  # `author is None` handled
        ("name", {"first": None, "last": None}, False),  # `first or ""` tests its truth
        ("one", {"title": None}, False),  # one argument alone: its own case
        ("checked", {"scheme": None, "require": None}, False),  # handed on: the callee may
    ],
)
def test_every_argument_none_where_none_is_told_apart_by_nothing(
    node: str, args: dict[str, object], unhandled: bool
) -> None:
    assert unhandled_nones({"args": args}, _function(node)) is unhandled
