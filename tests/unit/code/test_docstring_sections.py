"""Parameter sections built from the code: exactly the parameters a caller passes, or none.

The nodes are in ``cases/docstring_sections.py``. What each section must name
is checked twice: against a literal list, and against ``inspect.signature`` of
the module actually imported (Python's own answer, independent of the LibCST
and ``ast`` readers under test); every text is read back with ``docstring_parser``.
"""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

import docstring_parser
import pytest

from remora.code.docstring.pieces import Pieces
from remora.code.docstring.sections import PARSER_STYLES, documented_parameters, one_line
from remora.code.docstring.text import compose
from remora.code.parsing import NodeRef, SourceNode, locate, parse

CASE = Path(__file__).parent / "cases" / "docstring_sections.py"
STYLES = ("google", "numpy", "sphinx")
SUMMARY = Pieces(summary="Move parcels between depots.")
# What each parameter means: a section is written only when every parameter says something.
MEANINGS = [
    "Where they go.",
    "Who takes them.",
    "What else goes with them.",
    "How fast they go.",
    "What is written on them.",
    "Marks put on them.",
]


def described(names: list[str]) -> Pieces:
    return Pieces(SUMMARY.summary, params=dict(zip(names, MEANINGS, strict=False)))


# (node type, qualified name, line, the names the section must have, with * prefixes).
NODES = [
    ("function", "ship", 7, ["orders", "carrier", "*extra", "express", "note", "**labels"]),
    ("function", "pack", 13, ["items", "sizes"]),
    ("class", "Parcel", 26, ["weight", "seal", "fragile"]),  # dataclass: no ClassVar, init=False
    ("method", "Parcel.relabel", 37, ["label", "urgent"]),  # self left out
    ("method", "Parcel.volume", 41, ["width", "height"]),  # staticmethod: nothing implicit
    ("method", "Parcel.empty", 45, ["weight"]),  # cls left out
    ("class", "Depot", 50, ["name", "capacity"]),  # explicit __init__
    ("class", "Route", 56, ["start", "stops"]),  # NamedTuple
]


# The module's name is what its summaries may speak of (issue 57: a summary's nouns are the
# node's own, its class's or its module's).
MODULE_PATH = "parcels/move_between_depots.py"


def node(node_type: str, name: str, line: int) -> SourceNode:
    return locate(
        parse(CASE.read_text(encoding="utf-8"), MODULE_PATH), NodeRef(node_type, name, line)
    )


def imported() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docstring_sections_case", CASE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def python_says(name: str) -> list[str]:
    """The parameters ``inspect.signature`` gives, ``self``/``cls`` dropped, stars added."""
    owner: Any = imported()
    parts = name.split(".")
    for part in parts[:-1]:
        owner = getattr(owner, part)
    target = getattr(owner, parts[-1])
    stars = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    names = [stars.get(p.kind, "") + p.name for p in inspect.signature(target).parameters.values()]
    # A plain function on a class takes self; a classmethod's cls is bound by getattr already.
    is_plain_method = inspect.isclass(owner) and inspect.isfunction(
        inspect.getattr_static(owner, parts[-1])
    )
    return names[1:] if is_plain_method else names


@pytest.mark.parametrize(("node_type", "name", "line", "names"), NODES)
@pytest.mark.parametrize("style", STYLES)
def test_the_section_names_exactly_the_parameters(
    node_type: str, name: str, line: int, names: list[str], style: str
) -> None:
    assert python_says(name) == names
    plan = compose(node(node_type, name, line), described(names), style, None)
    # ship raises: without words for when, no Raises section (never its condition as code)
    assert plan["text"] is not None, plan
    assert all(part.startswith("raises") for part in plan["left_out"]), plan
    parsed = docstring_parser.parse(plan["text"], PARSER_STYLES[style])
    assert [p.arg_name for p in parsed.params] == names
    assert parsed.short_description == "Move parcels between depots."


