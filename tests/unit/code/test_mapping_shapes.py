"""A mapping parameter's values get the kind their uses say: a dict of sets for a graph.

Each function here is written for the test. The samples are built as the probe builds
them (:mod:`remora.code.probes.programs.call_arguments`: ``{"__set__": [...]}`` a set)
and the function is called with each, so a test checks that the code's cases are
reached, not only which values were chosen.
"""

from __future__ import annotations

import ast
import types
from typing import Any

from remora.code.probes.programs.call_arguments import built_value
from remora.code.values.call_render import CallRender
from remora.code.values.collection_arguments import dict_parameters
from remora.code.values.mapping_shapes import mapping_samples, value_shape

# Layers of a build order: each step lists the steps it needs (some named by no key).
LAYERS = """
def build_layers(needs):
    if not needs:
        return "nothing"
    pending = {step: set(n for n in wanted if n != step) for step, wanted in needs.items()}
    leaves = {n for wanted in pending.values() for n in wanted} - set(pending)
    pending.update({leaf: set() for leaf in leaves})
    layers = []
    while pending:
        ready = {step for step, wanted in pending.items() if not wanted}
        if not ready:
            return "stuck"
        layers.append(sorted(ready))
        pending = {s: wanted - ready for s, wanted in pending.items() if s not in ready}
    return layers

def flat_order(needs, reverse=False):
    order = []
    for layer in build_layers(needs):
        order.extend(layer)
    return order[::-1] if reverse else order
"""


def _load(source: str) -> tuple[ast.Module, dict[str, ast.FunctionDef], types.ModuleType]:
    tree = ast.parse(source)
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    module = types.ModuleType("sample")
    exec(compile(source, "<sample>", "exec"), module.__dict__)
    return tree, functions, module


def _outcome(function: Any, value: Any, module: types.ModuleType) -> str:
    try:
        result = function(built_value(value, module))
    except Exception as error:
        return type(error).__name__
    return "layers" if isinstance(result, list) else str(result)


def test_a_graph_gets_sets_whose_items_name_its_keys_and_reaches_each_case() -> None:
    tree, functions, module = _load(LAYERS)
    assert value_shape(functions["build_layers"], "needs") == ("set", True)
    samples = mapping_samples(functions["build_layers"], tree)["needs"]
    typical, words = samples[0]
    assert words == "needs_is_a_diamond"
    assert built_value(typical, module) == {"b": {"a"}, "c": {"a"}, "d": {"b", "c"}}
    outcomes = {_outcome(module.build_layers, value, module) for value, _ in samples}
    assert outcomes == {"layers", "stuck"}  # the empty mapping is collection_values'


def test_a_mapping_handed_to_a_module_function_takes_that_functions_shape() -> None:
    tree, functions, module = _load(LAYERS)
    flat = functions["flat_order"]
    assert dict_parameters(flat) == set()  # its own body only hands it on
    assert dict_parameters(flat, tree) == {"needs"}
    samples = mapping_samples(flat, tree)["needs"]
    assert module.flat_order(built_value(samples[0][0], module)) == ["a", "b", "c", "d"]


GUARDED = """
from collections.abc import Mapping


def convert(value):
    if isinstance(value, Mapping):
        return {convert(k): v for k, v in value.items()}
    return value.upper()


def is_converted(value):
    return value == convert(value)


def walk(data):
    return [k for k, _ in data.items()]


def walked(data):
    return walk(data)
"""


def test_a_helper_that_asks_what_it_was_given_takes_other_kinds_too() -> None:
    tree = ast.parse(GUARDED)
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    # ``convert`` reads .items() only under isinstance(value, Mapping): text goes in too.
    assert dict_parameters(functions["is_converted"], tree) == set()
    # A helper that reads .items() unasked still makes its argument a mapping.
    assert dict_parameters(functions["walked"], tree) == {"data"}


KINDS = """
def appended(groups, item):
    for name, members in groups.items():
        members.append(item)

def lowered(labels):
    return [text.lower() for text in labels.values()]

def counted(scores):
    total = 0
    for key in scores:
        total += scores[key] + 1
    return total

def looped(tags):
    return sorted(t for values in tags.values() for t in values)

def discarded(index, word):
    for key in index:
        index[key].discard(word)

def spread(prices, low, high):
    for name in prices:
        if prices[name] < 0:
            return None
    return prices[high] - prices[low]

def depth(tree, path):
    seen = {}
    seen.update(tree)
    for step in path:
        if step not in tree:
            return 0
        tree = tree[step]
    return len(tree)
"""


def test_the_values_kind_follows_loops_reads_and_calls_on_them() -> None:
    tree, functions, _ = _load(KINDS)
    shapes = {name: value_shape(f, next(iter(dict_parameters(f)))) for name, f in functions.items()}
    assert shapes == {
        "appended": ("list", False),
        "lowered": ("str", False),
        "counted": ("number", False),
        "looped": ("collection", False),
        "discarded": ("set", False),
        "spread": ("number", False),  # one value less another: no set operation
        "depth": ("dict", False),  # read as the mapping is: nested mappings
    }
    samples = {name: mapping_samples(f, tree) for name, f in functions.items()}
    assert samples["counted"] == {}  # a number: the dict sample with 1 and 0 stays
    assert samples["lowered"]["labels"][0][0] == {"a": "x", "b": ""}
    assert samples["discarded"]["index"][0][0] == {
        "a": {"__set__": ["x", "y"]},
        "b": {"__set__": []},
    }


def test_a_set_is_written_as_a_set_and_built_as_one() -> None:
    target = {"qualname": "f", "kind": "function", "parameters": []}
    render = CallRender(target, set())
    assert render.value({"a": {"__set__": ["a", "b"]}, "b": {"__set__": []}}) == (
        "{'a': {'a', 'b'}, 'b': set()}"
    )
    module = types.ModuleType("sample")
    assert built_value({"k": {"__set__": ["a", "b"]}}, module) == {"k": {"a", "b"}}
