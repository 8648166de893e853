"""One-item collections for an instance's collection attributes, from how a method uses them.

A method that loops over ``self.lines``, indexes ``self.items[sku]`` or asks ``sku in
self.stock`` reaches that code only with an item there: :func:`collection_uses` reads
those uses, :func:`one_item_values` builds the one-item values (an item the constructor
rules build for the annotation's item type, or one keyed by the method's own argument) for
:func:`remora.code.values.instance_search.owner_variants`. Read with :mod:`ast`; nothing runs.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from remora.code.values.annotations import (
    MAPPING_HEADS,
    SEQUENCE_HEADS,
    first_head,
    item_annotations,
)
from remora.code.values.derived_sets import ClassLookup, literal_default, sample_value
from remora.code.values.method_state import is_self_attribute
from remora.code.values.parameters import Parameter

__all__ = ["CollectionUse", "collection_uses", "one_item_values"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass
class CollectionUse:
    """How a method uses one collection attribute of its instance."""

    keys: set[str] = field(default_factory=set)  # method parameters used as keys/members
    by_key: bool = False  # indexed, .get, .items...: a mapping when the annotation is silent
    item: Any = None  # an item value its use says (``self.x[k] += 1``: a number)


def collection_uses(
    function: Function, self_name: str, attributes: set[str]
) -> dict[str, CollectionUse]:
    """The use of each attribute the method iterates, indexes, tests membership in or
    takes the length of."""
    params = {a.arg for a in [*function.args.args, *function.args.kwonlyargs]} - {self_name}
    uses: dict[str, CollectionUse] = {}

    def note(node: ast.expr, key: ast.expr | None = None, by_key: bool = False) -> None:
        if (
            is_self_attribute(node, self_name)
            and isinstance(node, ast.Attribute)
            and node.attr in attributes
        ):
            use = uses.setdefault(node.attr, CollectionUse())
            use.by_key = use.by_key or by_key
            if isinstance(key, ast.Name) and key.id in params:
                use.keys.add(key.id)

    for node in ast.walk(function):
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            note(node.iter)
        elif isinstance(node, ast.Subscript):
            note(node.value, node.slice, by_key=True)
        elif isinstance(node, ast.Compare):
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, ast.In | ast.NotIn):
                    note(right, node.left)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("len", "any", "all", "sum", "sorted") and node.args:
                note(node.args[0])
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("items", "keys", "values"):
                note(node.func.value, by_key=True)
            elif node.func.attr == "get" and node.args:
                note(node.func.value, node.args[0], by_key=True)
    for node in ast.walk(function):  # an item changed by a number is a number
        if (
            isinstance(node, ast.AugAssign)
            and isinstance(node.target, ast.Subscript)
            and isinstance(node.target.value, ast.Attribute)
            and node.target.value.attr in uses
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, int | float)
        ):
            uses[node.target.value.attr].item = type(node.value.value)(10)
    return uses


def one_item_values(
    parameter: Parameter, use: CollectionUse, method_args: dict[str, Any], classes: ClassLookup
) -> list[tuple[Any, str]]:
    """One-item values of a collection attribute, with words: an item the constructor rules
    build for the item type (two variants), or one keyed by (or holding) the method's own
    argument. Without an annotation or a collection default, the use says which kind."""
    head = first_head(parameter.annotation)
    known, default = literal_default(parameter.default)
    is_mapping = head in MAPPING_HEADS or (known and isinstance(default, dict))
    is_sequence = head in SEQUENCE_HEADS or (known and isinstance(default, list))
    if not (is_mapping or is_sequence or head):
        is_mapping, is_sequence = use.by_key, not use.by_key
    if not (is_mapping or is_sequence):
        return []
    name = parameter.name
    singular = name[:-1] if name.endswith("s") and len(name) > 3 else name
    key_annotation, item_annotation = item_annotations(parameter.annotation)
    argument = next((k for k in sorted(use.keys) if k in method_args), "")
    mine = method_args.get(argument)
    if not isinstance(mine, str | int) or isinstance(mine, bool):
        mine = None
    out: list[tuple[Any, str]] = []
    for variant, words in ((0, "one_item"), (1, "another_item")):
        item = sample_value(singular, item_annotation, variant, classes)
        item = use.item if use.item is not None and item_annotation is None else item
        if mine is not None and variant == 0:
            value = {mine: item} if is_mapping else [mine]
            words = f"has_key_{argument}" if is_mapping else f"holds_{argument}"
            out.append((value, f"self_{name}_{words}"))
        elif is_sequence:
            out.append(([item], f"self_{name}_has_{words}"))
        else:
            made = sample_value("key", key_annotation or "str", variant, classes)
            out.append(({made: item}, f"self_{name}_has_{words}"))
    return out
