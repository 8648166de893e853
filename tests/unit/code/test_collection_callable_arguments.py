"""The sources for called, variadic, dict and float parameters reach both sides of a branch.

Each test builds the values a source gives the way the probe does
(:mod:`remora.code.probes.programs.call_arguments`: ``{"__returns__": V}`` as a function,
a ``*args`` list spread, a ``**kwargs`` dict as keywords), calls the function
with the typical set varied one parameter at a time, and checks that every
branch's side was reached: the function returns (or raises) a word per side.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import math
import types
from pathlib import Path
from typing import Any

import pytest

from remora.code.probes.calls import pins_behaviour
from remora.code.probes.programs import call_probe
from remora.code.probes.programs.call_arguments import built_value, split_arguments
from remora.code.values.call_render import CallRender
from remora.code.values.call_text import arguments_from_text
from remora.code.values.callable_arguments import called_parameter_values
from remora.code.values.collection_arguments import collection_values, dict_parameters
from remora.code.values.float_values import non_finite_values
from remora.code.values.input_sources import derived_locals
from remora.code.values.kind_samples import DICT_SAMPLE
from remora.code.values.parameters import Parameter, parameter_names
from remora.code.values.project_values import near_miss


def _load(source: str, name: str) -> tuple[ast.Module, ast.FunctionDef, Any, types.ModuleType]:
    tree = ast.parse(source)
    function = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == name)
    module = types.ModuleType("sample")
    exec(compile(source, "<sample>", "exec"), module.__dict__)
    return tree, function, module.__dict__[name], module


def _outcome(target: Any, args: dict[str, Any], module: types.ModuleType) -> str:
    """What one call gave, built and passed exactly as the probe passes a set."""
    values = built_value(args, module)
    positional, keywords = split_arguments(inspect.signature(target), values)
    try:
        return str(target(*positional, **keywords))
    except Exception as error:  # an exception is one side of a branch too
        return type(error).__name__


def _outcomes(target: Any, module: types.ModuleType, base: dict[str, Any], values: Any) -> set[str]:
    return {_outcome(target, {**base, name: value}, module) for name, value, _ in values}


MERGE = """
from collections.abc import Mapping

def _get_factory(f, kwargs):
    factory = kwargs.pop("factory", dict)
    if kwargs:
        raise TypeError("unexpected")
    return factory

def merge(*dicts, **kwargs):
    if len(dicts) == 1 and not isinstance(dicts[0], Mapping):
        dicts = dicts[0]
        shape = "nested"
    else:
        shape = "flat"
    factory = _get_factory(merge, kwargs)
    rv = factory()
    for d in dicts:
        rv.update(d)
    return shape if rv else "empty"
"""


def test_star_args_get_one_and_two_items_and_the_single_list_form() -> None:
    tree, function, merge, module = _load(MERGE, "merge")
    values = collection_values(function, {}, tree)
    star = [v for n, v, _ in values if n == "dicts"]
    assert [DICT_SAMPLE] in star  # one item, of the kind the loop uses it as
    assert _outcomes(merge, module, {}, values) >= {"flat", "nested"}
    assert _outcome(merge, {}, module) == "empty"  # the typical set: no items


ITERABLES = """
from itertools import chain


def interleave(*iterables):
    return list(chain.from_iterable(zip(*iterables)))


def partial_product(*iterables):
    iterators = list(map(iter, iterables))
    return len(iterators)


def unique_to_each(*iterables):
    pool = [list(it) for it in iterables]
    return len(pool)


def pick(*keys):
    return [k.upper() for k in keys]
