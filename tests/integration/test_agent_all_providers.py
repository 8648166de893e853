"""One small agent, four providers: embedded, openai (local server), llm (through the
local server) and scripted all complete it.

The agent lives in a temp dir (agent.yaml + three ``.pym`` tools); each run uses the
real AgentRunner, the real SandboxToolExecutor (Monty), a real sqlite workspace over
a temp project and the runner's default turn policy (no submit before another tool
ran; the final turn offers only submit_result). "Completes" is structural: the run
ends in success through submit_result, and a tool other than submit_result ran.
What the model writes (which path, what summary) is not asserted: SmolLM2-135M's
wording is not ours to test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from remora.agents import load_agent, node_template_vars
from remora.config import ModelConfig, RunnerConfig, SandboxConfig
from remora.discovery.node import CSTNode, make_node_id
from remora.events import RecordingEmitter
from remora.providers.base import Provider
from remora.providers.factory import create_provider
from remora.providers.model_store import DEFAULT_MODEL
from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.runner import AgentResult, AgentRunner, SandboxToolExecutor
from remora.sandbox import SandboxRuntime
from remora.workspace import WorkspaceStore

pytestmark = [pytest.mark.integration, pytest.mark.model]

SOURCE = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
FILE = "shapes.py"

AGENT_YAML = """\
name: line_counter
description: Counts the lines of a file and reports the count.
max_turns: 3
initial_context:
  system_prompt: |
    You count the lines of Python files. Call one tool per turn.
    First call count_lines with the file's path. Then call submit_result.
  node_context: "Count the lines of the file {{ file_path }}."
tools:
  - name: count_lines
    pym: tools/count_lines.pym
    description: Count the lines of a file of the project.
    parameters:
      type: object
      properties:
        path: {type: string, maxLength: 40, description: "File path, e.g. shapes.py"}
      required: [path]
      additionalProperties: false
  - name: list_files
    pym: tools/list_files.pym
    description: List the files of the project.
    parameters:
      type: object
      properties: {}
      additionalProperties: false
  - name: submit_result
    pym: tools/submit.pym
    description: Finish and report the line count.
    parameters:
      type: object
      properties:
        summary: {type: string, maxLength: 60, description: "A few words, e.g. 6 lines"}
      required: [summary]
      additionalProperties: false
"""

SCRIPTS = {
    "tools/count_lines.pym": """\
from remora.pym import Input, external

path: str = Input("path", description="File path")

@external
async def read_file(path: str) -> str: ...

@external
async def list_dir(path: str = ".") -> list[str]: ...

# A wrong path gets an answer that says which paths exist: a tool tells the model
# precisely what was wrong (the runner ends a run whose model repeats a refused call).
files = await list_dir(".")
if path not in files:
    raise ValueError("no file " + path + " in the project; its files: " + ", ".join(files))
text = await read_file(path)
{"path": path, "lines": len(text.splitlines())}
""",
    "tools/list_files.pym": """\
from remora.pym import external

@external
async def list_dir(path: str = ".") -> list[str]: ...

{"files": await list_dir(".")}
""",
    "tools/submit.pym": """\
from remora.pym import Input

summary: str = Input("summary", description="What was found")

