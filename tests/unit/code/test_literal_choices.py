"""A Literal parameter's table values: its choices, and one other worded as unknown."""

from __future__ import annotations

import pytest

from remora.code.values.literal_choices import literal_choices, within_choices
from remora.code.values.parameters import Parameter


@pytest.mark.parametrize(
    ("annotation", "choices"),
    [
        ("Literal['neutral', 'chuck']", {"neutral", "chuck"}),
        ("typing.Literal['a'] | Literal['b']", {"a", "b"}),
        ("Optional[Literal['a']]", {"a", None}),
        ("str", None),
        ("Literal['a'] | str", None),
        (None, None),
    ],
)
def test_the_choices_of_a_literal_annotation(annotation: str | None, choices: object) -> None:
    assert literal_choices(annotation) == (frozenset(choices) if choices is not None else None)


def test_values_outside_a_literal_parameter_s_choices_become_one_unknown_value() -> None:
    parameters = [
        Parameter("category", "positional_or_keyword", annotation="Literal['neutral', 'chuck']"),
        Parameter("language", "positional_or_keyword"),
    ]
    values = [
        ("category", "cs", "category_is_cs"),
        ("category", "chuck", "category_is_chuck"),
        ("category", "de", "category_is_de"),
        ("language", "cs", "language_is_cs"),
    ]
    assert within_choices(values, parameters) == [
        ("category", "cs", "category_is_unknown"),
        ("category", "chuck", "category_is_chuck"),
        ("language", "cs", "language_is_cs"),
    ]
