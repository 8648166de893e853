"""Instances the project builds and fills, read from its code and doc examples
(values/built_instances): an invented bounded shelf, built as a module and a README do."""

from __future__ import annotations

import ast
from typing import Any

from remora.code.values.built_instances import owners_in
from remora.code.values.filled_instances import CALLS_KEY, ITEM_SETTER
from remora.code.values.owner_expressions import text_sources
from remora.code.values.parameters import Parameter

PARAMETERS = [Parameter("capacity", "positional_or_keyword", default="3")]
CHANGING = {"put", "drop"}


def _no_class(name: str) -> None:
    return None


def _owners(*sources: str) -> list[dict[str, Any]]:
    trees = [ast.parse(source) for source in sources]
    return owners_in(trees, "Shelf", CHANGING, PARAMETERS, _no_class)


def _call(method: str, *args: Any) -> dict[str, Any]:
    return {"method": method, "args": list(args), "keywords": {}}


def test_a_construction_then_its_changing_calls_is_an_owner_up_to_another_use() -> None:
    source = (
        "def main():\n"
        "    shelf = Shelf(capacity=2)\n"
        "    log = []\n"  # names no shelf: passed over
        '    shelf.put("Dune")\n'
        '    shelf.put(title="Emma")\n'
        "    print(shelf.titles())\n"  # a read ends the sequence
        '    shelf.put("Ulysses")\n'
    )
    assert _owners(source) == [
        {
            "capacity": 2,
            CALLS_KEY: [
                _call("put", "Dune"),
                {"method": "put", "args": [], "keywords": {"title": "Emma"}},
            ],
        }
    ]


def test_an_item_set_fills_and_a_name_or_a_read_method_ends_the_fill() -> None:
    items = 'shelf = Shelf()\nshelf["a"] = 1\nshelf.put(title)\nshelf.put("x")\n'
    assert _owners(items) == [{CALLS_KEY: [_call(ITEM_SETTER, "a", 1)]}]
    # A method that changes nothing (titles) is a read: nothing was filled before it.
    assert _owners('shelf = Shelf()\nshelf.titles()\nshelf.put("x")\n') == []


def test_a_construction_alone_or_from_names_is_no_filled_owner() -> None:
    assert _owners("shelf = Shelf(3)\nprint(shelf)\n") == []
    assert _owners('shelf = Shelf(size)\nshelf.put("x")\n') == []
    assert _owners('other = Other()\nother.put("x")\n') == []


def test_a_documents_session_is_read_in_order_across_its_blocks() -> None:
    readme = (
        "Build one:\n\n"
        "```python\n>>> shelf = Shelf(capacity=2)\n```\n\n"
        "Then fill it:\n\n"
        ".. code-block:: python\n\n"
        '    >>> shelf.put("Dune")\n'
        "    >>> shelf.put(\n"
        '    ...     "Emma")\n\n'
        "Prose.\n"
    )
    trees = [ast.parse(s) for s in text_sources(readme, python=False)]
    assert owners_in(trees, "Shelf", CHANGING, PARAMETERS, _no_class) == [
        {"capacity": 2, CALLS_KEY: [_call("put", "Dune"), _call("put", "Emma")]}
    ]
