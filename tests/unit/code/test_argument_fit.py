"""No argument of a kind the node's annotations or uses exclude; a datetime built as one.

Real ``ast`` on made-up functions; the datetime value goes through the real call
probe (a subprocess, as the sandbox runs it) and the real renderer, and the
rendered test line is run.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from probe_support import probe_outcome

from remora.code.values.argument_fit import excluded_value, read_attributes
from remora.code.values.call_render import CallRender
from remora.code.values.class_lookup import class_lookup
from remora.code.values.derived_sets import sample_value
from remora.code.values.parameters import Parameter

MODULE = """\
from datetime import datetime


class Product:
    def __init__(self, sku: str) -> None:
        self.sku = sku


def stamp(when: datetime, note):
    if not note:
        return None
    return when.isoformat() + note.upper()


def label(item):
    return item.sku


def either(value):
    if isinstance(value, str):
        return value
    return value.isoformat()


def shipped(product: Product | None = None):
    return product


def year_of(when: datetime):
    return when.year


def depths(graph):
    if len(graph) == 0:
        return {}
    graph = {node: set(after) for node, after in graph.items()}
    return {node: len(after) for node, after in graph.items()}


def weights(table):
    return sum(table[key] for key in table)


def keys_or_text(table):
    if isinstance(table, str):
        return table
    return list(table.keys())


def as_bytes(data: str | bytes, scale: float = 1.0):
    if isinstance(data, str):
        data = data.encode()
    return data * int(scale)
"""


def _function(name: str) -> ast.FunctionDef:
    tree = ast.parse(MODULE)
    return next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == name)


def _params(name: str) -> list[Parameter]:
    function = _function(name)
    return [
        Parameter(
            a.arg, "positional_or_keyword", ast.unparse(a.annotation) if a.annotation else None
        )
        for a in function.args.args
    ]


@pytest.mark.parametrize(
    ("name", "args", "why"),
    [
        # Annotated a datetime: the ISO text is refused before any call, even where an
        # early return (`not note`) would have let it pass.
        ("stamp", {"when": "2024-01-31T12:00:00", "note": ""}, "when: annotated datetime"),
        # No annotation, but the code reads `.sku`: a str has none.
        ("label", {"item": "A-1"}, "item: a str has no attribute 'sku'"),
        ("label", {"item": {"sku": "A-1"}}, "item: a dict has no attribute 'sku'"),
        # A project class (or None) is wanted: a string is neither.
        ("shipped", {"product": "A-1"}, "product: annotated Product | None"),
        # Builtin types only: an int is neither str nor bytes, even where isinstance
        # branches on the parameter (the annotation is the contract).
        ("as_bytes", {"data": 1}, "data: annotated str | bytes, not a int"),
        ("as_bytes", {"data": "ab", "scale": "2"}, "scale: annotated float, not a str"),
        # Used as a mapping (`.items()`, or subscripted with its own keys): no string, even
        # an empty one that `len(graph) == 0` would let return early, nor where the
        # parameter is rebound from its own items.
        ("depths", {"graph": ""}, "graph: used as a mapping, not a str"),
        ("weights", {"table": "ab"}, "table: used as a mapping, not a str"),
    ],
)
def test_a_value_the_code_excludes_is_named(name: str, args: dict[str, Any], why: str) -> None:
    found = excluded_value(_function(name), _params(name), args, class_lookup(MODULE))
    assert found is not None and found.startswith(why)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("label", {"item": {"__class__": "Product", "args": {"sku": "A-1"}}}),
        ("shipped", {"product": None}),
        ("either", {"value": "text"}),  # isinstance says it takes several kinds
        ("stamp", {"when": {"__class__": "datetime.datetime", "args": {"year": 2024}}}),
        ("stamp", {"note": "x".upper()}),  # a str has `.upper`
        ("as_bytes", {"data": "ab", "scale": 2}),  # an int is a float (PEP 484)
        ("depths", {"graph": {}}),
        ("keys_or_text", {"table": "ab"}),  # isinstance says a str is one of its kinds
    ],
)
def test_a_value_the_code_accepts_is_kept(name: str, args: dict[str, Any]) -> None:
    assert excluded_value(_function(name), _params(name), args, class_lookup(MODULE)) is None


def test_a_rebound_parameter_has_no_rule() -> None:
    function = ast.parse("def f(x):\n    x = str(x)\n    return x.upper(), x.year\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    assert read_attributes(function) == {}


def test_a_datetime_parameter_gets_a_datetime_the_probe_builds_and_a_test_writes(
    tmp_path: Path,
) -> None:
    value = sample_value("when", "datetime", 1, class_lookup(MODULE))
    assert value["__class__"] == "datetime.datetime"
    (tmp_path / "stamped.py").write_text(MODULE)
    outcome = probe_outcome(tmp_path, "stamped", "year_of", {"when": value})
    assert outcome["returned"]["repr"] == "2023"  # built as a datetime, though the module
    # imported the class itself (`from datetime import datetime`)
    parameter = {"name": "when", "kind": "positional_or_keyword"}
    target = {"kind": "function", "qualname": "year_of", "parameters": [parameter]}
    target |= {"method_kind": "", "is_async": False}
    render = CallRender(target, {"datetime", "year_of"})
    call, _ = render.call({"when": value}, {})
    assert render.modules == {"datetime"} and render.imports == {"year_of"}
    script = f"import datetime\nfrom stamped import year_of\nassert {call} == 2023\n"
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True)
