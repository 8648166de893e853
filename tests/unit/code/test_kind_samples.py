"""One typical and one empty value per kind (values/kind_samples.py), and the callers that
take them: ``isinstance``, ``if x:``, a parameter's use, an attribute the class uses."""

from __future__ import annotations

from ast_support import first_function

from remora.code.values.attribute_uses import fitted_values
from remora.code.values.input_search import boundary_values
from remora.code.values.kind_samples import (
    CALLABLE_SAMPLE,
    DICT_SAMPLE,
    EMPTY,
    TYPICAL,
    sample,
    used_sample,
)
from remora.code.values.unspelled_values import stand_in
from remora.code.values.usage_kinds import usage_kinds


def test_each_typical_value_is_of_its_kind_and_true() -> None:
    for kind, value in TYPICAL.items():
        if kind in ("NoneType", "callable"):
            continue
        built = stand_in(value)  # bytes go to the probe as ``{"__bytes__": text}``
        assert type(built).__name__ == kind and built, kind
    assert TYPICAL["dict"] == DICT_SAMPLE and TYPICAL["callable"] == CALLABLE_SAMPLE


def test_each_empty_value_is_of_its_kind_and_false() -> None:
    for kind, value in EMPTY.items():
        built = stand_in(value)
        assert type(built).__name__ == kind and not built, kind
    assert set(EMPTY) <= set(TYPICAL)


def test_a_sample_is_a_copy_a_caller_may_change() -> None:
    value = sample("dict")
    value["c"] = 2
    assert TYPICAL["dict"] == {"a": 1, "b": 0}
    listed = sample("list")
    listed.append(2)
    assert TYPICAL["list"] == [1]


def test_a_use_says_a_typical_value_but_an_empty_list() -> None:
    assert used_sample("dict") == DICT_SAMPLE
    assert used_sample("list") == []
    assert used_sample("str") == "a"
    assert used_sample("callable") == CALLABLE_SAMPLE


def test_usage_kinds_take_the_table() -> None:
    function = first_function(
        "def f(names, table, word, fn, n):\n"
        "    names.append(word.lower())\n"
        "    return table.get(fn(n >> 1))\n"
    )
    assert usage_kinds(function) == {
        "names": [],
        "table": DICT_SAMPLE,
        "word": "a",
        "fn": CALLABLE_SAMPLE,
        "n": 1,
    }


def test_a_percent_is_integer_arithmetic_only_beside_a_number() -> None:
    # ``"Invalid empty version string: %r" % version_string`` formats a text: a parser's
    # tests called it with 0 and 1 (both reviewers: edit, "passes the integer 0").
    function = first_function(
        "def parse(version_string, day, count):\n"
        "    message = 'Invalid version: %r' % version_string\n"
        "    return day % 7, 100 % count, message\n"
    )
    assert usage_kinds(function) == {"day": 1, "count": 1}


def test_isinstance_and_if_take_the_typical_and_the_empty_value() -> None:
    function = first_function(
        "def f(x, d):\n"
        "    if isinstance(x, dict):\n"
        "        return 1\n"
        "    if d:\n"
        "        return 2\n"
        "    return 3\n"
    )
    found = {(n, w): v for n, v, w in boundary_values(function, {"d": "dict"})}
    assert found[("x", "x_is_dict")] == DICT_SAMPLE
    assert found[("d", "d_is_empty")] == {}
    assert found[("d", "d_is_set")] == DICT_SAMPLE


def test_a_local_derived_from_a_parameter_is_worded_by_the_parameter() -> None:
    # ``if not m`` of ``m = PATTERN.match(text)``: the test gives ``text``, so its name says
    # "text is empty", never the local's "m is empty".
    function = first_function(
        "def f(text):\n"
        "    m = PATTERN.match(text)\n"
        "    if not m:\n"
        "        raise ValueError(text)\n"
        "    return m.group(0)\n"
    )
    found = {w: v for n, v, w in boundary_values(function, {}) if n == "text"}
    assert found.get("text_is_empty") == ""
    assert not [w for w in found if w.startswith("m_")]


def test_an_attribute_used_as_a_mapping_or_called_gets_the_typical_value() -> None:
    fitted = fitted_values({"table": "x", "fetch": "y"}, {"table": "dict", "fetch": "callable"})
    assert fitted == {"table": DICT_SAMPLE, "fetch": CALLABLE_SAMPLE}
