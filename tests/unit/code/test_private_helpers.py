"""A private helper a public function reaches is tested through that function."""

from __future__ import annotations

import pytest

from remora.code.values.private_helpers import is_private, public_caller

MODULE = """\
def parse(text):
    return _fields(text)


def _fields(text):
    return [_field(part) for part in text.split(",")]


def _field(part):
    return part.strip()


def _orphan(x):
    return x


class Clock:
    def __init__(self, offset):
        self._offset = self._checked(offset)

    def _checked(self, offset):
        return offset

    def _recurse(self, n):
        return self._recurse(n - 1) if n else 0
"""


@pytest.mark.parametrize(
    ("qualname", "caller"),
    [
        ("_fields", "parse"),
        ("_field", "parse"),  # through another private helper
        ("Clock._checked", "Clock.__init__"),  # a special method is public code
        ("_orphan", None),  # nothing public reaches it: tested as any node
        ("Clock._recurse", None),  # it reaches only itself
        ("parse", None),  # public
    ],
)
def test_the_public_caller_of_a_private_helper(qualname: str, caller: str | None) -> None:
    assert public_caller(MODULE, qualname) == caller


def test_special_names_are_not_private() -> None:
    assert is_private("_x") and is_private("__mangled")
    assert not is_private("__init__") and not is_private("name")
