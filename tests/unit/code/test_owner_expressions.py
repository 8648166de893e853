"""An instance the project builds with an expression: found with ast, built by the probe,
written by the test (values/owner_expressions). An invented selector class, whose bare
instance every query method refuses."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from probe_support import probe_outcome
from selector_source import SELECTOR

from remora.code.values.call_render import CallRender
from remora.code.values.owner_expressions import (
    EXPRESSION_KEY,
    _literal_call,
    chains_in,
    is_expression,
    returning_functions,
    text_sources,
)

PICKERS = (
    SELECTOR
    + """\


def picks(*names):
    return Selector()[names[0]].steps() if names else None


def _private(name):
    return Selector()[name]


def count(selector):
    return len(selector._steps)


def pick_plain(name):
    if name:
        return Selector()
    return Selector()[name]
"""
)


def _expression(call: str, args: list[Any], steps: list[Any]) -> dict[str, Any]:
    return {EXPRESSION_KEY: {"call": call, "args": args, "keywords": {}, "steps": steps}}


def test_a_public_module_function_whose_every_return_builds_the_class_is_found() -> None:
    # picks may return None; _private is private; count returns no instance
    assert returning_functions(ast.parse(PICKERS), "Selector") == ["pick", "pick_plain"]


def test_chains_on_a_fresh_instance_or_a_name_bound_to_one_are_found() -> None:
    session = ">>> who = Selector()\n>>> who.name.equals('x')\n>>> Selector()['size']\n"
    parts = text_sources(f"Intro\n\n.. code-block:: python\n\n{session}\nEnd\n", python=False)
    found = chains_in(parts, "Selector")
    assert found == [[["attribute", "name"]], [["item", "size"]]]


def test_a_method_called_on_a_fresh_instance_or_a_computed_key_is_no_chain() -> None:
    source = "Selector().equals(1)\nSelector()[key]\nOther().name\ns = Selector()\ns.x = 1\n"
    assert chains_in([source], "Selector") == []


def test_only_literal_arguments_make_a_call() -> None:
    assert _literal_call("'size', limit=[1, 2]") == (["size"], {"limit": [1, 2]})
    assert _literal_call("...") is None  # a document's `where(...)`: no argument
    assert _literal_call("name") is None
    assert _literal_call("*names") is None


def test_the_probe_builds_the_expression_and_the_test_writes_it(tmp_path: Path) -> None:
    (tmp_path / "pickers.py").write_text(PICKERS)
    bare = probe_outcome(tmp_path, "pickers", "Selector.equals", {"value": 3}, owner="Selector")
    assert bare["raised"]["message"] == "the selector has no steps"
    owner = _expression("pick", ["size"], [])
    assert is_expression(owner)
    built = probe_outcome(
        tmp_path, "pickers", "Selector.equals", {"value": 3}, owner="Selector", owner_args=owner
    )
    assert built["returned"]["repr"] == "'size == 3'"
    parameter = {"name": "value", "kind": "positional_or_keyword"}
    target: Any = {"kind": "method", "qualname": "Selector.equals", "name": "equals"}
    target |= {"owner": "Selector", "method_kind": "", "is_async": False}
    target |= {"parameters": [parameter]}
    render = CallRender(target, {"Selector", "pick"})
    call, setup = render.call({"value": 3}, owner)
    assert (call, setup) == ("selector.equals(value=3)", ["selector = pick('size')"])
    assert render.imports == {"pick"}  # not the class the expression builds


def test_an_expression_that_gives_another_kind_builds_no_instance(tmp_path: Path) -> None:
    (tmp_path / "pickers.py").write_text(PICKERS)
    owner = _expression("Selector", [], [["item", "size"], ["attribute", "_steps"]])
    outcome = probe_outcome(
        tmp_path, "pickers", "Selector.equals", {"value": 3}, owner="Selector", owner_args=owner
    )
    assert not outcome.get("called"), outcome
    chained = _expression("Selector", [], [["item", "size"]])
    render = CallRender(
        {"kind": "method", "qualname": "Selector.equals", "name": "equals", "owner": "Selector"}
        | {"method_kind": "", "is_async": False, "parameters": []},  # type: ignore[arg-type]
        {"Selector"},
    )
    assert render.setup(chained)[1] == ["selector = Selector()['size']"]
