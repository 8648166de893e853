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


class Sealed(list):
    def _refuse(self, *args):
        raise TypeError("sealed")

    append = _refuse
    __setitem__ = _refuse

    def _count(self):
        return len(self)

    size = property(_count)

    def _spare(self):
        return 0

    _alias = _spare


def _shown(value):
    return str(value)


render = _shown


class Expander:
    def expand(self, kind, value):
        handler = self._plain
        if kind == "list":
            handler = self._listed
        return handler(value)

    def _plain(self, value):
        return str(value)

    def _listed(self, value):
        return ",".join(map(self._item, value))

    def _item(self, item):
        return str(item)


class __Numerals:
    @classmethod
    def encode(cls, number):
        return cls.digits(number)

    @classmethod
    def digits(cls, number):
        return str(number)


def encode(number):
    return __Numerals.encode(number)


class _Unused:
    def run(self):
        return 1


class _Combined:
    def __call__(self, value):
        return self._exec(value)

    def _exec(self, value):
        return value


class _Middle(_Combined):
    pass


class Either(_Middle):
    def _exec(self, value):
        return value or None
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
        ("Sealed._refuse", "Sealed.append"),  # what the public names bound to it do
        ("Sealed._count", "Sealed.size"),  # a property of it
        ("Sealed._spare", None),  # bound to a private name only
        ("_shown", "render"),  # a module's public name for it
        ("Expander._plain", "Expander.expand"),  # read as a value, called later
        ("Expander._listed", "Expander.expand"),
        ("Expander._item", "Expander.expand"),  # handed to map
        # A private class's methods are private: a public function reaching them.
        ("__Numerals.encode", "encode"),
        ("__Numerals.digits", "encode"),  # through its class's other method
        ("_Unused.run", None),  # nothing public reaches it
        # A private base's method a public class inherits: Either(...)(value) reaches it.
        ("Either._exec", "_Combined.__call__"),
        ("_Combined._exec", "_Combined.__call__"),
    ],
)
def test_the_public_caller_of_a_private_helper(qualname: str, caller: str | None) -> None:
    assert public_caller(MODULE, qualname) == caller


def test_special_names_are_not_private() -> None:
    assert is_private("_x") and is_private("__mangled")
    assert not is_private("__init__") and not is_private("name")


SETUP = """\
import sys


def _load_text(data):
    return _rows(data.decode())


def _load_bytes(data):
    return _rows(data)


def _rows(data):
    return [_READERS[row[:1]](row) for row in data.split()]


def _read_word(row):
    return row


def _read_local(row):
    return row


_READERS = {}


def _setup():
    global load
    _READERS["w"] = _read_word
    readers = {}
    readers["l"] = _read_local
    if sys.version_info[0] == 3:
        load = _load_text
    else:
        load = _load_bytes


def _stray(data):
    return data


_setup()
"""


@pytest.mark.parametrize(
    ("qualname", "caller"),
    [
        # Bound to the public name by a set-up function's ``global``, on either Python.
        ("_load_text", "load"),
        ("_load_bytes", "load"),
        ("_rows", "load"),  # through them
        ("_read_word", "load"),  # through the module's table _rows reads
        ("_read_local", None),  # put in a table of the function's own
        ("_stray", None),
    ],
)
def test_a_name_bound_through_global_is_a_public_caller(qualname: str, caller: str | None) -> None:
    assert public_caller(SETUP, qualname) == caller


DECLARED = """\
__all__ = ("expand",)


def expand(text, limit=100):
    return list(Expander(limit).expand(text))


def digits(text):
    return int(text)


class Expander:
    def __init__(self, limit):
        self.limit = limit

    def expand(self, text):
        self.account(len(text))
        yield text

    def account(self, count):
        if count > self.limit:
            raise ValueError(count)
        return count

    def unused(self):
        return self.limit
"""


@pytest.mark.parametrize(
    ("qualname", "caller"),
    [
        ("expand", None),  # exported
        ("Expander.expand", "expand"),  # left out of __all__, driven by what is exported
        ("Expander.account", "expand"),
        ("digits", None),  # left out, but nothing exported reaches it: tested itself
        ("Expander.unused", None),
    ],
)
def test_a_module_s_all_is_its_interface(qualname: str, caller: str | None) -> None:
    assert public_caller(DECLARED, qualname) == caller


@pytest.mark.parametrize(
    "declaration",
    [
        "__all__ = ['expand']\n__all__ += ['Expander']\n",  # extended: names not read
        "__all__ = [name for name in ('expand',)]\n",  # computed
        "",  # none: every name without an underscore is public
    ],
)
def test_an_interface_not_read_whole_leaves_names_public(declaration: str) -> None:
    text = DECLARED.replace('__all__ = ("expand",)\n', declaration)
    assert public_caller(text, "Expander.account") is None
