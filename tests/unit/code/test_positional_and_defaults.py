"""Written calls pass a positional-only parameter by position (``/`` or the ``__name``
convention) and leave out an argument equal to its default. An instance whose constructor
(an ``__init__``, or a ``__new__`` alone) takes positional-only parameters is built with
them by position, in the probe and in the test alike: ``Frame(width=2, height=3)`` raises
TypeError, so no method of such a class got a test."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from call_targets import method_target
from probe_support import failed_tests, probe_outcome

from remora.code.parsing.positional_only import conventional_positional_only
from remora.code.samples.sample_sets import _plain
from remora.code.testgen.written_tests import observed_piece
from remora.code.values import CallRender, falsy_stand_ins, without_defaults
from remora.code.values.class_lookup import class_lookup
from remora.code.values.parameters import function_parameters

_DEF = "def read_text(__src, *, strict=True, parse_num=float, depth=3):\n    pass\n"


def _target() -> dict[str, object]:
    function = ast.parse(_DEF).body[0]
    assert isinstance(function, ast.FunctionDef)
    return {
        "module": "lilreader",
        "qualname": "read_text",
        "name": "read_text",
        "kind": "function",
        "owner": "",
        "method_kind": "",
        "is_async": False,
        "parameters": [p.row() for p in function_parameters(function.args)],
    }


def test_a_dunder_parameter_is_positional_only_by_convention() -> None:
    assert conventional_positional_only(["__src", "__more", "depth"]) == 2
    assert conventional_positional_only(["self", "__src"], skip_first=True) == 2
    assert conventional_positional_only(["__init__", "x"]) == 0
    kinds = [row["kind"] for row in _target()["parameters"]]  # type: ignore[attr-defined]
    assert kinds == ["positional_only", "keyword_only", "keyword_only", "keyword_only"]


def test_the_written_call_passes_it_by_position_and_leaves_defaults_out() -> None:
    row = {
        "args": {
            "__src": "[a]",
            "strict": True,
            "parse_num": {"__callable__": "float"},
            "depth": 4,
        },
        "returned": {"repr": "1", "literal": True},
    }
    piece = observed_piece(_target(), {"read_text"}, {}, row, "test_read_text_returns_1")
    assert "result = read_text('[a]', depth=4)" in piece["source"]
    assert "__src=" not in piece["source"]


def test_a_default_of_another_type_stays() -> None:
    rows = [{"name": "strict", "kind": "keyword_only", "default": "True"}]
    assert without_defaults({"strict": 1}, rows) == {"strict": 1}
    assert without_defaults({"strict": True}, rows) == {}


def test_falsy_values_standing_in_for_falsy_defaults_are_the_defaults_in_other_clothes() -> None:
    rows = [
        {"name": "start", "kind": "positional_or_keyword", "default": "None"},
        {"name": "again", "kind": "positional_or_keyword", "default": "False"},
        {"name": "size", "kind": "positional_or_keyword", "default": "10"},
    ]
    assert falsy_stand_ins({"start": "", "again": None}, rows)
    assert falsy_stand_ins({"start": 0}, rows)
    # A truthy value, a falsy one where the default is truthy, or the default itself: not.
    assert not falsy_stand_ins({"start": "", "again": True}, rows)
    assert not falsy_stand_ins({"size": 0}, rows)
    assert not falsy_stand_ins({"start": None}, rows)
    assert not falsy_stand_ins({}, rows)
    assert not falsy_stand_ins({"other": ""}, rows)


SHAPES = """\
class Frame:
    def __init__(self, width: int, height: int, /) -> None:
        self.width = width
        self.height = height

    def area(self) -> int:
        return self.width * self.height


class Length:
    __slots__ = ("_units",)

    def __new__(cls, units: int, /, *, scale: int = 1) -> "Length":
        made = object.__new__(cls)
        object.__setattr__(made, "_units", units * scale)
        return made

    def units(self) -> int:
        return self._units


