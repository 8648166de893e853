"""A parameter annotated with a ``Literal`` takes one of its choices; any other is unknown.

``category: CATEGORIES`` with ``CATEGORIES = Literal["neutral", "chuck", "all"]``: the
strings of the module's tables (:func:`remora.code.values.project_values.table_values`)
include another parameter's choices too ("cs", a language). Tried for ``category`` they
reach the code's rejection, which is worth a test, but a test named
``when_category_is_cs`` reads as arguments swapped (blind reviewers asked for it renamed
"unknown category"). A table string among the parameter's choices keeps its words; of
those outside them one is kept, worded ``category_is_unknown``. Annotations are read
with their aliases already put in (:mod:`.type_aliases`), with :mod:`ast`.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from remora.code.values.annotations import head_name, parsed_annotation, union_parts
from remora.code.values.parameters import Parameter

__all__ = ["literal_choices", "within_choices"]


def literal_choices(annotation: str | None) -> frozenset[Any] | None:
    """The constants of a ``Literal[...]`` annotation (a union of them too); None for any
    other annotation."""
    tree = parsed_annotation(annotation)
    if tree is None:
        return None
    found: set[Any] = set()
    for part in union_parts(tree):
        if isinstance(part, ast.Constant) and part.value is None:  # Optional[Literal[...]]
            found.add(None)
            continue
        if head_name(part) != "Literal" or not isinstance(part, ast.Subscript):
            return None
        items = part.slice.elts if isinstance(part.slice, ast.Tuple) else [part.slice]
        if not all(isinstance(item, ast.Constant) for item in items):
            return None
        found |= {item.value for item in items if isinstance(item, ast.Constant)}
    return frozenset(found)


def within_choices(
    values: Sequence[tuple[str, Any, str]], parameters: Sequence[Parameter]
) -> list[tuple[str, Any, str]]:
    """``values`` (parameter, value, words) with a ``Literal`` parameter's values outside
    its choices reduced to the first, worded ``<name>_is_unknown``."""
    choices = {p.name: c for p in parameters if (c := literal_choices(p.annotation)) is not None}
    kept: list[tuple[str, Any, str]] = []
    unknown: set[str] = set()
    for name, value, words in values:
        if name not in choices or value in choices[name]:
            kept.append((name, value, words))
        elif name not in unknown:
            unknown.add(name)
            kept.append((name, value, f"{name}_is_unknown"))
    return kept
