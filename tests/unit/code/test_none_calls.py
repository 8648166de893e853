"""A call given None is no test where the node never tells None apart.

A blind reviewer rejected ``fake_isbn(None, author=None, publisher=None, sid=None) ==
"None663243286"``: "locks in a value for input that never happens"; others rejected
``str_coerce(None) == "None"`` and ``dumps(None) == "null"`` (a None handed on to other
code's most trivial path). Invented snippets.
"""

from __future__ import annotations

import ast

import pytest

from remora.code.testgen.none_calls import unhandled_nones
from remora.code.values.untold_nones import untold_none

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


def coerced(value):
    return str(value)


def pushed(stack, item):
    stack.append(item)


def cleared(cache, entries=None):
    cache.entries = entries


def typed(value: int | None, count=2):
    return [value] * count


def label_of(obj, prefix="x"):
    if obj is None:
        return prefix
    return prefix + type(obj).__name__


def kind_of(val, other):
    if type(val).__name__ == "NoneType":
        return "null"
    if other.__class__.__name__ in ("int", "NoneType"):
        return "number"
    return type(other).__name__
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
        ("one", {"title": None}, False),  # one argument alone: untold_none's to judge
        ("checked", {"scheme": None, "require": None}, True),  # handed on: the trivial path
    ],
)
def test_every_argument_none_where_none_is_told_apart_by_nothing(
    node: str, args: dict[str, object], unhandled: bool
) -> None:
    assert unhandled_nones({"args": args}, _function(node)) is unhandled


@pytest.mark.parametrize(
    ("node", "parameter", "untold"),
    [
        ("one", "title", True),  # formatted as "None"
        ("coerced", "value", True),  # str(None): Python's behaviour
        ("pushed", "item", True),  # handed on as it is
        ("cleared", "entries", False),  # a None default declares it
        ("typed", "value", False),  # annotated: excluded_value judges that
        ("typed", "count", True),  # unannotated, its default not None
        ("label_of", "obj", False),  # `obj is None`: a case it handles
        ("name", "first", False),  # `first or ""`
        # dicttoxml's get_xml_type tells None apart by its type's name.
        ("kind_of", "val", False),
        ("kind_of", "other", False),
    ],
)
def test_a_none_the_node_neither_declares_nor_tells_apart(
    node: str, parameter: str, untold: bool
) -> None:
    assert untold_none(_function(node), parameter) is untold
