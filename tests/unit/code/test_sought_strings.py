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


def test_a_string_holding_more_than_fits_in_a_name_is_named_by_their_count() -> None:
    # dicttoxml's escape_xml test was `when_s_has_ampersand_and_quotation_mark_a`: two of
    # five characters, the third cut short (a blind reviewer's edit).
    source = (
        "def escape(s):\n"
        "    return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')"
        ".replace('\"', '&quot;')\n"
    )
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    first = sought_strings(function, {})[0]
    assert first == ("s", 'a&b<c>d"e', "s_has_all_4_replaced_characters")
