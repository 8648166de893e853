"""SandboxToolExecutor: the loop's tools as `.pym` scripts on Monty, in one workspace."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from remora.agents.definition import ToolDefinition
from remora.config import SandboxConfig
from remora.discovery.node import CSTNode
from remora.errors import AgentDefinitionError, ScriptRuntimeError
from remora.events import EventEmitter
from remora.runner.messages import format_context

if TYPE_CHECKING:
    from pydantic_monty import ExternalModule

    from remora.conversation import TextCompleter
    from remora.sandbox import PymScript, SandboxRuntime
    from remora.workspace import Workspace

__all__ = ["SandboxToolExecutor"]


class SandboxToolExecutor:
    """Runs each tool's script (submit_result's too) against one workspace and node.

    Context providers get the template variables whose names match their
    declared inputs (``file_path``, ``node_id``); never an operation option, which fills
    only the tool input of its name (coordinator/binding.py).
    """

    def __init__(
        self,
        runtime: SandboxRuntime,
        workspace: Workspace,
        node: CSTNode | None,
        sandbox_config: SandboxConfig,
        emitter: EventEmitter | None = None,
        *,
        context_inputs: Mapping[str, Any] | None = None,
        run_id: str | None = None,
        completer: TextCompleter | None = None,
    ) -> None:
        self.runtime = runtime
        self.workspace = workspace
        self.node = node
        self.sandbox_config = sandbox_config
        self.emitter = emitter
        self.context_inputs = dict(context_inputs or {})
        self.run_id = run_id
        # The run's model for remora_code.complete (None: tools cannot ask for text).
        self.completer = completer
        self._scripts: dict[Path, PymScript] = {}
        self._externals: dict[str, Callable[..., Any]] | None = None
        self._modules: dict[str, ExternalModule] | None = None

    @property
    def workspace_id(self) -> str | None:
        return self.workspace.id

    async def changed_files(self) -> list[str]:
        return list(self.workspace.changed_files())

    def _script(self, path: Path) -> PymScript:
        script = self._scripts.get(path)
        if script is None:
            from remora.code import load_tool_script  # PymLoadError is a RemoraError

            script = self._scripts[path] = load_tool_script(path)
        return script

    def _bound_externals(self) -> dict[str, Callable[..., Any]]:
        if self._externals is None:
            from remora.sandbox import build_externals

            self._externals = build_externals(
                self.workspace,
                self.node,
                self.sandbox_config,
                emitter=self.emitter,
                run_id=self.run_id,
            )
        return self._externals

    def _bound_modules(self) -> dict[str, ExternalModule]:
        """``remora_code`` bound to this run's workspace and node, built once per run."""
        if self._modules is None:
            from remora.code import MODULE_NAME, CodeContext, build_module

            context = CodeContext(self.workspace, self.node, self.sandbox_config, self.completer)
            self._modules = {MODULE_NAME: build_module(context)}
        return self._modules

    async def call(self, tool: ToolDefinition, arguments: dict[str, Any]) -> dict[str, Any]:
        if tool.pym is None:
            raise AgentDefinitionError(
                f"tool {tool.name} has no .pym script",
                "give the tool a 'pym:' path in the agent YAML",
            )
        envelope: dict[str, Any] = await self.runtime.run(
            self._script(tool.pym),
            arguments,
            self._bound_externals(),
            modules=self._bound_modules(),
        )
        return envelope

    async def context(self, provider_script: Path) -> str:
        script = self._script(provider_script)
        inputs = {
            i.name: self.context_inputs[i.name]
            for i in script.inputs
            if i.name in self.context_inputs
        }
        envelope = await self.runtime.run(
            script, inputs, self._bound_externals(), modules=self._bound_modules()
        )
        if envelope.get("ok"):
            return format_context(envelope.get("result"))
        error = envelope.get("error") or {}
        raise ScriptRuntimeError(
            f"{error.get('code', 'error')}: {error.get('message', 'context provider failed')}",
            f"check {provider_script} with `remora tool run {provider_script}`",
        )
