"""Tests of fluent builders and their like that pin something, or none.

Each test below failed before its rule: an identity-only ``return self`` test was kept,
a placeholder string went where the class wants a list or a bit flag, a builtin's own
value passed for the shadowing function's, a function defined under ``except
ImportError`` was tested.
"""

from __future__ import annotations

import ast
import textwrap
from types import SimpleNamespace
from typing import Any, cast

from remora.code.testgen.identity_asserts import asserts_only_identity, without_identity_only
from remora.code.testgen.observed_asserts import pins_something
from remora.code.testgen.shadowed_builtins import (
    optional_flag_reason,
    optional_import_reason,
    same_as_builtin,
)
from remora.code.values import CallTarget
from remora.code.values.method_state import observed_attributes
from remora.code.values.stored_shapes import stored_shapes, unfit_shape
from remora.code.values.value_asserts import value_assert

PANEL = textwrap.dedent(
    """
    class Panel:
        EDGE = 1
        GRID = 2
        LABEL = 4

        def __init__(self):
            self._size = None
            self._sides = []
            self._mode = Panel.EDGE
            self._caption = ""

        def _check(self, values):
            if self._size is None:
                self._size = len(values)
            elif self._size != len(values):
                raise ValueError("wrong size")

        def set_sides(self, values):
            self._check(values)
            self._sides = values
            return self

        def set_mode(self, mode):
            self._mode = mode
            return self

        def set_caption(self, caption):
            self._caption = caption
            return self

        @property
        def caption(self):
            return self._caption

        def paint(self):
            out = []
            for index in range(len(self._sides)):
                side = self._sides[index]
                out.append("<" if side == "west" else ">")
            if self._mode & Panel.GRID:
                out.append("#")
            if self._mode & Panel.LABEL:
                out.append(self._caption)
            return "".join(out)
    """
)


def _method(name: str) -> ast.FunctionDef:
    tree = ast.parse(PANEL)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name]
    return found[0]


def _target(qualname: str, kind: str = "method", params: tuple[str, ...] = ()) -> CallTarget:
    return cast(
        CallTarget,
        {
            "module": "panel",
            "qualname": qualname,
            "name": qualname.rsplit(".", 1)[-1],
            "kind": kind,
            "owner": "Panel" if kind == "method" else "",
            "method_kind": "instance",
            "is_async": False,
            "is_generator": False,
            "parameters": [{"name": p, "kind": "positional_or_keyword"} for p in params],
            "owner_parameters": [],
            "reason": "",
        },
    )


def _seen(repr_: str, literal: bool = True, **more: Any) -> dict[str, Any]:
    return {"repr": repr_, "literal": literal, "type": "x", "type_module": "panel", **more}


def test_a_builder_call_that_returned_its_instance_and_nothing_readable_pins_nothing() -> None:
    row = {"args": {"mode": 2}, "returned": _seen("<Panel>", literal=False, is_instance=True)}
    assert not pins_something(row, procedure=False)
    row["state"] = {"caption": _seen("'north'")}
    assert pins_something(row, procedure=False)


def test_a_count_of_a_large_table_pins_nothing() -> None:
    # nameparser 1.1.3's Constants().suffixes_prefixes_titles: 1,256 entries of its data
    # files; `len(result.elements) == 1256` breaks with any title added.
    table = {"repr": "<SetManager>", "literal": False, "type": "SetManager"}
    table["type_module"] = "nameparser.config"
    row: dict[str, Any] = {
        "args": {},
        "returned": {**table, "attributes": {"elements": {"length": 1256}}},
    }
    assert not pins_something(row, procedure=False)
    needed = SimpleNamespace(modules=set(), from_imports=set(), imports=set(), module_names=set())
    assert value_assert("result.elements", {"length": 1256}, needed) is None
    row["returned"]["attributes"]["elements"] = {"length": 3}
    assert pins_something(row, procedure=False)
    assert value_assert("result", {"length": 3}, needed) == "assert len(result) == 3"


def test_a_test_asserting_only_the_returned_instance_is_dropped_before_it_is_written() -> None:
    only = "def test_set_mode_returns_panel():\n    p = Panel()\n    r = p.set_mode(2)\n"
    only += "    assert r is p\n    assert isinstance(r, Panel)\n"
    more = only + "    assert p.caption == ''\n"
    raises = "def test_x():\n    with pytest.raises(ValueError):\n        f()\n    assert a is b\n"
    assert asserts_only_identity(only)
    assert not asserts_only_identity(more)
    assert not asserts_only_identity(raises)
    assert not asserts_only_identity("def test_y():\n    assert f() is None\n")
    kept, dropped = without_identity_only(
        [{"name": "test_a", "source": only}, {"name": "test_b", "source": more}]
    )
    assert [p["name"] for p in kept] == ["test_b"]
    assert dropped == ["test_a: it asserts only that the call returned its instance"]


