"""The ``remora_code`` external module: stubs derived from the host functions, bound per run."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.code import (
    MODULE_NAME,
    CodeContext,
    build_module,
    check_tool_script,
    load_tool_script,
    module_stubs,
    toolkit_stubs,
)
from remora.config import SandboxConfig
from remora.discovery.node import CSTNode, make_node_id
from remora.sandbox import check_pym, run_one
from remora.workspace import WorkspaceStore

SOURCE = "def fold(items, op=lambda a, b: a + b):\n    return items\n"


def test_stubs_are_the_functions_signatures_without_the_context() -> None:
    stubs = module_stubs()
    assert "def set_docstring(text: str) -> DocstringWrite: ..." in stubs
    assert "async def lint_fix(code: str = '') -> LintFix: ..." in stubs
    lint_fix = "class LintFix(TypedDict):\n    applied: list[str]\n    remaining: list[LintFinding]"
    assert lint_fix in stubs
    assert "context" not in stubs


def test_agents_check_type_checks_calls_against_the_stubs(tmp_path: Path) -> None:
    script = tmp_path / "bad.pym"
    script.write_text("import remora_code\nremora_code.set_docstring(3)\nremora_code.nope()\n")
    findings = [(f.line, f.rule) for f in check_tool_script(script)]
    assert findings == [(2, "invalid-argument-type"), (3, "unresolved-attribute")]


def test_the_sandbox_alone_knows_no_host_module(tmp_path: Path) -> None:
    # The sandbox's loader type-checks only against the host modules its caller names.
    script = tmp_path / "uses.pym"
    script.write_text("import remora_code\nremora_code.set_docstring('x')\n")
    assert [f.rule for f in check_pym(script)] == ["unresolved-import"]
    assert check_tool_script(script) == []


async def test_a_script_calls_the_module_bound_to_its_node(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "m.py").write_text(SOURCE)
    node = CSTNode(
        node_id=make_node_id("m.py", "fold", "function"),
        node_type="function",
        name="fold",
        full_name="fold",
        file_path="m.py",
        start_byte=0,
        end_byte=len(SOURCE),
        start_line=1,
        end_line=2,
        text=SOURCE,
    )
    script = tmp_path / "t.pym"
    script.write_text(
        "import remora_code\n"
        "params = remora_code.signature()['parameters']\n"
        "names = [p['name'] + '=' + str(p['default']) for p in params]\n"
        "written = remora_code.set_docstring('Fold the items.')\n"
        "try:\n"
        "    remora_code.set_docstring('')\n"
        "    refused = ''\n"
        "except ValueError as exc:\n"
        "    refused = str(exc)\n"
        "{'names': names, 'changed': written['changed'], 'refused': refused}\n"
    )
    config = SandboxConfig(workers=1)
    with WorkspaceStore(root).create("t", node.node_id) as workspace:
        modules = {MODULE_NAME: build_module(CodeContext(workspace, node, config))}
        envelope = await run_one(config, load_tool_script(script), {}, {}, modules=modules)
        written = workspace.read("m.py")
    assert envelope["ok"], envelope
    assert envelope["result"]["names"] == ["items=None", "op=lambda a, b: a + b"]
    assert envelope["result"]["changed"] is True
    assert "empty" in envelope["result"]["refused"]
    assert written == SOURCE.replace(":\n", ':\n    """Fold the items."""\n', 1).encode()
    assert (root / "m.py").read_text() == SOURCE  # the project itself is untouched


def test_a_host_function_without_annotations_is_refused() -> None:
    from remora.code.host_function import host_function

    def untyped(context: CodeContext, value):  # type: ignore[no-untyped-def]
        return value

    with pytest.raises(TypeError, match="needs an annotation"):
        host_function(untyped)


def test_a_script_found_clean_is_checked_again_when_the_toolkit_changes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from remora.sandbox import HostModuleStubs
    from remora.sandbox.checker import _clean_marker

    monkeypatch.setenv("REMORA_CHECK_CACHE", str(tmp_path))
    script = "import remora_code\n"
    before = _clean_marker(script, "", [toolkit_stubs()])
    other = HostModuleStubs(MODULE_NAME, "def other() -> int: ...\n")
    assert _clean_marker(script, "", [other]) != before
    assert _clean_marker(script, "", [toolkit_stubs()]) == before
