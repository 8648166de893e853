"""The loop with real `.pym` tools on Monty, a real sqlite workspace and real ruff.

Only the model is scripted; everything the calls touch is real.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.agents import AgentRegistry, load_agent, node_template_vars
from remora.config import RunnerConfig, SandboxConfig
from remora.discovery import discover
from remora.discovery.node import CSTNode, make_node_id
from remora.events import RecordingEmitter
from remora.providers.scripted import ScriptedProvider, text_turn, tool_turn
from remora.runner import AgentRunner, SandboxToolExecutor
from remora.sandbox import SandboxRuntime
from remora.workspace import WorkspaceStore

pytestmark = pytest.mark.integration

SOURCE = 'def greet(name):\n    return "hi " + name\n'

AGENT_YAML = """\
name: notes
description: Writes a note about a function.
max_turns: 6
initial_context:
  system_prompt: You write notes about code.
  node_context: "{{ node_type }} {{ full_name }} in {{ file_path }}"
tools:
  - name: read_source
    pym: tools/read_source.pym
    description: Read the function's source.
  - name: write_note
    pym: tools/write_note.pym
    description: Write a note file.
    context_providers: [context/style.pym]
  - name: divide
    pym: tools/divide.pym
    description: Divide two numbers.
  - name: submit_result
    pym: tools/submit.pym
    description: Finish.
"""

SCRIPTS = {
    "tools/read_source.pym": """\
from remora.pym import external

@external
async def get_node_source() -> str: ...

source = await get_node_source()
{"source": source, "lines": len(source.splitlines())}
""",
    "tools/write_note.pym": """\
from remora.pym import Input, external

text: str = Input("text", description="The note")

@external
async def write_file(path: str, content: str) -> bool: ...

await write_file("notes/greet.txt", text + "\\n")
{"written": "notes/greet.txt"}
""",
    "tools/divide.pym": """\
from remora.pym import Input

a: int = Input("a")
b: int = Input("b")

a // b
""",
    "tools/submit.pym": """\
from remora.pym import Input, external

summary: str = Input("summary", description="What was done")

@external
async def file_exists(path: str) -> bool: ...

{"note_exists": await file_exists("notes/greet.txt")}
""",
    "context/style.pym": """\
from remora.pym import external

@external
async def read_file(path: str) -> str: ...

