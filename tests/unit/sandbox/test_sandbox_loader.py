"""The .pym loader and checker: declarations, blanked lines, stubs, findings, cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from sandbox_kit import HEADER, declare, write_script

from remora.errors import AGENT_DEFINITION
from remora.sandbox import Finding, PymLoadError, check_pym, iter_pym_files, load_pym

GOOD = (
    HEADER
    + """
path: str = Input("path", description="File to read, relative to the project")
limit: int = Input("limit", default=100)
mode: Literal["a", "b"] | None = Input(default=None)
tags: list[str] = Input(default=[])

@external
async def read_file(path: str) -> str: ...

text = await read_file(path)
{"lines": len(text.splitlines()[:limit])}
"""
)


def rules(findings: list[Finding]) -> list[tuple[int, str]]:
    return [(f.line, f.rule) for f in findings]


def test_good_script_declarations_and_schema(tmp_path: Path) -> None:
    path = write_script(tmp_path, "read.pym", GOOD)
    script = load_pym(path)
    assert [i.name for i in script.inputs] == ["path", "limit", "mode", "tags"]
    assert script.externals == ["read_file"]
    assert script.parameters_schema() == {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "File to read, relative to the project"},
            "limit": {"type": "integer", "default": 100},
            "mode": {
                "anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}],
                "default": None,
            },
            "tags": {"type": "array", "items": {"type": "string"}, "default": []},
        },
        "required": ["path"],
        "additionalProperties": False,
    }
    assert "async def read_file(path: str) -> str" in script.stubs
    assert "limit: int" in script.stubs


def test_declarations_are_blanked_and_lines_kept(tmp_path: Path) -> None:
    path = write_script(tmp_path, "read.pym", GOOD)
    script = load_pym(path)
    source = path.read_text().split("\n")
    code = script.code.split("\n")
    assert len(code) == len(source)
    for index, line in enumerate(source):
        if line.startswith(("text =", "{")):
            assert code[index] == line  # real code stays on its own line number
        elif line.startswith(("from remora", "@external", "async def", "path:", "limit:")):
            assert code[index] == ""


def test_load_is_cached_by_content_hash(tmp_path: Path) -> None:
    first = write_script(tmp_path, "one.pym", GOOD)
    second = write_script(tmp_path, "two.pym", GOOD)
    a = load_pym(first)
    assert load_pym(first) is a
    b = load_pym(second)
    assert b.sha256 == a.sha256 and b.path == second and b.code == a.code


def test_syntax_error_is_a_load_error_with_line(tmp_path: Path) -> None:
    path = write_script(tmp_path, "broken.pym", "x = 1\ny = (\n")
    with pytest.raises(PymLoadError) as info:
        load_pym(path)
    assert info.value.code == AGENT_DEFINITION
    assert [(f.rule, f.file) for f in info.value.findings] == [("pym-syntax", str(path))]
    assert str(info.value.findings[0]).startswith(f"{path}:")


@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        ("x = 1\nclass A(Exception):\n    pass\n", 2, "class inheritance"),
        ("def g():\n    yield 1\n", 2, "yield"),
        ("def h():\n    z = 1\n    del z\n", 3, "'del'"),
        ("async def f(y):\n    async for i in y:\n        pass\n", 2, "async for"),
        ("try:\n    pass\nexcept* ValueError:\n    pass\n", 1, "exception groups"),
    ],
)
def test_what_monty_rejects_is_found_at_load(
    tmp_path: Path, body: str, line: int, words: str
) -> None:
    path = write_script(tmp_path, "unsupported.pym", body)
    findings = check_pym(path)
    assert [(f.line, f.rule) for f in findings if f.rule == "pym-unsupported"] == [
        (line, "pym-unsupported")
    ]
    assert words in findings[0].message


def test_unavailable_modules_and_host_access_are_found(tmp_path: Path) -> None:
    body = "import subprocess\nimport textwrap\nimport json\nopen('/etc/passwd')\n"
    findings = check_pym(write_script(tmp_path, "host.pym", body))
    assert rules(findings) == [
        (1, "unresolved-import"),
        (2, "unresolved-import"),
        (4, "unresolved-reference"),
    ]


def test_type_errors_use_the_original_lines(tmp_path: Path) -> None:
    body = (
        HEADER
        + "\n"
        + declare("read_file")
        + ("n: int = Input()\n\ntext: int = await read_file(n)\n")
    )
    findings = check_pym(write_script(tmp_path, "types.pym", body))
    # read_file(n) passes an int where a str is expected; the result is a str, not an int.
    assert rules(findings) == [(7, "invalid-argument-type"), (7, "invalid-assignment")]


def test_declaration_problems_are_each_reported(tmp_path: Path) -> None:
    body = (
        HEADER
        + """
