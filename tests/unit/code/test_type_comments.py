"""Annotations written as PEP 484 type comments are read as annotations.

The shapes are hyperlink 21.0.0's (a project that still runs on Python 2): a signature
comment under the ``def``, one on the ``def`` line, a ``*args`` type, one comment per
parameter with ``(...)``; a method's comment leaves ``self`` out.
"""

from __future__ import annotations

import pytest

from remora.code.parsing import NodeRef, locate, node_returns, node_signature, parse
from remora.code.values.argument_fit import excluded_value
from remora.code.values.constructor import constructor_of
from remora.code.values.parameters import parameter_of

SOURCE = """from typing import Optional, Text, Tuple


def parse_host(host):
    # type: (Text) -> Tuple[Optional[int], Text]
    return None, host


def unread(a, b):
    # type: (int) -> int
    return a


class URL(object):
    def __init__(self, scheme=None, port=None):  # type: (Optional[Text], Optional[int]) -> None
        self.scheme = scheme

    def child(self, *segments):
        # type: (*Text) -> URL
        return self

    def replace(
        self,
        scheme,  # type: Optional[Text]
        port=None,  # type: Optional[int]
    ):
        # type: (...) -> URL
        return self

    def typed(self, flag: bool) -> bool:
        return flag
"""


def _signature(name: str, kind: str) -> tuple[list[tuple[str, str | None]], str | None]:
    node = locate(parse(SOURCE, "m.py"), NodeRef(kind, name, 1))
    signature = node_signature(node)
    assert node_returns(node)["annotation"] == signature["returns"]
    return [(p["name"], p["annotation"]) for p in signature["parameters"]], signature["returns"]


@pytest.mark.parametrize(
    ("name", "kind", "parameters", "returns"),
    [
        ("parse_host", "function", [("host", "Text")], "Tuple[Optional[int], Text]"),
        ("URL.child", "method", [("self", None), ("segments", "Text")], "URL"),
        (
            "URL.replace",
            "method",
            [("self", None), ("scheme", "Optional[Text]"), ("port", "Optional[int]")],
            "URL",
        ),
        ("URL.typed", "method", [("self", None), ("flag", "bool")], "bool"),
        # One type for two parameters of a function: no parameter is annotated by it.
        ("unread", "function", [("a", None), ("b", None)], "int"),
    ],
)
def test_type_comments_annotate_the_signature(
    name: str, kind: str, parameters: list[tuple[str, str | None]], returns: str
) -> None:
    assert _signature(name, kind) == (parameters, returns)


def test_a_constructors_type_comment_annotates_its_parameters() -> None:
    constructor = constructor_of(SOURCE, "URL")
    assert [(p.name, p.annotation) for p in constructor.parameters] == [
        ("scheme", "Optional[Text]"),
        ("port", "Optional[int]"),
    ]


def test_the_value_search_gives_no_none_where_a_type_comment_says_text() -> None:
    node = locate(parse(SOURCE, "m.py"), NodeRef("function", "parse_host", 1))
    params = [parameter_of(p) for p in node_signature(node)["parameters"]]

    def excluded(value: object) -> str | None:
        return excluded_value(None, params, {"host": value}, lambda _name: None, None, {})

    assert excluded(None) == "host: annotated Text, which takes no None"
    assert excluded("example.com") is None
