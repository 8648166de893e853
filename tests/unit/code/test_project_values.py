"""Strings for a parameter the code looks up in a table: from the tables the module sees."""

from __future__ import annotations

import ast

import pytest
from ast_support import first_function

from remora.code.values.project_values import looked_up_parameters, table_strings

DEFINITIONS = """\
_SHORT = {"aqua": "#00ffff", "black": "#000000", "blue": "#0000ff"}
_LONG = {**_SHORT, "orange": "#ffa500"}
NOT_A_TABLE = ["red"]
"""


@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("def f(name):\n    return TABLE.get(name.lower())\n", {"name"}),
        ("def f(key, d):\n    return d[key]\n", {"key"}),
        ("def f(word):\n    return word in WORDS\n", {"word"}),
        # Looked up with, not looked up in: the table itself is no key.
        ("def f(d, n):\n    return d[0] + n\n", set()),
    ],
)
def test_a_parameter_in_a_lookups_key_is_found(source: str, names: set[str]) -> None:
    assert looked_up_parameters(first_function(source)) == names


def test_the_tables_of_the_module_and_of_its_relative_imports() -> None:
    module = ast.parse("from ._definitions import _SHORT\n\nLOCAL = {'x': 'y'}\n")
    files = {"src/colors/_definitions.py": DEFINITIONS}
    read = files.get
    # The first two pairs of each dict, keys and values alike, six strings at most.
    assert table_strings(module, "src/colors/convert.py", read) == [
        "x",
        "y",
        "aqua",
        "#00ffff",
        "black",
        "#000000",
    ]


def test_an_absolute_import_of_another_package_offers_nothing() -> None:
    module = ast.parse("from json.decoder import JSONDecoder\n")
    assert table_strings(module, "src/colors/convert.py", {}.get) == []
