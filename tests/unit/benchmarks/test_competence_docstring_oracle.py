"""The competence oracle's parameter-section judgement (``check_docstring``), case by case.

Functions and methods are judged against their ``ast`` signature, classes
against ``inspect.signature`` of the class imported in a subprocess from the
project copy. The last tests check that what Remora's docstring agent writes
(``remora.code.docstring.text.compose``) is what the oracle calls exact, in
every style.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pytest
from ast_definitions import definition_named

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from competence_lib.checks import check_docstring
from competence_lib.real_signature import import_root
from competence_lib.report import docstring_figures

from remora.code.docstring.pieces import Pieces
from remora.code.docstring.text import compose
from remora.code.parsing import NodeRef, locate, parse

CASES = Path(__file__).resolve().parents[1] / "code" / "cases" / "docstring_sections.py"

FUNCTIONS = """\
def ship(orders, /, carrier, *extra, express=False, **labels):
    return orders


class Box:
    def put(self, item, *, limit=3):
        return item

    @staticmethod
    def volume(width, height):
        return width * height

    @classmethod
    def empty(cls, weight=0.0):
        return cls()
"""


def with_docstring(text: str, qualname: str, doc: str) -> str:
    """``text`` with ``doc`` as the docstring of ``qualname`` (before its first statement)."""
    first = definition_named(text, qualname).body[0]
    indent = " " * first.col_offset
    raw = "r" if "\\" in doc else ""  # keeps a reST escape (\*args) as written
    quoted = textwrap.indent(f'{raw}"""{doc}\n"""', indent, lambda line: True)
    lines = text.splitlines(keepends=True)
    lines.insert(first.lineno - 1, quoted + "\n")
    return "".join(lines)


GOOD_SHIP = {
    "google": "Ship.\n\nArgs:\n    orders: O.\n    carrier: C.\n    *extra: E.\n"
    "    express: X.\n    **labels: L.",
    "numpy": "Ship.\n\nParameters\n----------\norders\n    O.\ncarrier\n    C.\n*extra\n    E.\n"
    "express\n    X.\n**labels\n    L.",
    "sphinx": "Ship.\n\n:param orders: O.\n:param carrier: C.\n:param *extra: E.\n"
    ":param express: X.\n:param **labels: L.",
}


@pytest.mark.parametrize(
    ("qualname", "style", "doc", "match"),
    [
        ("ship", "google", GOOD_SHIP["google"], True),
        ("ship", "numpy", GOOD_SHIP["numpy"], True),
        ("ship", "sphinx", GOOD_SHIP["sphinx"], True),
        # Order is not judged, only the names.
        (
            "ship",
            "google",
            "Ship.\n\nArgs:\n    **labels: L.\n    orders: O.\n    carrier: C.\n"
            "    *extra: E.\n    express: X.",
            True,
        ),
        # numpydoc: parameters sharing a type and text share one entry.
        (
            "ship",
            "numpy",
            "Ship.\n\nParameters\n----------\norders, carrier\n    O.\n"
            "*extra, **labels\n    E.\nexpress\n    X.",
            True,
        ),
        # reST escapes the stars (Napoleon's output); the escape is not part of the name.
        ("ship", "sphinx", GOOD_SHIP["sphinx"].replace("*", "\\*"), True),
        # *args and **kwargs are written with their stars in every style.
        ("ship", "google", GOOD_SHIP["google"].replace("*", ""), False),
        ("ship", "sphinx", GOOD_SHIP["sphinx"].replace("*", ""), False),
        # A positional-only parameter is a parameter like any other.
        ("ship", "google", GOOD_SHIP["google"].replace("    orders: O.\n", ""), False),
        ("ship", "google", GOOD_SHIP["google"] + "\n    color: Not a parameter.", False),
        ("Box.put", "google", "Put.\n\nArgs:\n    item: I.\n    limit: L.", True),
        ("Box.put", "google", "Put.\n\nArgs:\n    self: S.\n    item: I.\n    limit: L.", False),
        ("Box.volume", "google", "Volume.\n\nArgs:\n    width: W.\n    height: H.", True),
        ("Box.empty", "google", "Empty.\n\nArgs:\n    weight: W.", True),
        ("Box.empty", "google", "Empty.\n\nArgs:\n    cls: C.\n    weight: W.", False),
        ("Box.empty", "google", "Empty.", False),
    ],
)
def test_functions_and_methods_are_judged_against_their_signature(
    qualname: str, style: str, doc: str, match: bool
) -> None:
    checked = check_docstring(FUNCTIONS, with_docstring(FUNCTIONS, qualname, doc), qualname, style)
    assert checked.params_match is match and checked.params_unjudged == ""
    kinds = [p.kind for p in checked.problems]
    # A section left out is no match, but no wrong claim either: not a problem.
    wrong = not match and ("Args:" in doc or ":param" in doc or "Parameters\n" in doc)
    assert kinds == (["parameters differ"] if wrong else [])


CLASSES = """\
from dataclasses import dataclass


