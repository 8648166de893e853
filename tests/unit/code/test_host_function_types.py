"""A toolkit function's TypedDicts in its stub: defined beside it, checked in scripts."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NotRequired, TypedDict

import pytest

from remora.code import CodeContext, check_tool_script, module_stubs
from remora.code.host_function import describe, module_stub
from remora.code.toolkit import toolkit_functions
from remora.sandbox import HostModuleStubs, check_pym


class Place(TypedDict):
    line: int
    column: int


class Finding(TypedDict):
    code: str
    places: list[Place]
    fixed: NotRequired[bool]


class Loose(TypedDict, total=False):
    note: str


class Wider(Finding):
    extra: Loose | None


class Tree(TypedDict):
    name: str
    children: list[Tree]


def findings(context: CodeContext, wanted: Finding, limit: int = 3) -> list[Wider]:
    return []


def tree(context: CodeContext) -> Tree:
    return {"name": "", "children": []}


def placed(context: CodeContext) -> Path:
    return Path()


def test_a_typeddict_return_and_parameter_render_with_their_definitions() -> None:
    function = describe(findings)
    assert function.stub == ("def findings(wanted: Finding, limit: int = 3) -> list[Wider]: ...")
    assert dict(function.types) == {
        "Place": "class Place(TypedDict):\n    line: int\n    column: int",
        "Finding": (
            "class Finding(TypedDict):\n"
            "    code: str\n"
            "    places: list[Place]\n"
            "    fixed: NotRequired[bool]"
        ),
        "Loose": "class Loose(TypedDict):\n    note: NotRequired[str]",
        "Wider": (
            "class Wider(TypedDict):\n"
            "    code: str\n"
            "    places: list[Place]\n"
            "    fixed: NotRequired[bool]\n"
            "    extra: Loose | None"
        ),
    }
    # Those a definition names come before it.
    names = [name for name, _ in function.types]
    assert names.index("Place") < names.index("Finding")
    assert names.index("Loose") < names.index("Wider")


def test_a_typeddict_naming_itself_is_rendered_once() -> None:
    assert describe(tree).types == (
        ("Tree", "class Tree(TypedDict):\n    name: str\n    children: list[Tree]"),
    )


def test_a_name_the_stub_cannot_define_is_refused() -> None:
    with pytest.raises(TypeError, match="'Path' in an annotation is neither a builtin"):
        describe(placed)


def test_two_typeddicts_of_one_name_that_differ_are_refused() -> None:
    other = describe(findings)
    changed = type(other)(
        "other", other.impl, "def other() -> Place: ...", "", (("Place", "class Place: ..."),)
    )
    with pytest.raises(ValueError, match="two TypedDicts named Place differ"):
        module_stub([other, changed])


def _check(tmp_path: Path, body: str) -> list[tuple[int, str]]:
    stubs = HostModuleStubs("remora_code", module_stub([describe(findings), describe(tree)]))
    script = tmp_path / "uses.pym"
    script.write_text("import remora_code\n" + body)
    return [(f.line, f.rule) for f in check_pym(script, host_modules=[stubs])]


def test_a_script_reads_the_fields_the_typeddict_has(tmp_path: Path) -> None:
    body = (
        "rows = remora_code.findings({'code': 'E711', 'places': []})\n"
        "first = rows[0]\n"
        "lines = [p['line'] + 1 for p in first['places']]\n"
        "child = remora_code.tree()['children'][0]['name']\n"
        "{'code': first['code'], 'lines': lines, 'child': child}\n"
    )
    assert _check(tmp_path, body) == []


def test_a_script_reading_a_missing_key_fails_the_check(tmp_path: Path) -> None:
    body = "rows = remora_code.findings({'code': 'E711', 'places': []})\nrows[0]['nope']\n"
    assert _check(tmp_path, body) == [(3, "invalid-key")]
    nested = "remora_code.tree()['children'][0]['label']\n"
    assert _check(tmp_path, nested) == [(2, "invalid-key")]


def test_a_script_passing_a_wrong_field_type_fails_the_check(tmp_path: Path) -> None:
    body = "remora_code.findings({'code': 3, 'places': []})\n"
    assert {rule for _, rule in _check(tmp_path, body)} == {"invalid-argument-type"}


def test_every_listed_function_renders_and_the_module_stub_parses(tmp_path: Path) -> None:
    functions = toolkit_functions()
    assert all(f.stub.endswith(": ...") for f in functions)
    stubs = module_stubs()
    ast.parse(stubs)
    for function in functions:
        assert function.stub in stubs
        assert all(definition in stubs for _, definition in function.types)
    script = tmp_path / "empty.pym"
    script.write_text("import remora_code\n")
    assert check_tool_script(script) == []