# Issue 57: entries with only a type or "Defaults to …" repeat the signature; they were
# written before ("orders (list[str]):", "express (bool): Defaults to ``False``.").
@pytest.mark.parametrize(
    ("name", "pieces", "expected"),
    [
        (
            "ship",
            Pieces(
                summary="Ship the orders with the carrier.",
                params={"carrier": "Who takes the parcels.", "orders": "The orders."},
            ),
            # "The orders." only repeats the name; the others say nothing: no section; and
            # the raise's condition is no words: no Raises section either.
            "Ship the orders with the carrier.",
        ),
        (
            "pack",
            Pieces(
                summary="Pack the items into boxes.",
                params={"items": "What to pack.", "**sizes": "Box size per label."},
            ),
            "Pack the items into boxes.\n\n"
            "Args:\n    items: What to pack.\n    sizes (dict[str, int]): Box size per label.",
        ),
        (
            "Parcel",
            Pieces(summary="A parcel to move.", params={"seal": "Seal number."}),
            "A parcel to move.",
        ),
        ("Depot", Pieces(summary="A depot that stores parcels."), "A depot that stores parcels."),
    ],
)
def test_google_text(name: str, pieces: Pieces, expected: str) -> None:
    found = next(n for n in NODES if n[1] == name)
    plan = compose(node(*found[:3]), pieces, "google", None)
    assert plan["text"] == expected


def test_a_multi_line_annotation_is_written_on_one_line() -> None:
    plan = compose(node("function", "pack", 13), described(["items", "sizes"]), "numpy", None)
    assert "sizes : dict[str, int]\n    Who takes them." in plan["text"]
    assert one_line("(\n    1,\n    2,\n)") == "(1, 2)"
    assert one_line(None) == ""


@pytest.mark.parametrize("style", STYLES)
def test_parameters_that_cannot_be_known_leave_the_section_out(style: str) -> None:
    lost = node("class", "Lost", 61)  # the constructor is Exception's, from another module
    assert documented_parameters(lost).parameters is None
    plan = compose(
        lost, Pieces(summary="A parcel that went missing.", params={"x": "X."}), style, None
    )
    assert plan["text"] == "A parcel that went missing."
    assert plan["left_out"] == [
        "params: the constructor cannot be read exactly here (base Exception of another module)"
    ]
    assert [r["field"] for r in plan["refused"]] == ["params.x"]


def test_no_summary_writes_nothing_even_when_sections_could_be_built() -> None:
    given = Pieces(summary="Ship.", params={"carrier": "Who takes the parcels."})
    plan = compose(node("function", "ship", 7), given, "google", None)
    assert plan["text"] is None
    assert plan["left_out"] == ["everything: no summary Remora can stand behind"]


def test_a_description_the_parser_reads_as_a_section_is_left_out() -> None:
    given = Pieces(summary="Pack the items into boxes.", description="Raises:\n\nKeyError: Never.")
    plan = compose(node("function", "pack", 13), given, "google", None)
    assert plan["text"] == "Pack the items into boxes."
    assert plan["left_out"] == [
        "params: not every parameter has a description",
        "description: not read back exactly",
    ]


@pytest.mark.parametrize("style", STYLES)
def test_bare_parameter_names_alone_leave_the_section_out(style: str) -> None:
    # Names without a type, a default or a description only repeat the signature.
    add = locate(parse("def add(a, b):\n    return a + b\n", "m.py"), NodeRef("function", "add", 1))
    plan = compose(add, Pieces(summary="Return the sum of a and b."), style, None)
    assert plan["text"] == "Return the sum of a and b."
    assert plan["left_out"] == ["params: not every parameter has a description"]
    # Issue 57: one described parameter no longer keeps the section with a bare ``a``.
    plan = compose(
        add, Pieces(summary="Return the sum of a and b.", params={"b": "What to add."}), style, None
    )
    assert plan["text"] == "Return the sum of a and b."
    plan = compose(
        add,
        Pieces(
            summary="Return the sum of a and b.", params={"a": "The start.", "b": "What to add."}
        ),
        style,
        None,
    )
    parsed = docstring_parser.parse(plan["text"], PARSER_STYLES[style])
    assert [p.arg_name for p in parsed.params] == ["a", "b"]
