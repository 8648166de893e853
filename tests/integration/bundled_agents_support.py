"""Shared by the tests of the bundled agents' tool scripts: a real project copy,
real discovery, a real sqlite workspace and the real Monty sandbox.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import remora.agents
from remora.agents import AgentRegistry, node_template_vars
from remora.code import MODULE_NAME, CodeContext, build_module, load_tool_script
from remora.config import RunnerConfig, SandboxConfig
from remora.coordinator.binding import OptionBoundExecutor, bind_options
from remora.discovery import discover
from remora.discovery.node import CSTNode
from remora.providers.scripted import CompletionAnswer, ScriptedProvider
from remora.runner import (
    AgentResult,
    AgentRunner,
    MeteredCompleter,
    SandboxToolExecutor,
    ToolExecutor,
)
from remora.sandbox import SandboxRuntime, build_externals
from remora.workspace import Workspace, WorkspaceStore

__all__ = [
    "BUNDLED",
    "SAMPLE_PROJECT",
    "Bench",
    "bench",
    "copy_sample",
    "find_node",
    "run_bundled_agent",
    "run_scripted_on_file",
    "write_project",
]

BUNDLED = Path(remora.agents.__file__).parent / "bundled"
SAMPLE_PROJECT = Path(__file__).resolve().parents[2] / "examples" / "sample_project"


def copy_sample(tmp_path: Path) -> Path:
    root = tmp_path / "sample_project"
    shutil.copytree(
        SAMPLE_PROJECT,
        root,
        ignore=shutil.ignore_patterns(".remora", "__pycache__", ".pytest_cache", ".ruff_cache"),
    )
    return root


def write_project(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0.1"\n')
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    return root


def find_node(root: Path, rel: str, full_name: str | None = None) -> CSTNode:
    """The discovered node of ``rel`` named ``full_name`` (the file node when None)."""
    nodes = discover([root / rel], project_root=root).nodes
    for node in nodes:
        if full_name is None and node.node_type == "file":
            return node
        if full_name is not None and node.full_name == full_name and node.node_type != "file":
            return node
    raise AssertionError(f"no node {full_name!r} in {rel}: {[n.full_name for n in nodes]}")


class Bench:
    """Runs bundled tool scripts against one project, one workspace per (operation, node)."""

    def __init__(self, root: Path, runtime: SandboxRuntime, config: SandboxConfig) -> None:
        self.root = root
        self.runtime = runtime
        self.config = config
        self.store = WorkspaceStore(root)
        self._workspaces: dict[tuple[str, str], Workspace] = {}

    def workspace(self, agent: str, node: CSTNode) -> Workspace:
        key = (agent, node.node_id)
        if key not in self._workspaces:
            self._workspaces[key] = self.store.create(agent, node.node_id)
        return self._workspaces[key]

    async def envelope(
        self, agent: str, script: str, node: CSTNode, args: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        loaded = load_tool_script(BUNDLED / agent / script)
        workspace = self.workspace(agent, node)
        externals = build_externals(workspace, node, self.config)
        modules = {MODULE_NAME: build_module(CodeContext(workspace, node, self.config))}
        return await self.runtime.run(loaded, args or {}, externals, modules=modules)

    async def run(
        self, agent: str, tool: str, node: CSTNode, args: dict[str, Any] | None = None
    ) -> Any:
        """The tool's result; fails the test when the envelope is an error."""
        env = await self.envelope(agent, f"tools/{tool}.pym", node, args)
        assert env["ok"], env
        return env["result"]

    def text(self, agent: str, node: CSTNode, rel: str) -> str:
        data = self.workspace(agent, node).read(rel)
        assert data is not None, rel
        return data.decode()


@asynccontextmanager
async def bench(root: Path) -> AsyncIterator[Bench]:
    config = SandboxConfig()
    async with SandboxRuntime(config) as runtime:
        yield Bench(root, runtime, config)


async def search_tests_on(
    tmp_path: Path, files: dict[str, str], rel: str, full_name: str, test_file: str
) -> tuple[dict[str, Any], bytes | None]:
    """The test agent's host search on one node of a new project of ``files``: its result,
    and the test file it wrote (None when it wrote none)."""
    root = write_project(tmp_path, files)
    node = find_node(root, rel, full_name)
    async with bench(root) as b:
        found = await b.run("test", "search_tests", node)
        return found, b.workspace("test", node).read(test_file)


def bundled_runner(
    runtime: SandboxRuntime,
    workspace: Workspace,
    node: CSTNode,
    agent: str,
    provider: ScriptedProvider,
    options: dict[str, Any] | None = None,
    completer: MeteredCompleter | None = None,
) -> AgentRunner:
    """The runner `remora analyze` builds for a bundled agent on ``node``: the real
    sandbox, the options bound to the tools' inputs, only the model scripted."""
    executor: ToolExecutor = SandboxToolExecutor(
        runtime, workspace, node, SandboxConfig(), completer=completer
    )
    definition, fixed = bind_options(AgentRegistry().get(agent), options or {})
    if fixed:
        executor = OptionBoundExecutor(executor, fixed)
    return AgentRunner(
        definition,
        provider,
        RunnerConfig(),
        executor,
        template_vars=node_template_vars(node),
        completions=completer,
    )


async def run_bundled_agent(
    agent: str,
    root: Path,
    node: CSTNode,
    provider: ScriptedProvider,
    options: dict[str, Any] | None = None,
    with_model: bool = False,
) -> tuple[AgentResult, Workspace]:
    """A whole run of a bundled agent on ``node``; ``with_model``: the tools' completion
    requests go to ``provider`` too (without it, the run has no model for them)."""
    workspace = WorkspaceStore(root).create(agent, node.node_id)
    completer = MeteredCompleter(provider) if with_model else None
    async with SandboxRuntime(SandboxConfig(workers=1)) as runtime:
        runner = bundled_runner(runtime, workspace, node, agent, provider, options, completer)
        return await runner.run(), workspace


def tool_result(provider: ScriptedProvider, request: int) -> dict[str, Any]:
    """The result of the last tool call the model saw before request ``request``."""
    tool_messages = [m for m in provider.requests[request].messages if m.role == "tool"]
    payload = tool_messages[-1].results[0].payload
    assert payload["ok"], payload
    result: dict[str, Any] = payload["result"]
    return result


async def run_scripted_on_file(
    runtime: SandboxRuntime,
    root: Path,
    agent: str,
    qualname: str | None,
    turns: list[Any],
    options: dict[str, Any] | None = None,
    completions: list[CompletionAnswer] | None = None,
) -> tuple[AgentResult, ScriptedProvider, bytes]:
    """A bundled agent's whole run on ``qualname`` in ``m.py`` (None: the file node), with
    scripted turns.

    ``completions``: the scripted answers to the tools' completion requests (None:
    the run has no model for them, as in a bare tool run). Returns the result, the
    provider (its requests show what the model saw) and the file as the run left
    it in its workspace.
    """
    node = find_node(root, "m.py", qualname)
    workspace = WorkspaceStore(root).create(agent, node.node_id)
    provider = ScriptedProvider(turns, completions=completions or ())
    metered = MeteredCompleter(provider) if completions is not None else None
    runner = bundled_runner(runtime, workspace, node, agent, provider, options, metered)
    result = await runner.run()
    written = workspace.read("m.py")
    workspace.close()
    assert written is not None
    return result, provider, written
