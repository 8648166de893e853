"""An annotation read one way for the whole value search (values/annotations.py): its head,
its alternatives, its items, and what each caller makes of them."""

from __future__ import annotations

import ast

import pytest

from remora.code.values.annotations import (
    MAPPING_HEADS,
    builtin_kind,
    first_head,
    head_name,
    item_annotations,
    parsed_annotation,
    union_parts,
)
from remora.code.values.argument_fit import excluded_value
from remora.code.values.class_lookup import class_lookup
from remora.code.values.input_search import boundary_values
from remora.code.values.keyed_arguments import fitted_arguments
from remora.code.values.parameters import Parameter
from remora.code.values.type_aliases import admits_none


def _alternatives(annotation: str) -> list[str]:
    tree = parsed_annotation(annotation)
    assert tree is not None
    return [head_name(part) for part in union_parts(tree)]


@pytest.mark.parametrize(
    ("annotation", "heads"),
    [
        ("int", ["int"]),
        ("int | None", ["int", "None"]),
        ("Optional[int]", ["int", "None"]),
        ("typing.Optional[typing.List[int]]", ["List", "None"]),
        ("Union[str, bytes, None]", ["str", "bytes", "None"]),
        ("Union[int, Optional[str]]", ["int", "str", "None"]),
        ("str | bytes | None", ["str", "bytes", "None"]),
        ("'int | None'", ["int", "None"]),  # a quoted annotation
        # Forward references: cssselect's ``Tree = Union["Element", "Hash", ...]``.
        ("Union['Element', 'Hash']", ["Element", "Hash"]),
        ("Optional['Element']", ["Element", "None"]),
    ],
)
def test_union_parts_reads_every_spelling_of_a_union(annotation: str, heads: list[str]) -> None:
    assert _alternatives(annotation) == heads


@pytest.mark.parametrize(
    ("annotation", "head", "kind"),
    [
        ("list[int]", "list", "list"),
        ("typing.List[int]", "list", "list"),
        ("Optional[Dict[str, int]]", "dict", "dict"),
        ("None | int", "int", "int"),
        ("Union[None, str]", "str", "str"),
        ("Sequence[int]", "sequence", ""),
        ("Product | None", "product", ""),
        ("", "", ""),
        ("not an annotation(", "", ""),
    ],
)
def test_first_head_and_builtin_kind_skip_none_and_read_the_head(
    annotation: str, head: str, kind: str
) -> None:
    assert first_head(annotation) == head
    assert builtin_kind(annotation) == kind


@pytest.mark.parametrize(
    ("annotation", "items"),
    [
        ("dict[str, Item]", ("str", "Item")),
        ("list[Item] | None", (None, "Item")),
        ("Optional[list[Item]]", (None, "Item")),
        ("typing.Optional[typing.Dict[str, int]]", ("str", "int")),
        ("Item", (None, None)),
        (None, (None, None)),
    ],
)
def test_item_annotations_read_the_first_alternative_that_is_not_none(
    annotation: str | None, items: tuple[str | None, str | None]
) -> None:
    assert item_annotations(annotation) == items


def test_every_mapping_spelling_is_one_set() -> None:
    for annotation in ("Dict[str, int]", "DefaultDict[str, list]", "OrderedDict", "TypedDict"):
        assert first_head(annotation) in MAPPING_HEADS, annotation


_READER = """
def total(data):
    return data["price"] * data["quantity"]
"""


@pytest.mark.parametrize(
    "annotation", [None, "dict", "dict[str, float] | None", "Optional[Mapping]", "DefaultDict"]
)
def test_a_parameter_annotated_as_any_mapping_gets_the_keys_it_is_read_with(
    annotation: str | None,
) -> None:
    function = ast.parse(_READER).body[0]
    assert isinstance(function, ast.FunctionDef)
    parameters = [{"name": "data", "kind": "positional_or_keyword", "annotation": annotation}]
    updates, _extra = fitted_arguments(function, parameters, {"data": {}}, [], class_lookup(""))
    assert set(updates["data"]) == {"price", "quantity"}


def test_an_optional_builtin_annotation_excludes_a_value_of_another_type() -> None:
    function = ast.parse("def f(name):\n    return name\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    for annotation in ("str | None", "Optional[str]", "Union[str, None]"):
        params = [Parameter("name", "positional_or_keyword", annotation)]
        why = excluded_value(function, params, {"name": 1}, class_lookup(""))
        assert why == f"name: annotated {annotation}, not a int"
        assert excluded_value(function, params, {"name": None}, class_lookup("")) is None


def test_admits_none_reads_optional_as_a_union_with_none() -> None:
    assert admits_none("Optional[int]", None, {})
    assert admits_none("Union[int, Optional[str]]", None, {})
    assert not admits_none("Union[int, str]", None, {})


def test_a_forward_reference_is_read_as_the_name_it_holds() -> None:
    # A selector parser's `Tree = Union["Element", "Hash", ...]`: its sample sets and tests
    # were given `selector=None`, which no part of the union takes.
    aliases = {"Tree": "Union['Element', 'Hash']"}
    assert not admits_none("Tree", None, aliases)
    assert not admits_none("'Element'", None, {})
    assert admits_none("'Optional[Element]'", None, {})
    assert admits_none("Union['Element', None]", None, {})
    assert admits_none("'not an annotation ('", None, {})  # unreadable: not ruled out


def test_a_list_annotation_gives_an_if_its_list_values() -> None:
    function = ast.parse("def f(items):\n    if not items:\n        return 0\n    return 1\n")
    node = function.body[0]
    assert isinstance(node, ast.FunctionDef)
    kinds = {"items": builtin_kind("typing.List[int]")}
    assert [v for _n, v, _w in boundary_values(node, kinds)] == [[], [1]]


TREE_MODULE = """\
from typing import Union

Tree = Union["Element", "Hash"]


class Element:
    def __init__(self, name: str = "*") -> None:
        self.name = name


class Pseudo:
    def __init__(self, selector: Tree, ident: str) -> None:
        self.selector = selector
"""


def test_a_class_s_parameters_read_the_aliases_of_its_own_module() -> None:
    # cssselect's tests built ``Pseudo(selector=None, ...)``: ``Tree`` was a name nothing
    # knew, so it took None, which the class's annotation rules out (reviewer: edit).
    (selector, _ident) = class_lookup(TREE_MODULE)("Pseudo") or []
    assert selector.annotation == "Union['Element', 'Hash']"
    assert not admits_none(selector.annotation, selector.default, {})