"""


@pytest.mark.parametrize("name", ["interleave", "partial_product", "unique_to_each"])
def test_star_args_the_code_iterates_each_of_get_distinct_lists(name: str) -> None:
    # more-itertools' interleave("a", "zz"): a blind reviewer, "'zz' hides the order".
    tree, function, _, _ = _load(ITERABLES, name)
    star = [v for n, v, _ in collection_values(function, {}, tree) if n == "iterables"]
    assert star == [[[1, 2]], [[1, 2], [3, 4, 5]]]


def test_star_args_used_as_text_keep_the_keys() -> None:
    tree, function, _, _ = _load(ITERABLES, "pick")
    star = [v for n, v, _ in collection_values(function, {}, tree) if n == "keys"]
    assert ["a"] in star and ["a", "zz"] in star


def test_kwargs_get_an_unread_keyword_and_those_a_helper_reads() -> None:
    tree, function, merge, module = _load(MERGE, "merge")
    kwargs = [v for n, v, _ in collection_values(function, {}, tree) if n == "kwargs"]
    assert {"factory": {"__callable__": "dict"}} in kwargs  # read in _get_factory
    assert _outcome(merge, {"kwargs": {"zz": 1}}, module) == "TypeError"
    assert _outcome(merge, {"kwargs": kwargs[-1], "dicts": [{"a": 1}]}, module) == "flat"


DISSOC = """
def dissoc(d, *keys):
    kept = dict(d)
    if len(keys) < len(d) * .6:
        for key in keys:
            if key in kept:
                del kept[key]
                return "removed"
            return "absent"
        return "no keys"
    return "many keys"
"""


def test_string_items_are_the_dict_arguments_keys_and_one_missing() -> None:
    tree, function, dissoc, module = _load(DISSOC, "dissoc")
    base = {"d": dict(DICT_SAMPLE)}
    values = collection_values(function, base, tree)
    assert _outcomes(dissoc, module, base, values) | {_outcome(dissoc, base, module)} == {
        "removed",
        "absent",
        "no keys",
        "many keys",
    }


FILTER = """
def valfilter(predicate, d, factory=dict):
    rv = factory()
    for k, v in d.items():
        if not predicate(v):
            continue
        rv[k] = v
    return "kept" if rv else "none kept"
"""


def test_a_predicate_returns_both_truth_values_and_a_factory_keeps_its_default() -> None:
    _, function, valfilter, module = _load(FILTER, "valfilter")
    defaults = {"predicate": None, "d": None, "factory": "dict"}
    keep, base_values, values = called_parameter_values(function, defaults)
    assert keep == {"factory"} and base_values == {}
    assert dict_parameters(function) == {"d"}
    base = {"predicate": {"__callable__": "str"}, "d": dict(DICT_SAMPLE)}
    assert _outcomes(valfilter, module, base, values) == {"kept", "none kept"}


SPLIT = """
def split_when(iterable, pred, key=None):
    cur = nxt = None
    if pred(cur, nxt):
        return "split"
    if key is not None and key(nxt, cur) and key(cur):
        return "keyed"
    return "whole"


def strip(iterable, pred):
    if pred(iterable):
        return list(filter(pred, iterable))
    return []
"""


def test_a_predicate_called_with_plain_names_is_written_taking_them() -> None:
    # more-itertools' split_when(iterable, pred): ``lambda *args, **kwargs: True`` read as
    # clumsy by a blind reviewer; every call passes ``cur, nxt``.
    _, function, split_when, module = _load(SPLIT, "split_when")
    _, _, values = called_parameter_values(function, {"iterable": None, "pred": None})
    by_words = {words: value for _, value, words in values}
    assert by_words["pred_returns_true"] == {"__returns__": True, "__takes__": ["cur", "nxt"]}
    # Called two ways (two names, then one): any arguments.
    assert by_words["key_returns_false"] == {"__returns__": False}
    render = CallRender({"parameters": [{"name": "pred", "kind": "positional_or_keyword"}]}, set())
    assert render.arguments({"pred": by_words["pred_returns_true"]}) == "pred=lambda cur, nxt: True"
    base = {"iterable": [], "pred": {"__callable__": "str"}}
    assert _outcomes(split_when, module, base, values) >= {"split", "whole"}
    # Handed on as well (``filter(pred, …)``): called as ``filter`` calls it, any arguments.
    _, strip, _, _ = _load(SPLIT, "strip")
    _, _, handed = called_parameter_values(strip, {"iterable": None, "pred": None})
    assert {"__returns__": True} in [value for _, value, _ in handed]


def test_a_factory_without_a_default_is_given_dict() -> None:
    _, function, _, _ = _load("def build(factory):\n    return factory()\n", "build")
    keep, base, _ = called_parameter_values(function, {"factory": None})
    assert keep == set() and base == {"factory": {"__callable__": "dict"}}


COUNT = """
def count(key, seq):
    if not callable(key):
        return "item"
    return "call"