from remora.config import RemoraConfig
path: str = Input("pth")
n = Input()
flags: set[int] = Input(default=1)
count: int = Input(default="many")

@external
async def read_file(p: str, q: int) -> str: ...

@external
def run_command(cmd: str, args: list[str]) -> dict[str, Any]: ...

@external
async def frobnicate() -> None: ...

@external
async def log(message: str) -> None:
    print(message)

def helper():
    return Input()
"""
    )
    findings = check_pym(write_script(tmp_path, "decl.pym", body))
    ours = [
        (f.line, f.message.split(":")[0].split(" ")[0])
        for f in findings
        if f.rule.startswith("pym-")
    ]
    by_line = {line for line, _ in ours}
    assert {3, 4, 5, 6, 7, 10, 13, 16, 20, 23} <= by_line
    messages = "\n".join(str(f) for f in findings)
    assert "cannot import 'remora.config'" in messages
    assert "must equal the variable" in messages
    assert "annotate the input" in messages
    assert "set[int] has no JSON schema" in messages
    assert "default 'many' does not match int" in messages
    assert "takes (path), declared (p, q)" in messages
    assert "must be declared `async def`" in messages
    assert "unknown external 'frobnicate'" in messages
    assert "the body must be `...`" in messages
    assert "belongs at the top level" in messages


def test_extra_externals_are_accepted_when_the_host_names_them(tmp_path: Path) -> None:
    body = HEADER + "@external\nasync def crash() -> None: ...\nawait crash()\n"
    path = write_script(tmp_path, "crash.pym", body)
    assert any("unknown external 'crash'" in f.message for f in check_pym(path))
    assert load_pym(path, extra_externals=["crash"]).externals == ["crash"]


def test_declarations_sharing_a_line_are_refused(tmp_path: Path) -> None:
    body = HEADER + 'x = 1; path: str = Input("path")\n'
    findings = check_pym(write_script(tmp_path, "shared.pym", body))
    assert (2, "pym-declaration") in rules(findings)


def test_unreadable_and_non_utf8_files(tmp_path: Path) -> None:
    missing = check_pym(tmp_path / "nope.pym")
    assert rules(missing) == [(1, "pym-read")]
    latin = tmp_path / "latin.pym"
    latin.write_bytes(b"x = 1\ny = '\xe9'\n")
    assert rules(check_pym(latin)) == [(2, "pym-read")]


def test_iter_pym_files_walks_directories(tmp_path: Path) -> None:
    (tmp_path / "tools" / "deep").mkdir(parents=True)
    a = write_script(tmp_path / "tools", "a.pym", "1\n")
    b = write_script(tmp_path / "tools" / "deep", "b.pym", "2\n")
    write_script(tmp_path / "tools", "c.py", "3\n")
    assert list(iter_pym_files([tmp_path / "tools"])) == [a, b]


def test_pym_module_is_importable_on_the_host() -> None:
    from remora.pym import MISSING, Input, InputSpec, external

    spec = Input("path", description="d")
    assert isinstance(spec, InputSpec) and spec.required and spec.default is MISSING

    @external
    async def read_file(path: str) -> str:
        return path

    assert read_file.__remora_external__ is True  # type: ignore[attr-defined]