class Box:
    def __init__(self, size, /, *items, label="", **options):
        self.size = size


@dataclass
class Parcel:
    weight: float
    fragile: bool = False


class Plain:
    pass


class Outer:
    class Inner:
        def __init__(self, depth):
            self.depth = depth
"""


@pytest.mark.parametrize(
    ("qualname", "doc", "match"),
    [
        (
            "Box",
            "A box.\n\nArgs:\n    size: S.\n    *items: I.\n    label: L.\n    **options: O.",
            True,
        ),
        (
            "Box",
            "A box.\n\nArgs:\n    self: S.\n    size: S.\n    *items: I.\n    label: L.\n"
            "    **options: O.",
            False,
        ),
        ("Box", "A box.", False),
        ("Parcel", "A parcel.\n\nArgs:\n    weight: W.\n    fragile: F.", True),
        ("Parcel", "A parcel.\n\nArgs:\n    weight: W.", False),
        ("Plain", "Nothing to pass.", True),
        ("Plain", "Nothing.\n\nArgs:\n    value: V.", False),
        ("Outer.Inner", "Inner.\n\nArgs:\n    depth: D.", True),
    ],
)
@pytest.mark.parametrize("rel_path", ["pkg/shapes.py", "src/pkg/shapes.py", "shapes.py"])
def test_classes_are_judged_against_the_imported_constructor(
    tmp_path: Path, rel_path: str, qualname: str, doc: str, match: bool
) -> None:
    module = tmp_path / rel_path
    module.parent.mkdir(parents=True, exist_ok=True)
    module.write_text(CLASSES)
    if module.parent.name == "pkg":
        (module.parent / "__init__.py").write_text("")
    after = with_docstring(CLASSES, qualname, doc)
    checked = check_docstring(
        CLASSES, after, qualname, "google", project=tmp_path, rel_path=rel_path
    )
    assert checked.params_unjudged == ""
    assert checked.params_match is match
    wrong = not match and "Args:" in doc
    assert [p.kind for p in checked.problems] == (["parameters differ"] if wrong else [])


def test_import_root_is_the_first_folder_above_the_package(tmp_path: Path) -> None:
    (tmp_path / "src" / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "__init__.py").write_text("")
    (tmp_path / "src" / "pkg" / "sub" / "__init__.py").write_text("")
    assert import_root(tmp_path, "src/pkg/sub/m.py") == (tmp_path / "src", "pkg.sub.m")
    assert import_root(tmp_path, "src/pkg/__init__.py") == (tmp_path / "src", "pkg")
    assert import_root(tmp_path, "tool.py") == (tmp_path, "tool")


@pytest.mark.parametrize(
    ("module_text", "reason"),
    [
        (CLASSES + "\nraise RuntimeError('needs a database')\n", "RuntimeError: needs a database"),
        ("import not_installed_anywhere\n" + CLASSES, "ModuleNotFoundError"),
        ("class Lost(Exception):\n    pass\n" + CLASSES, "no signature found"),
        ("import enum\nclass Lost(enum.Enum):\n    A = 1\n" + CLASSES, "TypeError: an Enum"),
    ],
)
def test_a_class_that_cannot_be_imported_is_not_judged(
    tmp_path: Path, module_text: str, reason: str
) -> None:
    (tmp_path / "shapes.py").write_text(module_text)
    qualname = "Lost" if "Lost" in module_text else "Box"
    after = with_docstring(module_text, qualname, "A box.\n\nArgs:\n    anything: A.")
    checked = check_docstring(
        module_text, after, qualname, "google", project=tmp_path, rel_path="shapes.py"
    )
    assert reason in checked.params_unjudged
    assert not checked.params_match and checked.problems == []


def test_a_class_without_a_project_is_not_judged() -> None:
    after = with_docstring(CLASSES, "Plain", "Nothing.")
    checked = check_docstring(CLASSES, after, "Plain", "google")
    assert "needs the project" in checked.params_unjudged and checked.problems == []


# What Remora's docstring agent writes for the nodes of its own section tests.
AGENT_NODES = [
    ("function", "ship", 7),
    ("function", "pack", 13),
    ("class", "Parcel", 26),
    ("method", "Parcel.relabel", 37),
    ("method", "Parcel.volume", 41),
    ("method", "Parcel.empty", 45),
    ("class", "Depot", 50),
    ("class", "Route", 56),
]


@pytest.mark.parametrize(("node_type", "qualname", "line"), AGENT_NODES)
@pytest.mark.parametrize("style", ["google", "numpy", "sphinx"])
def test_the_oracle_calls_what_the_agent_writes_exact(
    tmp_path: Path, node_type: str, qualname: str, line: int, style: str
) -> None:
    shutil.copy(CASES, tmp_path / "parcels.py")
    before = CASES.read_text(encoding="utf-8")
    node = locate(parse(before, "parcels.py"), NodeRef(node_type, qualname, line))
    # a summary of no other class's nouns: the docstring rules would refuse "depots" here
    summary = "Handle the arguments it is given."
    plan = compose(node, Pieces(summary=summary), style, None)
    assert plan["text"] is not None
    after = with_docstring(before, qualname, plan["text"])
    checked = check_docstring(
        before, after, qualname, style, project=tmp_path, rel_path="parcels.py"
    )
    # exact, or left out (with no description to give, the agent writes no parameter
    # entries): a section that named other parameters would be a problem
    assert checked.problems == [] and checked.params_unjudged == ""


def test_a_class_whose_constructor_neither_side_can_know_is_left_unjudged(tmp_path: Path) -> None:
    # Remora writes no section for Lost (its constructor is Exception's); Python
    # has no signature for it either: the oracle reports it apart, not as wrong.
    shutil.copy(CASES, tmp_path / "parcels.py")
    before = CASES.read_text(encoding="utf-8")
    node = locate(parse(before, "parcels.py"), NodeRef("class", "Lost", 61))
    plan = compose(node, Pieces(summary="A parcel that went missing."), "google", None)
    assert plan["text"] == "A parcel that went missing."
    after = with_docstring(before, "Lost", plan["text"])
    checked = check_docstring(
        before, after, "Lost", "google", project=tmp_path, rel_path="parcels.py"
    )
    assert "no signature found" in checked.params_unjudged and checked.problems == []


def test_unjudged_runs_are_counted_apart_from_the_params_share() -> None:
    def run(params_match: bool, unjudged: str = "") -> dict[str, object]:
        return {
            "summary": "Do it.",
            "has_docstring": True,
            "rouge_l": 0.0,
            "name_rouge_l": 0.0,
            "same_as_name": False,
            "params_match": params_match,
            "params_unjudged": unjudged,
            "code_unchanged": True,
        }

    runs = [run(True), run(False), run(False, "shapes.Box: RuntimeError: needs a database")]
    figures = docstring_figures(runs)
    assert figures["params_match_share"] == 0.5 and figures["params_unjudged"] == 1