"""


def test_callable_tested_gives_a_value_that_is_not_callable() -> None:
    _, function, count, module = _load(COUNT, "count")
    _, _, values = called_parameter_values(function, {"key": None, "seq": None})
    base = {"key": {"__callable__": "str"}, "seq": [1]}
    assert _outcomes(count, module, base, values) | {_outcome(count, base, module)} == {
        "item",
        "call",
    }


NUMBER = """
import math

def describe(value):
    number = float(value)
    if not math.isfinite(number):
        if math.isnan(number):
            return "nan"
        return "+inf" if number > 0 else "-inf"
    return "finite"
"""


def test_a_finiteness_test_gets_nan_and_both_infinities() -> None:
    _, function, describe, module = _load(NUMBER, "describe")
    derived = derived_locals(function, parameter_names(function))
    values = non_finite_values(function, derived)
    assert _outcomes(describe, module, {}, values) == {"nan", "+inf", "-inf"}


def test_a_near_miss_keeps_the_shape_and_leaves_the_table() -> None:
    assert near_miss("#00ffff") == "#00fffe"
    assert near_miss("navy") == "nave"
    assert near_miss("A9") == "A0"
    assert near_miss("--") == "--x"


def test_call_text_puts_extra_arguments_into_star_args_and_kwargs() -> None:
    params = [
        Parameter("func", "positional_or_keyword", None, None),
        Parameter("dicts", "var_positional", None, None),
        Parameter("kwargs", "var_keyword", None, None),
    ]
    with pytest.raises(ValueError, match="'print' is not a literal"):
        arguments_from_text("print, {'a': 1}", params, lambda _: None)
    args = arguments_from_text("1, {'a': 1}, {'b': 2}, factory=3", params, lambda _: None)
    assert args == {"func": 1, "dicts": [{"a": 1}, {"b": 2}], "kwargs": {"factory": 3}}


def test_a_dict_passed_alone_is_one_argument_unless_its_keys_name_parameters() -> None:
    # The project's own `positive_total({"pears": 3, "figs": 0})` is one mapping, not two
    # keywords the function does not take.
    params = [
        Parameter("counts", "positional_or_keyword", None, None),
        Parameter("floor", "positional_or_keyword", None, "0"),
    ]
    none = lambda _: None  # noqa: E731
    one = arguments_from_text('{"pears": 3, "figs": 0}', params, none)
    assert one == {"counts": {"pears": 3, "figs": 0}}
    assert arguments_from_text('{"counts": {"a": 2}, "floor": 1}', params, none) == {
        "counts": {"a": 2},
        "floor": 1,
    }
    assert arguments_from_text("{}", params, none) == {"counts": {}}
    assert arguments_from_text("{}", params[1:], none) == {}


def test_rendered_calls_pass_what_the_probe_passed() -> None:
    target = {
        "parameters": [
            {"name": "func", "kind": "positional_or_keyword"},
            {"name": "dicts", "kind": "var_positional"},
            {"name": "kwargs", "kind": "var_keyword"},
        ]
    }
    render = CallRender(target, set())
    args = {
        "func": {"__returns__": False},
        "dicts": [{"a": 1}],
        "kwargs": {"factory": {"__callable__": "dict"}, "not-a-name": math.inf},
    }
    text = render.arguments(args)
    assert text == (
        "lambda *args, **kwargs: False, {'a': 1}, **{'factory': dict, 'not-a-name': float('inf')}"
    )
    seen = eval(f"(lambda func, *dicts, **kwargs: (func(1), dicts, kwargs))({text})")
    assert seen == (False, ({"a": 1},), {"factory": dict, "not-a-name": math.inf})


def sample_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str
) -> types.ModuleType:
    """``text`` as an importable module named ``name``, as the probe imports the project's."""
    (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module(name)


STATED = """
def check(value):
    if value == "wrong":
        raise TypeError(
            "the code's own refusal"
        )
    return len(value)
"""


def test_the_probe_tells_a_stated_type_error_from_an_operation_that_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sample_module(tmp_path, monkeypatch, "stated_sample", STATED)
    check = module.check
    stated = call_probe._probe_set(check, {"args": {"value": "wrong"}}, module, True, 1.0)
    failed = call_probe._probe_set(check, {"args": {"value": 5}}, module, True, 1.0)
    assert stated["raised"]["type"] == failed["raised"]["type"] == "TypeError"
    assert stated["raised"].get("stated") is True
    assert "stated" not in failed["raised"]


NAMED = """
def _get_factory(f, kwargs):
    factory = kwargs.pop("factory", dict)
    if kwargs:
        raise TypeError(f"{f.__name__}() got an unexpected keyword argument")
    return factory
"""


def test_a_parameter_whose_name_is_read_is_a_function() -> None:
    _, function, get_factory, module = _load(NAMED, "_get_factory")
    _, base, _ = called_parameter_values(function, {"f": None, "kwargs": None})
    assert base == {"f": {"__callable__": "str"}}
    assert dict_parameters(function) == {"kwargs"}
    assert _outcome(get_factory, {**base, "kwargs": dict(DICT_SAMPLE)}, module) == "TypeError"
    assert _outcome(get_factory, {"f": "sample f", "kwargs": dict(DICT_SAMPLE)}, module) == (
        "AttributeError"
    )


NESTED = """
def update_in(d, keys):
    rv = {}
    rv.update(d)  # what says d is a dict
    first, *rest = keys
    if rest and first not in d:
        return "created"
    return "found" if first in d else "missing"
"""


def test_a_list_parameter_gets_the_dict_arguments_keys_each_way() -> None:
    tree, function, update_in, module = _load(NESTED, "update_in")
    base = {"d": dict(DICT_SAMPLE), "keys": ["alpha"]}
    values = collection_values(function, base, tree)
    assert _outcomes(update_in, module, base, values) == {"created", "found", "missing"}


WRITER = """
import os
def save(folder, reports):
    for name in reports:
        with open(os.path.join(folder, name), "w") as handle:
            handle.write("x")
    if not reports:
        raise OSError("nothing to save")
    return len(reports)
"""


def test_an_os_error_the_machine_gave_is_no_behaviour_a_test_may_pin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sample_module(tmp_path, monkeypatch, "writer_sample", WRITER)

    def probed(args: dict[str, Any]) -> dict[str, Any]:
        outcome = call_probe._probe_set(module.save, {"args": args}, module, True, 1.0)
        return {"ok": True, "reason": "", **outcome}

    missing = probed({"folder": str(tmp_path / "no-such-folder"), "reports": ["a"]})
    assert missing["raised"]["type"] == "FileNotFoundError"
    assert missing["raised"].get("environment") is True and not pins_behaviour(missing)
    # The code's own raise of an OSError is a branch of the code; a written file is a result.
    stated = probed({"folder": str(tmp_path), "reports": []})
    assert stated["raised"]["type"] == "OSError" and "environment" not in stated["raised"]
    written = probed({"folder": str(tmp_path), "reports": ["a"]})
    assert written["returned"]["repr"] == "1" and pins_behaviour(written)
