"""A node whose one ``return`` hands its arguments on as they are gets no test: its test
could only restate the body."""

from __future__ import annotations

import ast

import pytest

from remora import python_ast
from remora.code.testgen.pass_through import (
    only_raises_constants,
    only_type_checks,
    own_code,
    passes_through,
)
from remora.code.values.private_helpers import qualified_functions

# An invented tree builder, its reader and a few computing neighbours. ``shapes`` stands
# for a module of the same project (``from shapes import nodes``); ``math`` is a library.
MODULE = '''\
import math

from shapes import nodes

DEFAULTS = {"depth": 1}


def leaf(label):
    return {"kind": "leaf", "parts": [], "label": label}


def blank():
    """An empty node."""
    return {"kind": "blank", "parts": []}


def pair(left, right):
    return {"kind": "pair", "parts": [left, right]}


def span(bounds):
    return {"kind": "span", "parts": [bounds[0], bounds[-1]]}


def keep_class(cls):
    return cls


def merged(base, *more, **extra):
    return {**base, "more": [*more], **extra}


def wrapped(label):
    return nodes.label(label)


def handed(fn, value):
    return fn(value)


def tagged(label):
    return Tag(label, kind="plain")


def doubled(x):
    return x * 2


def non_empty(x):
    return len(x) > 0


def size(arg):
    return len(arg)


def rounded_up(x):
    return math.ceil(x)


def greeting(name):
    return f"hello {name}"


def emphasis(text):
    return "<em>" + text + "</em>"


def priced(x):
    return f"{x:.2f} EUR"


def quoted(x):
    return f"name={x!r}"


def joined(a, b):
    return a + b


def as_text(x):
    return f"{x}"


def first_word(text):
    return text.split()[0]


def shouted(label):
    return leaf(label.upper())


def parsed(text):
    return Reader().read(text)


def total(xs):
    return _summed(xs)


def _summed(xs):
    return sum(xs)


def labels(items):
    return [leaf(i) for i in items]


def maybe(x):
    return x if x else None


def both(a, b):
    return (leaf(a), leaf(b))


def settings():
    return DEFAULTS


def tail(items, start):
    return items[start]


def counted(label):
    print(label)
    return label


class Tag:
    def __init__(self, label, kind):
        self.label = label
        self.kind = kind


class Reader:
    def __init__(self, text=""):
        self.parts = text.split("/")
        self._items = {}
        self._data = {}

    def read(self, text):
        return text.strip()

    def visit_same(self, node, value):
        return value

    def token_label(self, token):
        return nodes.label(token["value"])

    def token_blank(self, token):
        return blank()

    def child(self, node, value):
        return self.visit_same(node["children"][0], value)

    def __enter__(self):
        return self

    @classmethod
    def built(cls, text):
        return cls(text)

    def lookup(self, key):
        return self._items[key]

    def get_parts(self):
        return self.parts

    def stored(self, key):
        return self._data.get(key)

    def checked(self, value):
        return self._check(value)

    def _check(self, value):
        return value

    def delegated(self, value):
        return self.parts.index(value)
'''

TREE = python_ast.parse(MODULE)
FUNCTIONS = qualified_functions(TREE)
METHODS_TAKING = {"Reader.built": "cls"}


def _passes(qualname: str) -> bool:
    function = FUNCTIONS[qualname]
    owner = METHODS_TAKING.get(qualname, "self") if "." in qualname else None
    return passes_through(function, own_code(TREE, {"nodes"}, owner))


@pytest.mark.parametrize(
    "qualname",
    [
        "leaf",  # a display of constants and the parameter
        "blank",  # constants alone, beside a docstring
        "pair",
        "span",  # constant-subscript reads of a parameter, a signed index too
        "keep_class",  # a decorator handing its class back
        "merged",  # unpacked into a display
        "wrapped",  # handed to a function of a project module
        "handed",  # to the callable it was given
        "tagged",  # to a class of its module, with a constant keyword
        "Reader.visit_same",
        "Reader.token_label",  # a read of its argument handed to the project's builder
        "Reader.token_blank",  # a function of its module called with nothing
        "Reader.child",  # a method of the module called on self
        "Reader.__enter__",
        "Reader.built",
        # text around the arguments, a template (mistune's renderers: "a trivial
        # concatenation", every such test rejected)
        "greeting",
        "emphasis",
    ],
)
def test_a_body_returning_its_arguments_as_given_passes_through(qualname: str) -> None:
    assert _passes(qualname)


