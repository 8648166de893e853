"""Whole runs of the bundled lint agent, only the model scripted: the host applies ruff's safe
fixes, and the model is asked only about the findings without one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from remora.agents import AgentRegistry, node_template_vars
from remora.config import RunnerConfig, SandboxConfig
from remora.discovery import discover
from remora.discovery.node import CSTNode
from remora.events import RecordingEmitter
from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.runner import AgentResult, AgentRunner, SandboxToolExecutor
from remora.sandbox import SandboxRuntime
from remora.workspace import WorkspaceStore

RUFF = '[project]\nname = "demo"\nversion = "0.1"\n\n[tool.ruff.lint]\nselect = ["E", "F"]\n'


@pytest.fixture
async def runtime() -> AsyncIterator[SandboxRuntime]:
    async with SandboxRuntime(SandboxConfig(workers=1)) as rt:
        yield rt


def project(tmp_path: Path, source: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(RUFF)
    (tmp_path / "m.py").write_text(source)
    return tmp_path


def node_of(root: Path, full_name: str | None) -> CSTNode:
    for node in discover([root / "m.py"], project_root=root).nodes:
        if (node.node_type == "file") == (full_name is None) and (
            full_name is None or node.full_name == full_name
        ):
            return node
    raise AssertionError(full_name)


async def lint(
    runtime: SandboxRuntime, root: Path, full_name: str | None, turns: list[Any]
) -> tuple[AgentResult, ScriptedProvider, str, RecordingEmitter]:
    node = node_of(root, full_name)
    workspace = WorkspaceStore(root).create("lint", node.node_id)
    provider = ScriptedProvider(turns)
    emitter = RecordingEmitter()
    runner = AgentRunner(
        AgentRegistry().get("lint"),
        provider,
        RunnerConfig(),
        SandboxToolExecutor(runtime, workspace, node, SandboxConfig()),
        emitter=emitter,
        template_vars=node_template_vars(node),
    )
    result = await runner.run()
    text = (workspace.read("m.py") or b"").decode()
    workspace.close()
    return result, provider, text, emitter


async def test_safe_fixes_alone_need_no_model_turn_and_are_the_change(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = project(tmp_path, "import os\nimport sys\n\n\ndef f(x):\n    return x\n")
    result, provider, text, emitter = await lint(runtime, root, None, [])
    assert result.status == "success", result.to_dict()
    assert result.turns == 0 and provider.requests == []
    assert result.changed_files == ["m.py"]
    assert text == "def f(x):\n    return x\n"  # no blank lines left at the file's start
    assert result.summary == "no ruff findings left on m.py outside its functions and classes"
    # The host's calls are recorded like the model's, with turn 0, and counted.
    calls = [(e.data["turn"], e.data["name"]) for e in emitter.events if e.kind == "tool_call"]
    assert calls == [(0, "fix_safe"), (1, "submit_result")]
    run_end = next(e for e in emitter.events if e.kind == "run_end")
    assert run_end.data["host_calls"] == 2 and run_end.data["turns"] == 0


async def test_a_finding_without_safe_fix_gets_one_decision_turn_on_the_fixed_text(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    source = "def f(x):\n    import os\n    y = x\n    return x\n"
    root = project(tmp_path, source)
    fixed = "def f(x):\n    return x"
    turns = [tool_turn(("edit_node", {"issue_code": "F841", "replacement": fixed}))]
    result, provider, text, _ = await lint(runtime, root, "f", turns)
    assert result.status == "success", result.to_dict()
    # One model turn (the decision); the submit that follows is the host's.
    assert result.turns == 1 and len(provider.requests) == 1
    # The model sees the text after ruff's safe fix, and only the finding left with its
    # statement and the numbered lines around it.
    assert provider.requests[0].messages[1].text == (
        "function f in m.py (ruff's safe fixes for F401 applied).\n"
        "Findings left. For each, edit_node replaces only the lines in its python block:\n\n"
        "F841 at line 2: Local variable `y` is assigned to but never used\n"
        "1 | def f(x):\n2 |     y = x\n3 |     return x\n"
        "lines 2-2:\n```python\n    y = x\n```\n"
    )
    assert [t.name for t in provider.requests[0].tools] == ["edit_node", "submit_result"]
    assert text == "def f(x):\n    return x\n"
    assert result.details["remaining"] == []


async def test_a_functions_finding_is_fixed_by_rewriting_its_statement_only(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    source = "def g(item):\n    if item == None:\n        return 0\n    return item\n"
    root = project(tmp_path, source)
    turns = [tool_turn(("edit_node", {"issue_code": "E711", "replacement": "if item is None:"}))]
    result, provider, text, _ = await lint(runtime, root, "g", turns)
    assert result.status == "success", result.to_dict()
    assert result.turns == 1 and len(provider.requests) == 1
    assert text == source.replace("item == None", "item is None")


async def test_a_file_node_shows_the_findings_statement_not_the_file(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    body = "".join(f"def g{i}(a):\n    return a + {i}\n\n\n" for i in range(30))
    source = "import os\n\nX = 1\nif X == None:\n    X = 2\n\n\n" + body
    root = project(tmp_path, source)
    turns = [
        tool_turn(("edit_node", {"issue_code": "E711", "replacement": "if X is None:"})),
        tool_turn(("submit_result", {})),
    ]
    result, provider, text, _ = await lint(runtime, root, None, turns)
    assert result.status == "success", result.to_dict()
    assert result.turns == 2
    first = provider.requests[0].messages[1].text
    # F401's fix took `import os` and the blank line after it: the statement is on line 2.
    assert "def g29" not in first and "E711 at line 2:" in first
    assert "lines 2-2:\n```python\nif X == None:\n```" in first
    assert "1 | X = 1\n2 | if X == None:\n3 |     X = 2" in first
    # The rewrite is right, but no call runs a module's statements: refused, with the reason.
    assert text == "X = 1\nif X == None:\n    X = 2\n\n\n" + body
    assert [r["code"] for r in result.details["refused"]] == ["E711"]
    assert "a file is not called" in result.details["refused"][0]["reason"]


async def test_a_failing_host_step_is_the_runs_failed_result(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = project(tmp_path, "def f(x):\n    return x\n")
    node = node_of(root, "f")
    (root / "m.py").write_text("def f(x):\n    return (x\n")  # saved mid-edit
    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    workspace = WorkspaceStore(root).create("lint", node.node_id)
    runner = AgentRunner(
        AgentRegistry().get("lint"),
        provider,
        RunnerConfig(),
        SandboxToolExecutor(runtime, workspace, node, SandboxConfig()),
        template_vars=node_template_vars(node),
    )
    result = await runner.run()
    workspace.close()
    assert result.status == "failed" and result.turns == 0 and provider.requests == []
    assert result.error is not None
    assert "host_steps[0] (fix_safe) failed:" in result.error.message
    assert "cannot parse the file" in result.error.message
    assert result.changed_files == []


async def test_a_refused_edit_repeated_word_for_word_ends_with_the_hosts_submit(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # What the embedded model did on examples/sample_project's Order.place: the rule
    # code as the replacement, refused, then the same call until the turn limit.
    root = project(tmp_path, "def f(x):\n    y = x\n    return x\n")
    same = tool_turn(("edit_node", {"issue_code": "F841", "replacement": "F841"}))
    result, provider, text, _ = await lint(runtime, root, "f", [same, same, same, same])
    assert result.status == "success", result.to_dict()
    # Was four requests (turns 1-4, the host's submit in turn 5's slot).
    assert len(provider.requests) == 2 and result.turns == 2
    assert result.summary == "1 ruff finding(s) left on f: F841"
    assert text == "def f(x):\n    y = x\n    return x\n"
    assert result.details["host_finished"]["repeated"][0]["tool"] == "edit_node"
