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


def plugin(self, text):
    return "<p>" + text + "</p>"


def label_of(obj, prefix="x"):
    if obj is None:
        return prefix
    return prefix + type(obj).__name__
"""


def _function(name: str) -> ast.FunctionDef:
    tree = ast.parse(MODULE)
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


@pytest.mark.parametrize(
    ("node", "args", "unhandled"),
    [
        ("key", {"title": None, "author": None, "sid": None}, True),
        ("key", {"title": None, "author": "Ann"}, True),  # one None, formatted as "None"
        ("label", {"title": "Emma", "author": None}, False),  # `author is None` handled
        ("label", {"title": None, "author": None}, True),  # `title` is not
        ("name", {"first": None, "last": None}, False),  # `first or ""` tests its truth
        ("checked", {"scheme": None, "require": None}, True),  # handed on: the trivial path
        ("one", {"title": None}, True),  # one argument alone, read and not told apart
        ("coerced", {"value": None}, True),  # str(None): Python's behaviour
        ("pushed", {"stack": [], "item": None}, True),  # handed on among other arguments
        ("cleared", {"cache": 1, "entries": None}, False),  # a None default declares it
        ("typed", {"value": None}, False),  # annotated: excluded_value judges that
        ("typed", {"value": 1, "count": None}, True),  # unannotated, default not None
        ("plugin", {"self": None, "text": "a"}, False),  # never read: None stands for nothing
        ("label_of", {"obj": None}, False),  # `obj is None`: a case it handles
    ],
)
def test_a_none_the_node_never_tells_apart(
    node: str, args: dict[str, object], unhandled: bool
) -> None:
    assert unhandled_nones({"args": args}, _function(node)) is unhandled