{"summary": summary}
""",
}

# Generous: the test machine is a loaded 2-core box and each turn is a real model call.
RUNNER = RunnerConfig(max_turns=3, max_tokens=128, per_turn_timeout=300.0, total_timeout=900.0)


@pytest.fixture(scope="module")
def agent_yaml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("agent")
    for rel, text in {"agent.yaml": AGENT_YAML, **SCRIPTS}.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder / "agent.yaml"


@pytest.fixture
def llm_user_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, llama_server_url: str
) -> Iterator[Path]:
    """llm's OpenAI-compatible model config pointed at the local llama.cpp server.

    ``supports_schema: true`` lets llm send a JSON schema as response_format; the
    model id names the small Qwen coder so the qwen_small profile (prompted, no native
    tools) applies.
    """
    user_dir = tmp_path / "llm"
    user_dir.mkdir()
    (user_dir / "extra-openai-models.yaml").write_text(
        f"- model_id: qwen2.5-coder-0.5b-local\n"
        f"  model_name: {DEFAULT_MODEL}\n"
        f"  api_base: {llama_server_url}\n"
        f"  supports_schema: true\n"
    )
    monkeypatch.setenv("LLM_USER_PATH", str(user_dir))
    yield user_dir


def _node() -> CSTNode:
    return CSTNode(
        node_id=make_node_id(FILE, FILE, "file"),
        node_type="file",
        name=FILE,
        full_name=FILE,
        file_path=FILE,
        start_byte=0,
        end_byte=len(SOURCE),
        start_line=1,
        end_line=SOURCE.count("\n"),
        text=SOURCE,
    )


async def _run(
    tmp_path: Path, agent_yaml: Path, runtime: SandboxRuntime, provider: Provider
) -> tuple[AgentResult, RecordingEmitter]:
    project = tmp_path / "project"
    project.mkdir()
    (project / FILE).write_text(SOURCE)
    node = _node()
    definition = load_agent(agent_yaml)
    workspace = WorkspaceStore(project).create(definition.name, node.node_id)
    emitter = RecordingEmitter()
    executor = SandboxToolExecutor(runtime, workspace, node, SandboxConfig(), emitter)
    runner = AgentRunner(
        definition,
        provider,
        RUNNER,
        executor,
        emitter=emitter,
        template_vars=node_template_vars(node),
    )
    try:
        result = await runner.run()
    finally:
        workspace.close()
        await provider.aclose()
    return result, emitter


def _assert_completed(result: AgentResult, emitter: RecordingEmitter, real: bool = True) -> None:
    """Success through submit_result, after at least one other tool ran.

    A real model may instead repeat a refused call word for word (SmolLM2 does
    with count_lines("path.py") after being told the file is shapes.py); the
    runner then ends the run as skipped with the refusal's reason, which is a
    completed run too: the calls were parsed, run and answered.
    """
    transcript = [
        (e.kind, e.data)
        for e in emitter.events
        if e.kind in ("model_response", "tool_call", "tool_result")
    ]
    assert result.error is None and not result.degraded
    results = [e.data for e in emitter.events if e.kind == "tool_result"]
    executed = [r["name"] for r in results if r["executed"]]
    if real and result.status == "skipped":
        assert result.summary.startswith("nothing written: the model repeated a refused call")
        called = [e.data["name"] for e in emitter.events if e.kind == "tool_call"]
        assert called[-2:] == ["count_lines", "count_lines"], transcript
        assert result.turns == 2
        return
    assert result.status == "success", (result.to_dict(), transcript)
    assert executed[-1] == "submit_result", transcript
    assert results[-1]["ok"] is True
    assert {"count_lines", "list_files"} & set(executed[:-1]), transcript
    assert 2 <= result.turns <= RUNNER.max_turns
    assert result.summary


async def test_scripted(tmp_path: Path, agent_yaml: Path, runtime: SandboxRuntime) -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("count_lines", {"path": FILE})),
            tool_turn(("submit_result", {"summary": "6 lines"})),
        ]
    )
    result, emitter = await _run(tmp_path, agent_yaml, runtime, provider)
    _assert_completed(result, emitter, real=False)
    assert result.summary == "6 lines"
    counted = provider.requests[1].messages[-1].results[0].payload
    assert counted["ok"] is True and counted["result"] == {"path": FILE, "lines": 6}
    # The default policy: no submit_result before another tool ran.
    assert "submit_result" not in {t.name for t in provider.requests[0].tools}


async def test_embedded(
    tmp_path: Path, agent_yaml: Path, runtime: SandboxRuntime, embedded_model_path: Path
) -> None:
    provider = create_provider(
        ModelConfig(provider="embedded", path=embedded_model_path, timeout=300, n_parallel=1)
    )
    assert provider.profile.name == "qwen_small"
    result, emitter = await _run(tmp_path, agent_yaml, runtime, provider)
    _assert_completed(result, emitter)


async def test_openai_against_the_local_server(
    tmp_path: Path, agent_yaml: Path, runtime: SandboxRuntime, llama_server_url: str
) -> None:
    provider = create_provider(
        ModelConfig(provider="openai", id=DEFAULT_MODEL, base_url=llama_server_url, timeout=300)
    )
    assert provider.profile.name == "qwen_small"
    result, emitter = await _run(tmp_path, agent_yaml, runtime, provider)
    _assert_completed(result, emitter)


async def test_llm_through_the_local_server(
    tmp_path: Path, agent_yaml: Path, runtime: SandboxRuntime, llm_user_dir: Path
) -> None:
    provider = create_provider(
        ModelConfig(provider="llm", id="qwen2.5-coder-0.5b-local", timeout=300)
    )
    assert provider.profile.name == "qwen_small"
    assert (await provider.check()).ok
    result, emitter = await _run(tmp_path, agent_yaml, runtime, provider)
    _assert_completed(result, emitter)