"style: " + (await read_file("STYLE.txt")).strip()
""",
}


def _project(tmp_path: Path) -> tuple[Path, CSTNode]:
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg/greet.py").write_text(SOURCE)
    (project / "STYLE.txt").write_text("terse\n")
    node = CSTNode(
        node_id=make_node_id("pkg/greet.py", "greet", "function"),
        node_type="function",
        name="greet",
        full_name="greet",
        file_path="pkg/greet.py",
        start_byte=0,
        end_byte=len(SOURCE),
        start_line=1,
        end_line=2,
        text=SOURCE,
    )
    return project, node


def _agent(tmp_path: Path) -> Path:
    folder = tmp_path / "agent"
    for rel, text in {"agent.yaml": AGENT_YAML, **SCRIPTS}.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder / "agent.yaml"


async def test_a_run_with_real_tools_ends_in_a_reviewable_workspace(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    project, node = _project(tmp_path)
    definition = load_agent(_agent(tmp_path))
    workspace = WorkspaceStore(project).create("notes", node.node_id)
    emitter = RecordingEmitter()
    executor = SandboxToolExecutor(runtime, workspace, node, SandboxConfig(), emitter)
    provider = ScriptedProvider(
        [
            tool_turn(("read_source", {}), ("divide", {"a": 1, "b": 0})),
            tool_turn(("divide", {"a": "one", "b": 2})),
            tool_turn(("write_note", {"text": "greet says hi"})),
            tool_turn(("read_source", {}), ("read_source", {})),
            tool_turn(("submit_result", {"summary": "noted"})),
        ]
    )
    runner = AgentRunner(
        definition,
        provider,
        RunnerConfig(),
        executor,
        emitter=emitter,
        template_vars=node_template_vars(node),
        run_id="it-1",
    )
    result = await runner.run()

    assert result.status == "success", result.to_dict()
    assert result.summary == "noted"
    assert result.details == {"note_exists": True}
    assert result.workspace_id == workspace.id
    assert result.changed_files == ["notes/greet.txt"]
    assert workspace.read("notes/greet.txt") == b"greet says hi\n"
    assert not (project / "notes").exists()  # nothing touched outside the workspace
    assert "+greet says hi" in workspace.diff()

    first = provider.requests[1].messages
    assert first[1].text == "function greet in pkg/greet.py"
    read, divided = first[-1].results
    assert read.payload["result"] == {"source": SOURCE, "lines": 2}
    # The script's own failure is the model's to see, with its line; the loop went on.
    assert divided.payload["ok"] is False
    assert divided.payload["error"]["code"] == "runtime_error"
    assert "ZeroDivisionError" in divided.payload["error"]["message"]
    # Arguments are checked against the schema derived from the script, before it runs.
    bad = provider.requests[2].messages[-1].results[0].payload
    assert bad["error"]["code"] == "invalid_args"
    # The context provider ran before write_note and was injected once.
    after_write = provider.requests[3].messages
    assert after_write[-1].role == "user" and after_write[-1].text == "[Context] style: terse"
    # Reading the source twice in a row: the second call is "already done".
    again = provider.requests[4].messages
    results = [m for m in again if m.role == "tool"][-1].results
    assert results[0].payload["result"]["source"] == SOURCE
    assert results[1].payload["result"]["already_done"] is True
    assert "context_injected" in emitter.kinds()
    workspace.close()


async def test_a_turn_limit_keeps_what_real_tools_established(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    project, node = _project(tmp_path)
    definition = load_agent(_agent(tmp_path))
    workspace = WorkspaceStore(project).create("notes", node.node_id)
    executor = SandboxToolExecutor(runtime, workspace, node, SandboxConfig())
    provider = ScriptedProvider(
        [
            tool_turn(("read_source", {})),
            tool_turn(("write_note", {"text": "draft"})),
            text_turn("I am done"),
        ]
    )
    runner = AgentRunner(
        definition,
        provider,
        RunnerConfig(max_turns=2),
        executor,
        template_vars=node_template_vars(node),
    )
    result = await runner.run()
    assert result.status == "failed" and result.degraded
    assert result.error is not None and result.error.code == "AGENT_003"
    assert [f["tool"] for f in result.details["established"]] == ["read_source", "write_note"]
    assert "notes/greet.txt" in result.summary
    assert result.changed_files == ["notes/greet.txt"]  # the partial work is reviewable
    workspace.close()


async def test_the_bundled_lint_agent_fixes_an_unused_import(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "shop.py").write_text("import os\n\n\ndef total(xs):\n    return sum(xs)\n")
    nodes = discover([project / "shop.py"], project_root=project).nodes
    node = next(n for n in nodes if n.node_type == "file")
    definition = AgentRegistry().get("lint")
    workspace = WorkspaceStore(project).create("lint", node.node_id)
    executor = SandboxToolExecutor(runtime, workspace, node, SandboxConfig())
    # fix_safe is a host step: ruff's safe fix is applied and the run finished by the host.
    provider = ScriptedProvider([])
    runner = AgentRunner(
        definition, provider, RunnerConfig(), executor, template_vars=node_template_vars(node)
    )
    result = await runner.run()
    assert result.status == "success", result.to_dict()
    assert result.turns == 0 and provider.requests == []
    assert result.changed_files == ["shop.py"]
    fixed = workspace.read("shop.py")
    assert fixed is not None and b"import os" not in fixed
    assert (project / "shop.py").read_text().startswith("import os")
    workspace.close()
