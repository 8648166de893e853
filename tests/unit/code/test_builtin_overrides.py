"""An override of a builtin base's method is called by position where the builtin is."""

from __future__ import annotations

import pytest

from remora.code.values.builtin_overrides import builtin_positional_count

MODULE = """\
class Sealed(dict):
    def pop(self, k, d=None):
        raise TypeError("sealed")

    def get(self, key, default=None):
        return default

    def update(self, e=None, **f):
        raise TypeError("sealed")

    def seal(self, reason):
        return reason

    def __getitem__(self, key):
        return None


class Words(str):
    def split(self, sep=None, maxsplit=-1):
        return [self]


class Tray(set):
    def add(self, item, *more):
        return None


class Box:
    def pop(self, k):
        return k


class Nested:
    class Inner(list):
        def append(self, thing):
            return None
"""


@pytest.mark.parametrize(
    ("owner", "name", "count"),
    [
        ("Sealed", "pop", 2),  # dict.pop has no signature to read: all before *args
        ("Sealed", "get", 2),  # dict.get(key, default=None, /)
        ("Sealed", "update", 1),  # **f stays keywords
        ("Sealed", "seal", 0),  # no dict method of that name
        ("Sealed", "__getitem__", 0),  # a special method is called through syntax
        ("Words", "split", 0),  # str.split(sep=None, maxsplit=-1) takes keywords
        ("Tray", "add", 1),
        ("Box", "pop", 0),  # no builtin base
        ("Nested.Inner", "append", 1),  # list.append(object, /)
        ("Missing", "pop", 0),
    ],
)
def test_the_leading_parameters_a_builtin_base_takes_by_position(
    owner: str, name: str, count: int
) -> None:
    assert builtin_positional_count(MODULE, owner, name) == count


def test_a_text_that_does_not_parse_has_none() -> None:
    assert builtin_positional_count("class (:", "Sealed", "pop") == 0