def covered(frame: Frame, length: Length) -> int:
    return frame.area() * length.units()
"""

FRAME = {"__class__": "Frame", "args": {"width": 2, "height": 3}}
LENGTH = {"__class__": "Length", "args": {"units": 5, "scale": 2}}


def _method(owner: str, name: str) -> Any:
    target: Any = method_target("shapes", owner, name)
    target["owner_parameters"] = [p.row() for p in class_lookup(SHAPES)(owner) or ()]
    return target


def test_the_probe_builds_an_instance_whose_constructor_takes_positional_only_parameters(
    tmp_path: Path,
) -> None:
    (tmp_path / "shapes.py").write_text(SHAPES)
    frame = probe_outcome(
        tmp_path, "shapes", "Frame.area", {}, owner="Frame", owner_args=FRAME["args"]
    )
    assert (frame.get("returned") or {}).get("repr") == "6", frame
    length = probe_outcome(
        tmp_path, "shapes", "Length.units", {}, owner="Length", owner_args=LENGTH["args"]
    )
    assert (length.get("returned") or {}).get("repr") == "10", (
        length
    )  # `scale` keyword-only: by name
    nested = probe_outcome(tmp_path, "shapes", "covered", {"frame": FRAME, "length": LENGTH})
    assert (nested.get("returned") or {}).get("repr") == "60", nested


def _test_file(render: CallRender, name: str, lines: list[str]) -> str:
    piece = render.piece(f"test_{name}", lines)
    return f"from shapes import {', '.join(piece['imports'])}\n\n\n{piece['source']}"


def test_the_written_test_builds_them_by_position_and_passes(tmp_path: Path) -> None:
    names = {"Frame", "Length", "covered"}
    tests: dict[str, str] = {}
    for owner, owner_args, method, expected in (
        ("Frame", FRAME["args"], "area", 6),
        ("Length", LENGTH["args"], "units", 10),
    ):
        render = CallRender(_method(owner, method), names)
        call, setup = render.call({}, owner_args)
        tests[method] = _test_file(render, method, [*setup, f"assert {call} == {expected}"])
    assert "    frame = Frame(2, 3)\n" in tests["area"]
    assert "    length = Length(5, scale=2)\n" in tests["units"]  # keyword-only: by name
    # An instance passed as an argument: its class's constructor read from the lookup.
    target: Any = {**method_target("shapes", "", "covered"), "kind": "function"}
    target |= {"qualname": "covered", "owner": "", "method_kind": ""}
    target["parameters"] = [
        {"name": n, "kind": "positional_or_keyword", "annotation": None, "default": None}
        for n in ("frame", "length")
    ]
    row = {"args": {"frame": FRAME, "length": LENGTH}, "returned": {"repr": "60", "literal": True}}
    piece = observed_piece(target, names, {}, row, "test_covered", classes=class_lookup(SHAPES))
    assert "covered(frame=Frame(2, 3), length=Length(5, scale=2))" in piece["source"]
    tests["covered"] = f"from shapes import {', '.join(piece['imports'])}\n\n\n{piece['source']}"
    # The spelling by name fails: the run below is real.
    tests["by_name"] = (
        "from shapes import Frame\n\n\ndef test_by_name():\n    Frame(width=2, height=3)\n"
    )
    assert failed_tests(tmp_path / "run", "shapes", SHAPES, tests) == {"by_name"}


def test_sample_sets_refuse_a_method_whose_instance_is_built_by_position() -> None:
    # A set is a mapping of names, its instance built from one (Frame(**owner)): no
    # positional-only parameter takes it. A static method builds no instance.
    target: Any = {
        **_method("Frame", "area"),
        "parameters": [{"name": "by", "kind": "positional_or_keyword"}],
    }
    assert _plain(target) == "its class's constructor takes positional-only parameters"
    assert _plain({**target, "method_kind": "staticmethod"}) == ""
