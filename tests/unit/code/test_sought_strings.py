"""Strings holding what a chain of string methods on a parameter looks for."""

from __future__ import annotations

import ast

from remora.code.values.input_sources import local_constants, module_constants
from remora.code.values.sought_strings import sought_strings

MODULE = """\
SEPARATOR = "::"


def quote(text):
    return text.replace("%", "%25").replace("#", "%23")


def parts(path):
    head, _, tail = path.partition(SEPARATOR)
    return head.split(","), tail


def bare(name):
    return name.removeprefix("the ").lower()


def other(a, b):
    return str(a).replace("x", "y") + b.upper()
"""


def _sought(name: str) -> list[tuple[str, object, str]]:
    tree = ast.parse(MODULE)
    function = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == name)
    return sought_strings(function, local_constants(function, module_constants(tree)))


def test_a_chain_gets_one_string_with_all_it_looks_for_in_its_order_then_each() -> None:
    assert _sought("quote") == [
        ("text", "a%b#c", "text_has_percent_sign_and_number_sign"),
        ("text", "a%b", "text_has_percent_sign"),
        ("text", "a#b", "text_has_number_sign"),
    ]


def test_a_module_constant_is_looked_for_and_a_local_s_methods_are_not_the_parameter_s() -> None:
    # `head.split(",")` looks into a local, not into `path`.
    assert _sought("parts") == [("path", "a::b", "path_has_colon_colon")]


def test_a_prefix_leads_and_other_calls_are_no_chain() -> None:
    assert _sought("bare") == [("name", "the a", "name_has_the_space")]
    # `str(a).replace(...)` starts from a call, `b.upper()` looks for nothing.
    assert _sought("other") == []