def test_a_test_asserting_only_how_many_items_came_back_is_dropped() -> None:
    # mistletoe's embed_span: `assert len(result) == 2` "would still pass if the trailer
    # did not default to the leader" (blind review, rejected).
    count = "def test_spans():\n    result = list(spans('~~'))\n    assert len(result) == 2\n"
    valued = count + "    assert result[0].text == '~~'\n"
    kept, dropped = without_identity_only(
        [{"name": "test_count", "source": count}, {"name": "test_valued", "source": valued}]
    )
    assert [p["name"] for p in kept] == ["test_valued"]
    assert dropped == ["test_count: it asserts only how many items there are"]


def test_a_private_attribute_is_observed_through_the_public_property_that_reads_it() -> None:
    target = _target("Panel.set_caption", params=("caption",))
    assert observed_attributes(target, _method("set_caption"), PANEL) == ["caption"]
    # no public read of `_mode`: nothing to observe, so no test of set_mode
    assert observed_attributes(_target("Panel.set_mode"), _method("set_mode"), PANEL) == []


def test_a_parameter_the_class_measures_and_indexes_is_a_list_of_the_values_compared() -> None:
    module = ast.parse(PANEL)
    assert stored_shapes(_method("set_sides"), module) == {"values": ["west"]}
    assert unfit_shape({"values": "sample values"}, {"values": ["west"]}) is not None
    assert unfit_shape({"values": ["west"]}, {"values": ["west"]}) is None


def test_a_parameter_the_method_only_measures_and_indexes_may_be_a_string() -> None:
    # strsimpy's ``Damerau.distance(s0, s1)``: ``len(s0)`` and ``s0[i]``, never stored;
    # its README passes two strings, which a list shape kept out of the search.
    text = textwrap.dedent(
        """
        class Metric:
            def distance(self, s0, s1):
                same = 0
                for i in range(min(len(s0), len(s1))):
                    same += s0[i] == s1[i]
                return max(len(s0), len(s1)) - same
        """
    )
    module = ast.parse(text)
    function = next(n for n in ast.walk(module) if isinstance(n, ast.FunctionDef))
    assert stored_shapes(function, module) == {}


def test_a_parameter_the_class_tests_bits_of_is_a_flag_of_its_constants() -> None:
    module = ast.parse(PANEL)
    assert stored_shapes(_method("set_mode"), module) == {"mode": 2 | 4}
    assert "bit flag" in str(unfit_shape({"mode": "sample mode"}, {"mode": 6}))
    assert stored_shapes(_method("set_caption"), module) == {}


def test_a_value_the_shadowed_builtin_returns_too_pins_nothing() -> None:
    target = _target("len", kind="function", params=("text",))
    ascii_row = {"args": {"text": "abc"}, "returned": _seen("3")}
    wide_row = {"args": {"text": "\u4e2d\u6587"}, "returned": _seen("4")}
    assert same_as_builtin(target, ascii_row)
    assert not same_as_builtin(target, wide_row)
    other = _target("width", kind="function", params=("text",))
    assert not same_as_builtin(other, ascii_row)


def test_a_function_defined_under_an_optional_import_gets_no_test() -> None:
    text = textwrap.dedent(
        """
        import sys

        try:
            import fancywidth

            def cell_width(c):
                return fancywidth.width(c)
        except ImportError:
            def cell_width(c):
                return 1

        def plain(c):
            return 1
        """
    )
    assert optional_import_reason(text, 7) is not None
    assert optional_import_reason(text, 10) is not None
    assert optional_import_reason(text, 13) is None


def test_a_function_that_reads_a_flag_of_an_optional_import_gets_no_test() -> None:
    # validators 0.35.0's eth_address: its test passed only where eth-hash is missing.
    text = textwrap.dedent(
        """
        _keccak_flag = True
        try:
            from eth_hash.auto import keccak
        except ImportError:
            _keccak_flag = False

        try:
            import simplejson as json
        except ImportError:
            import json

        def eth_address(value):
            if not _keccak_flag:
                raise ImportError("pip install validators[crypto-eth-addresses]")
            return value.startswith("0x")

        def dumped(value):
            return json.dumps(value)
        """
    )
    functions = {f.name: f for f in ast.walk(ast.parse(text)) if isinstance(f, ast.FunctionDef)}
    reason = optional_flag_reason(text, functions["eth_address"])
    assert reason is not None and reason.startswith("it reads _keccak_flag, which an except")
    # A fallback import gives the same module either way: its reader is tested.
    assert optional_flag_reason(text, functions["dumped"]) is None


JOB = textwrap.dedent(
    """
    class Job:
        def __init__(self):
            self.unit = None
            self.start_day = None

        @property
        def weeks(self):
            self.unit = "weeks"
            return self

        @property
        def monday(self):
            self.start_day = "monday"
            return self.weeks
    """
)


def test_a_fluent_property_s_changes_are_observed_through_the_properties_it_reads() -> None:
    # ``monday`` sets start_day and reads ``self.weeks``, whose body sets unit.
    tree = ast.parse(JOB)
    monday = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "monday"
    )
    target = cast(CallTarget, {**_target("Job.monday"), "owner": "Job", "method_kind": "property"})
    assert observed_attributes(target, monday, JOB) == ["start_day", "unit"]
