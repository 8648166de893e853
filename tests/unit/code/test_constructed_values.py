"""A returned value whose repr rebuilds it is asserted by that repr, its classes imported.

A value of a class (a dataclass, ``Fraction``, a list of ``datetime.date``) has no literal
form, so the tests asserted its length or one attribute; a maintainer writes ``assert
result == Point(x=2, y=3)``. The probe reports the repr as such only when it rebuilds an
equal value of the same type from classes a test can import by the names it uses.
"""

from __future__ import annotations

import datetime
import enum
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from probe_support import failed_tests, observed_test

from remora.code.probes.programs.constructed_values import (
    class_display,
    constructed,
    enum_member,
)


@dataclass
class Spot:
    x: int
    y: int


class Plain:
    """Compared by identity: an equal one cannot be built."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __repr__(self) -> str:
        return f"Plain({self.n})"


class Lenient(Plain):
    """Equal to anything: comparing with it tells nothing."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = Plain.__hash__


class Halving(Plain):
    """Its repr shows a value its constructor does not keep as given."""

    def __init__(self, n: int) -> None:
        super().__init__(n // 2)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Halving) and other.n == self.n

    __hash__ = Plain.__hash__


def _form(value: object) -> dict[str, object] | None:
    return constructed(value, repr(value))


def test_a_repr_that_rebuilds_an_equal_value_says_what_to_import() -> None:
    assert _form(Spot(1, 2)) == {"imports": [[__name__, "Spot"]]}
    assert _form(Fraction(1, 2)) == {"imports": [["fractions", "Fraction"]]}
    assert _form([datetime.date(2024, 1, 1), datetime.date(2024, 1, 2)]) == {
        "imports": [["datetime"]]
    }
    assert _form({"at": Spot(0, -1)}) == {"imports": [[__name__, "Spot"]]}


def test_no_form_where_the_repr_does_not_rebuild_it_or_equality_tells_nothing() -> None:
    assert _form(Plain(1)) is None  # identity: a rebuilt one is never equal
    assert _form(Lenient(1)) is None  # equal to any object
    assert _form(Halving(4)) is None  # Halving(2) rebuilds Halving(1)
    assert _form(object()) is None  # no call in the repr
    assert _form([1, 2]) is None  # a literal: the literal form says it

    @dataclass
    class Local:
        x: int

    assert _form(Local(1)) is None  # no module reaches it by its name


SPOTS = """\
from dataclasses import dataclass
from fractions import Fraction


@dataclass
class Spot:
    x: int
    y: int

    def moved(self, dx, dy):
        return Spot(self.x + dx, self.y + dy)


def share(part, whole):
    return Fraction(part, whole)
"""


def _written(tmp_path: Path, name: str, args: dict[str, object]) -> str:
    owner = "Spot" if name == "moved" else None
    owner_args = {"x": 1, "y": 2}
    names = {"Spot", "share"}
    return observed_test(tmp_path, "spots", name, args, names, owner=owner, owner_args=owner_args)


def test_the_written_tests_compare_with_the_rebuilt_value_and_catch_a_changed_one(
    tmp_path: Path,
) -> None:
    (tmp_path / "spots.py").write_text(SPOTS)
    tests = {
        "moved": _written(tmp_path, "moved", {"dx": 2, "dy": 5}),
        "share": _written(tmp_path, "share", {"part": 3, "whole": 4}),
    }
    asserts = {n: [x.strip() for x in t.splitlines() if "assert" in x] for n, t in tests.items()}
    assert asserts == {
        "moved": ["assert result == Spot(x=3, y=7)"],
        "share": ["assert result == Fraction(3, 4)"],
    }
    assert "from fractions import Fraction" in tests["share"]
    assert failed_tests(tmp_path / "code", "spots", SPOTS, tests) == set()
    changed = SPOTS.replace("self.y + dy", "self.y - dy").replace("(part, whole)", "(whole, part)")
    assert failed_tests(tmp_path / "changed", "spots", changed, tests) == {"moved", "share"}


class Shade(enum.Enum):
    DARK = "dark"
    LIGHT = "light"
    DIM = "dark"  # an alias: the member is DARK's


def test_an_enum_member_is_its_class_and_name() -> None:
    assert enum_member(Shade.LIGHT) == {"imports": [[__name__, "Shade"]], "text": "Shade.LIGHT"}
    assert enum_member(Shade.DIM) == {"imports": [[__name__, "Shade"]], "text": "Shade.DARK"}
    assert enum_member("light") is None

    class Local(enum.Enum):
        ONE = 1

    assert enum_member(Local.ONE) is None  # no module reaches it by its name


PLATFORMS = """\
import enum


class Platform(enum.Enum):
    LINUX = "linux"
    WINDOWS = "windows"
    UNIVERSAL = "universal"


def normalize(name):
    if name in ("linux", "windows"):
        return Platform(name)
    return Platform.UNIVERSAL
"""


def test_a_returned_enum_member_is_compared_by_name_and_a_changed_one_caught(
    tmp_path: Path,
) -> None:
    (tmp_path / "platforms.py").write_text(PLATFORMS)
    names = {"Platform", "normalize"}
    tests = {
        "normalize": observed_test(tmp_path, "platforms", "normalize", {"name": "linux"}, names)
    }
    assert [x.strip() for x in tests["normalize"].splitlines() if "assert" in x] == [
        "assert result == Platform.LINUX"
    ]
    assert "from platforms import Platform" in tests["normalize"]
    assert failed_tests(tmp_path / "code", "platforms", PLATFORMS, tests) == set()
    changed = PLATFORMS.replace("return Platform(name)", "return Platform.UNIVERSAL")
    assert failed_tests(tmp_path / "changed", "platforms", changed, tests) == {"normalize"}


SCHEMAS = """\
class Money:
    pass


def merged(base, extra):
    out = dict(base, count=int)
    out.update(extra)
    return out


def fields():
    return {"amount": Money, "count": int, "tags": [str]}
"""


def test_a_display_of_classes_is_written_whole_with_them_by_name() -> None:
    assert class_display({"q": str, "page": 1, "pair": (int,)}, 200) == {
        "imports": [],
        "text": "{'q': str, 'page': 1, 'pair': (int,)}",
    }
    assert class_display([Spot, None], 200) == {
        "imports": [[__name__, "Spot"]],
        "text": "[Spot, None]",
    }
    # pyrsistent's field(type=int).type: `len(result.type) == 1` was edited to `== {int}`
    assert class_display({int, Spot}, 200) == {
        "imports": [[__name__, "Spot"]],
        "text": "{Spot, int}",
    }
    assert class_display(frozenset({str}), 200) == {"imports": [], "text": "frozenset({str})"}
    assert class_display({"q": 1}, 200) is None  # no class: its literal says it
    assert class_display({"q": str}, 5) is None  # longer than the probe reports
    assert class_display({"f": len}, 200) is None  # a function is no class

    class Local:
        pass

    assert class_display([Local], 200) is None  # no module reaches it by its name


def test_a_schema_of_classes_is_asserted_whole_not_by_its_length(tmp_path: Path) -> None:
    # voluptuous' Schema.extend: `len(result.schema) == 4` would pass with a key's class
    # wrong (blind reviewers: "assert the full merged dict").
    (tmp_path / "schemas.py").write_text(SCHEMAS)
    names = {"Money", "merged", "fields"}
    tests = {
        "fields": observed_test(tmp_path, "schemas", "fields", {}, names),
        "merged": observed_test(
            tmp_path, "schemas", "merged", {"base": {"a": "x"}, "extra": {"b": 2}}, names
        ),
    }
    asserts = {n: [x.strip() for x in t.splitlines() if "assert" in x] for n, t in tests.items()}
    assert asserts == {
        "fields": ["assert result == {'amount': Money, 'count': int, 'tags': [str]}"],
        "merged": ["assert result == {'a': 'x', 'count': int, 'b': 2}"],
    }
    assert failed_tests(tmp_path / "code", "schemas", SCHEMAS, tests) == set()
    changed = SCHEMAS.replace('"count": int', '"count": float').replace("count=int", "count=float")
    assert failed_tests(tmp_path / "changed", "schemas", changed, tests) == {"fields", "merged"}
