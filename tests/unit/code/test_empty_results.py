"""The empty values a node's results may take, read with ast and from what its tests saw."""

from __future__ import annotations

import ast

import pytest
from ast_support import first_function

from remora.code.testgen.empty_results import (
    empty_results,
    gives_nothing,
    handed_back,
    is_empty,
    nothing_results,
    observed_kind,
)


@pytest.mark.parametrize(
    ("source", "empties"),
    [
        ("def f(x):\n    return [v for v in x]\n", ["[]"]),
        ("def f(x):\n    return {k: 1 for k in x}\n", ["{}"]),
        ("def f(x):\n    return tuple(x)\n", ["()"]),
        ("def f(x):\n    return len(x) + 1 if x else len(x)\n", ["0"]),
        ("def f(x):\n    return ', '.join(x)\n", ["''"]),
        ("def f(x):\n    return f'{x}!'\n", ["''"]),
        ("def f(x):\n    return {v for v in x}\n", ["set()"]),
        # None is a result the code chose, never the empty one.
        ("def f(x):\n    if not x:\n        return\n    return sorted(x)\n", ["[]"]),
        ("def f(x):\n    return x.get('a') or None\n", []),
        # The annotation names the kind where the returns do not.
        ("def f(x) -> list[str]:\n    return helper(x)\n", ["[]"]),
        ("def f(x) -> 'Optional[int]':\n    return x.count\n", ["0"]),
        ("def f(x) -> dict | None:\n    return x.found\n", ["{}"]),
        # Nothing tells the kind: an abstract type, a project class, a name.
        ("def f(x) -> Mapping[str, int]:\n    return x\n", []),
        ("def f(x) -> Node:\n    return Node(x)\n", []),
        ("def f(x, acc):\n    return acc\n", []),
        # A bool is the predicate's own mutants' business.
        ("def f(x):\n    if x:\n        return False\n    return x.name\n", []),
    ],
)
def test_the_kinds_the_node_s_own_returns_and_annotation_give(
    source: str, empties: list[str]
) -> None:
    assert empty_results(first_function(source)) == empties


def test_the_kinds_its_tests_saw_come_first_and_three_at_most() -> None:
    function = first_function("def f(x, acc):\n    if x:\n        return [x]\n    return acc\n")
    assert empty_results(function, ["str", "list"]) == ["''", "[]"]
    assert empty_results(function, ["int", "float", "str", "list"]) == ["0", "0.0", "''"]


@pytest.mark.parametrize(
    ("source", "parameter"),
    [
        ("def fold(obj, f, acc):\n    for p in obj:\n        f(p, acc)\n    return acc\n", "acc"),
        ("def add(self, row):\n    self.rows.append(row)\n    return self\n", "self"),
        ("def f(a, *, b):\n    if a:\n        return b\n    return b\n", "b"),
        # Another value on one path: the parameter back is one result among others.
        (
            "def get(d, k, default):\n    if k in d:\n        return d[k]\n    return default\n",
            None,
        ),
        ("def f(a, b):\n    return a or b\n", None),
        ("def f(a):\n    total = a\n    return total\n", None),
    ],
)
def test_the_parameter_every_return_hands_back(source: str, parameter: str | None) -> None:
    assert handed_back(first_function(source)) == parameter


def test_what_a_call_that_did_nothing_gives_the_parameter_handed_back_first() -> None:
    fold = first_function(
        "def fold(obj, f, acc):\n    for p in obj:\n        f(p, acc)\n    return acc\n"
    )
    assert nothing_results(fold, ["str"]) == ["acc", "''"]
    assert nothing_results(first_function("def f(x):\n    return [x]\n")) == ["[]"]


@pytest.mark.parametrize(
    "source",
    [
        "def f(x):\n    yield [x]\n",
        "def f(x):\n    x.append(1)\n",
        "def f(x):\n    if x:\n        return None\n    x.clear()\n",
        # Only a nested function returns a value.
        "def f(x):\n    def g():\n        return [x]\n    x.hook = g\n",
    ],
)
def test_a_node_that_yields_or_returns_no_value_has_no_empty_result(source: str) -> None:
    assert empty_results(first_function(source), ["list"]) == []


def _returned(text: str, kind: str, literal: bool = True) -> dict[str, object]:
    return {"repr": text, "literal": literal, "type": kind, "type_module": "builtins"}


def test_the_empty_value_of_a_type_is_no_none_and_no_boolean() -> None:
    assert all(
        is_empty(_returned(text, kind))
        for text, kind in [("[]", "list"), ("0", "int"), ("''", "str"), ("set()", "set")]
    )
    assert not any(
        is_empty(_returned(text, kind))
        for text, kind in [("None", "NoneType"), ("False", "bool"), ("[0]", "list")]
    )
    assert is_empty({"repr": "deque([])", "literal": False, "length": 0})


def test_a_call_gives_nothing_when_it_returned_none_or_empty_and_changed_nothing() -> None:
    assert gives_nothing({"returned": _returned("None", "NoneType")})
    assert gives_nothing({"returned": _returned("{}", "dict"), "state": {}, "state_before": {}})
    assert not gives_nothing({"returned": _returned("{'a': 1}", "dict")})
    assert not gives_nothing({"returned": None, "raised": {"type": "KeyError"}})
    assert not gives_nothing(
        {"returned": _returned("0", "int"), "state": {"n": 1}, "state_before": {"n": 0}}
    )
    assert not gives_nothing({"returned": _returned("0", "int"), "contents": {"added": 1}})


def test_the_observed_kind_is_the_builtin_type_returned_or_object() -> None:
    assert observed_kind({"returned": _returned("[]", "list")}) == "list"
    assert observed_kind({"returned": _returned("None", "NoneType")}) == "NoneType"
    # A boolean counts: a node whose tests saw only booleans is held to both outcomes.
    assert observed_kind({"returned": _returned("True", "bool")}) == "bool"
    custom = {"repr": "Node()", "literal": False, "type": "Node", "type_module": "pkg.nodes"}
    assert observed_kind({"returned": custom}) == "object"
    assert observed_kind({"returned": _returned("[]", "list"), "raised": {"type": "E"}}) is None
    # Only the kinds with an empty value give empty mutants.
    function = ast.parse("def f(x):\n    return g(x)\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    assert empty_results(function, ["bool", "NoneType", "object", "list"]) == ["[]"]