@pytest.mark.parametrize(
    "qualname",
    [
        "doubled",  # an operator
        "non_empty",  # a comparison
        "size",  # a builtin computes: the node's point is that computation
        "rounded_up",  # and a library
        "priced",  # a value formatted
        "quoted",  # its repr
        "joined",  # a sum without text in it adds
        "as_text",  # and an f-string without text converts
        "first_word",  # a call on the argument, then a subscript of its result
        "shouted",  # a computed argument
        "parsed",  # a call on something computed
        "total",  # a private helper is tested through this node
        "labels",  # a comprehension
        "maybe",  # a condition
        "both",  # two calls
        "settings",  # module state, not an argument
        "tail",  # a subscript whose key the call gives
        "counted",  # more than the return
        "Reader.lookup",
        "Reader.get_parts",  # the instance's state, which its constructor computed
        "Reader.stored",  # a method of a held dict, not of the module
        "Reader.checked",  # a private method: tested through this one
        "Reader.delegated",
    ],
)
def test_a_body_that_computes_keeps_its_tests(qualname: str) -> None:
    assert not _passes(qualname)


def test_a_name_the_module_imports_from_a_library_is_not_the_projects_own() -> None:
    # ``nodes`` unknown as a project module: its call is some library's computation.
    function = FUNCTIONS["wrapped"]
    assert not passes_through(function, own_code(TREE, set(), None))


def test_an_async_body_is_read_alike() -> None:
    tree = python_ast.parse("async def same(value):\n    return value\n")
    function = tree.body[0]
    assert isinstance(function, ast.AsyncFunctionDef)
    assert passes_through(function, own_code(tree, set(), None))


TYPE_CHECKS = '''\
from collections import abc


def mapping_like(value):
    return isinstance(value, (dict, abc.MutableMapping))


def iterable_not_text(obj):
    """Whether obj iterates and is not text."""
    return hasattr(obj, "__iter__") and not isinstance(obj, str)


def handler(candidate):
    return callable(candidate) or issubclass(candidate, Exception)


def of_module_state(value):
    return isinstance(value, KINDS[0])


def on_an_attribute(item):
    return isinstance(item.value, int)


def with_more(value):
    return isinstance(value, int) and value > 0
'''


@pytest.mark.parametrize(
    ("name", "restates"),
    [
        ("mapping_like", True),
        ("iterable_not_text", True),
        ("handler", True),
        ("of_module_state", False),  # the types asked come from a computed lookup
        ("on_an_attribute", False),  # a read of the argument, not the argument
        ("with_more", False),  # a comparison beside the check
    ],
)
def test_a_body_of_type_checks_of_its_arguments_restates_them(name: str, restates: bool) -> None:
    functions = qualified_functions(python_ast.parse(TYPE_CHECKS))
    assert only_type_checks(functions[name]) is restates


RAISES = """\
class Extra:
    def __call__(self, value):
        \"\"\"A marker.\"\"\"
        raise SchemaError("'Extra' should never be called")


def abstract(self):
    raise NotImplementedError


def refuse(value):
    raise ValueError(f"refused {value!r}")


def checked(value):
    if value is None:
        raise ValueError("no value")
    return value
"""


@pytest.mark.parametrize(
    ("name", "restates"),
    [
        ("Extra.__call__", True),  # a marker refusing to be called: the line restated
        ("abstract", False),  # NotImplementedError: an API refused, or a stub (elsewhere)
        ("refuse", False),  # the message shows the argument: the call's value pinned
        ("checked", False),  # a condition decides
    ],
)
def test_a_body_that_only_raises_a_fixed_exception_restates_it(name: str, restates: bool) -> None:
    functions = qualified_functions(python_ast.parse(RAISES))
    assert only_raises_constants(functions[name]) is restates
