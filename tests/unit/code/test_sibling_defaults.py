"""A required constructor parameter takes the default the module gives that name elsewhere.

Made-up modules read with real ``ast``: a builder whose settings the module's front
class defaults, and the cases where the module's word is no word (defaults that
disagree, one of another kind, an empty text, ``None``).
"""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.values.parameters import Parameter
from remora.code.values.sibling_defaults import sibling_defaults

FRONT = """\
class Banner:
    def __init__(self, font="plain", direction="auto", width=80, framed=False):
        self.builder = Builder(font, direction, width, framed)


class Builder:
    def __init__(self, font, direction: str, width: int, framed: bool):
        self.width = width
"""


def _given(source: str, *own: tuple[str, str | None]) -> dict[str, Any]:
    parameters = [Parameter(name, "positional_or_keyword", annotation) for name, annotation in own]
    return sibling_defaults(ast.parse(source), parameters)


def test_the_builders_settings_take_the_front_class_defaults() -> None:
    own = [("font", None), ("direction", "str"), ("width", "int"), ("framed", "bool")]
    assert _given(FRONT, *own) == {
        "font": "plain",
        "direction": "auto",
        "width": 80,
        "framed": False,
    }


@pytest.mark.parametrize(
    ("source", "annotation"),
    [
        # two defaults that disagree: the module has no one word for it
        ("def a(width=80): ...\ndef b(width=72): ...\n", "int"),
        # a default of another kind than the annotation says
        ("def a(width='80'): ...\n", "int"),
        ("def a(width=True): ...\n", "int"),
        # an empty text and None say nothing of a value
        ("def a(width=''): ...\n", "str"),
        ("def a(width=None): ...\n", None),
        # an annotation no literal fits
        ("def a(width=80): ...\n", "Sequence[int]"),
    ],
)
def test_no_value_where_the_module_has_no_one_literal_of_the_kind(
    source: str, annotation: str | None
) -> None:
    assert _given(source, ("width", annotation)) == {}


def test_a_parameter_with_its_own_default_keeps_it() -> None:
    own = [Parameter("width", "positional_or_keyword", "int", default="10")]
    assert sibling_defaults(ast.parse(FRONT), own) == {}
