"""A summary may call a function a decorator only when its code shows one."""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

SOURCE = """\
import functools

HANDLERS = []


class Handler:
    pass


def with_base(base):
    if base is None:
        return object
    return base.__mro__[-1]


def handler_class(version):
    return Handler


def register(func):
    HANDLERS.append(func)
    return func


def timed(fn):
    @functools.wraps(fn)
    def inner(*args):
        return fn(*args)

    return inner


def route(path):
    def wrap(fn):
        HANDLERS.append((path, fn))
        return fn

    return wrap


def lazy(fn):
    return lambda *args: fn(*args)


def tagged(label):
    return Handler


@tagged("x")
class Tagged:
    pass
"""


def refused_for(name: str, summary: str) -> str:
    return summary_refusal(SOURCE, "pkg/plugins.py", "function", name, summary)


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("with_base", "Decorator that adds a base class to the given class."),
        ("handler_class", "A decorator to register a handler class for a version."),
    ],
)
def test_a_function_that_makes_no_decorator_is_not_called_one(name: str, summary: str) -> None:
    assert refused_for(name, summary).startswith(f"it calls {name} a decorator")


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        # It hands back the function it was given.
        ("register", "Decorator that adds a function to the handlers."),
        # It returns a function (or a lambda) it defines.
        ("timed", "Decorate a function so that it is timed."),
        ("route", "Decorator factory that adds a handler for the path."),
        ("lazy", "Decorator that defers a call of the function."),
        # Its own module applies it with '@'.
        ("tagged", "Decorator that marks a class with the label."),
    ],
)
def test_a_function_whose_code_shows_a_decorator_may_be_called_one(name: str, summary: str) -> None:
    assert "a decorator" not in refused_for(name, summary)
