"""A generic alias given its type arguments stands for its text with them put in, and a
type variable for what it may be given (values/type_aliases.py), so the value search
derives values of what the parameter takes instead of trying it with None alone."""

from __future__ import annotations

import pytest

from remora import python_ast
from remora.code.values.derived_sets import argument_sets
from remora.code.values.parameters import Parameter
from remora.code.values.type_aliases import module_aliases, resolved_annotation

SOURCE = """
from typing import AbstractSet, Callable, List, Sequence, TypeVar, Union

T = TypeVar("T")
K = TypeVar("K", bound="Label")
N = TypeVar("N", int, float)
Many = Union[AbstractSet[T], Sequence[T]]
Folder = Callable[[List[K]], N]
Vector = list
"""

ALIASES = module_aliases(python_ast.parse(SOURCE))


@pytest.mark.parametrize(
    ("annotation", "meaning"),
    [
        ("Many[T]", "Union[AbstractSet[Any], Sequence[Any]]"),
        ("Many[str]", "Union[AbstractSet[str], Sequence[str]]"),
        ("Many", "Union[AbstractSet[Any], Sequence[Any]]"),
        # in the order written, not in ast.walk's breadth-first order
        ("Folder[str, bool]", "Callable[[List[str]], bool]"),
        ("Folder[K, N]", "Callable[[List[Label]], Union[int, float]]"),
        ("T", "Any"),
        ("Vector[int]", "list[int]"),
    ],
)
def test_a_generic_alias_stands_for_its_text_with_the_arguments_put_in(
    annotation: str, meaning: str
) -> None:
    assert resolved_annotation(annotation, ALIASES) == meaning


def test_a_parameter_annotated_with_a_generic_alias_gets_collections() -> None:
    annotation = resolved_annotation("Many[T]", ALIASES)
    other = Parameter(name="other", kind="positional_or_keyword", annotation=annotation)
    tried = [s["args"]["other"] for s in argument_sets([other], lambda name: None, 4)]
    # The alias's first part, AbstractSet, gives sets ({"__set__": [...]}, as the probe takes one).
    items = [value["__set__"] if isinstance(value, dict) else value for value in tried]
    assert None not in tried and all(isinstance(value, list) for value in items), tried
    assert any(value for value in items), tried  # a collection with items, not only an empty one
