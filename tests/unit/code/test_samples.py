"""Derived argument sets (remora.code.values.derived_sets), one JSON case per file."""

from __future__ import annotations

import ast
import json
import types
from pathlib import Path
from typing import Any

import pytest

from remora.code.probes.programs.call_arguments import built_value
from remora.code.values.derived_sets import argument_sets, literal_default, sample_value
from remora.code.values.named_values import NAMED_NUMBERS, NAMED_STRINGS
from remora.code.values.named_values import name_words as samples_words
from remora.code.values.parameters import Parameter

CASES = Path(__file__).parent / "sample_cases"


def _parameters(rows: list[list[Any]]) -> list[Parameter]:
    return [Parameter(name, kind, annotation, default) for name, kind, annotation, default in rows]


@pytest.mark.parametrize("name", sorted(p.stem for p in CASES.glob("*.json")))
def test_derived_sets_are_the_expected_ones(name: str) -> None:
    case = json.loads((CASES / f"{name}.json").read_text())
    classes = {key: _parameters(rows) for key, rows in case["classes"].items()}
    got = argument_sets(_parameters(case["parameters"]), classes.get, case["count"])
    assert got == case["expected"], case["why"]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (None, (False, None)),
        ("None", (True, None)),
        ("(1, 2)", (True, [1, 2])),
        ("list()", (True, [])),
        ("-1.5", (True, -1.5)),
        ("datetime.now()", (False, None)),
        ("b'x'", (False, None)),
    ],
)
def test_literal_defaults(source: str | None, expected: tuple[bool, Any]) -> None:
    assert literal_default(source) == expected


@pytest.mark.parametrize(
    ("name", "annotation", "expected"),
    [
        # Whole words only: a word's tail is no word (issue 57).
        ("filename", "str", "sample filename"),
        ("message", None, "hello"),
        ("page", "int", 1),
        ("syntax", "float", 1.5),
        ("stage", "int", 1),
        # snake_case and camelCase words; the last one the table has decides.
        ("unit_price", "float", 19.0),
        ("taxRate", "float", 0.25),
        ("user_email", None, "alice@example.com"),
        ("maxSize", "int", 10),
        ("prices", None, [19.0]),
        ("item_count", None, 2),
    ],
)
def test_names_match_the_tables_by_whole_words(
    name: str, annotation: str | None, expected: Any
) -> None:
    assert sample_value(name, annotation, 0, lambda _: None) == expected


def test_a_collection_of_items_no_value_is_found_for_is_no_list_of_nones() -> None:
    # ``lines: Iterable[AnyStr]`` (pathspec's from_lines got ``[None, None]``, rejected as
    # "a meaningless input"): AnyStr is text; an unknown class's items leave no list.
    assert sample_value("lines", "Iterable[AnyStr]", 0, lambda _: None) == [
        "sample line",
        "other line",
    ]
    assert sample_value("rules", "list[Rule]", 0, lambda _: None) is None
    assert sample_value("rules", "list", 0, lambda _: None) == ["sample rule", "other rule"]


EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"


def _example_words_and_literals() -> tuple[set[str], set[object]]:
    words: set[str] = set()
    literals: set[object] = set()
    for path in EXAMPLE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name | ast.arg | ast.Attribute | ast.keyword):
                name = getattr(node, "id", None) or getattr(node, "arg", None)
                name = name or getattr(node, "attr", None)
                words.update(samples_words(name) if name else [])
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                words.update(samples_words(node.name))
            elif isinstance(node, ast.Constant) and not isinstance(node.value, bool):
                literals.add(node.value)
    return words, literals


def test_the_tables_hold_nothing_taken_from_the_bundled_example() -> None:
    # A name of the example's code with one of the example's values is tuning to the code
    # Remora is shown on: `sku` "SKU-001", `category` "general"/"food", tax 0.2, level 5.
    words, literals = _example_words_and_literals()
    assert {"sku", "category", "tax", "level", "customer"} <= words  # the walk reads the example
    for table in (NAMED_STRINGS, NAMED_NUMBERS):
        for key, values in table.items():
            if key in words or f"{key}s" in words:
                assert not set(values) & literals, (key, values)
    shared = {v for values in NAMED_STRINGS.values() for v in values} & literals
    assert shared == set()


def test_parameters_the_tables_give_one_value_get_the_other_typical_one() -> None:
    # Three paths all "data/example.txt", a box 1 by 1: a swap of the arguments, or `*`
    # for `**`, would pass unseen (a blind reviewer on pathspec's RecursionError message).
    paths = [Parameter(n, "positional_or_keyword") for n in ("real_path", "first_path")]
    sets = {s["name"]: s["args"] for s in argument_sets(paths, lambda _: None)}
    assert sets["example"] == {"real_path": "data/example.txt", "first_path": "data/other.csv"}
    box = [Parameter(n, "positional_or_keyword", annotation="int") for n in ("width", "height")]
    sets = {s["name"]: s["args"] for s in argument_sets(box, lambda _: None)}
    assert sets["example"] == {"width": 1, "height": 7}
    assert sets["edge"] == {"width": 0, "height": 0}  # the edge case stays the empty one


def test_a_class_annotated_as_type_is_given_a_class() -> None:
    # ``rules: Sequence[tuple[type, str]]`` got ``(None, "sample rule")``: isinstance(x, None)
    # raised in every call that reached it. A class stands where the code asks for one.
    none = lambda _: None  # noqa: E731
    assert sample_value("kind", "type", 0, none) == {"__type__": "list"}
    assert sample_value("kind", "type[int]", 1, none) == {"__type__": "int"}
    assert sample_value("kind", "Type[Node]", 0, lambda n: [] if n == "Node" else None) == {
        "__type__": "Node"
    }
    rules = sample_value("rules", "Sequence[tuple[type, str]]", 0, none)
    assert rules[0] == {"__tuple__": [{"__type__": "list"}, "other rule"]}


def test_a_parameter_taking_an_exception_class_gets_one_a_caller_raises() -> None:
    # pybreaker's ``add_excluded_exception(exception: type[ExceptionType])``, a TypeVar
    # bound to BaseException, was given ``dict`` and ``list``: a blind reviewer's "not
    # exception types; use real exception classes such as ValueError and KeyError".
    none = lambda _: None  # noqa: E731
    given = [sample_value("exc", "type[BaseException]", v, none) for v in (0, 1)]
    assert given == [{"__type__": "ValueError"}, {"__type__": "KeyError"}]
    assert sample_value("exc", "Type[Exception]", 0, none) == {"__type__": "ValueError"}
    # and the probe's sandbox builds them from their names, as the test will spell them
    assert built_value({"__type__": "KeyError"}, types.ModuleType("m")) is KeyError
