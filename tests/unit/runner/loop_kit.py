"""Shared pieces for the runner tests: a small agent and an in-process executor.

The executor is a real ToolExecutor (the same shape the assistant uses): its
tools are Python functions, so the loop's behaviour is tested without a
sandbox; tests/integration/test_loop_real_tools.py runs real `.pym` scripts.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from remora.agents import SubagentDefinition
from remora.config import RunnerConfig, TurnPolicyConfig
from remora.errors import RemoraError
from remora.events import RecordingEmitter
from remora.profiles import BUILTIN_PROFILES, ModelProfile
from remora.providers.scripted import FunctionProvider, ScriptedProvider
from remora.runner import AgentResult, AgentRunner, RetryRecord, envelope_error, envelope_ok

OBJ: dict[str, Any] = {"type": "object", "properties": {}}

SUBMIT_PARAMS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "summary": {"type": "string"},
        "issues_fixed": {"type": "integer"},
        "changed_files": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["summary"],
}


def definition(
    *,
    tools: list[dict[str, Any]] | None = None,
    max_turns: int | None = None,
    final_answer: str = "submit_result",
    node_context: str = "{{ node_type }} {{ node_name }}",
) -> SubagentDefinition:
    if tools is None:
        tools = [
            {"name": "run_linter", "description": "Lint the code.", "parameters": OBJ},
            {
                "name": "apply_fix",
                "description": "Fix one rule.",
                "parameters": {
                    "type": "object",
                    "properties": {"issue_code": {"type": "string"}},
                    "required": ["issue_code"],
                },
            },
            {"name": "read_file", "description": "Read the file.", "parameters": OBJ},
        ]
        if final_answer == "submit_result":
            tools.append(
                {"name": "submit_result", "description": "Finish.", "parameters": SUBMIT_PARAMS}
            )
    data: dict[str, Any] = {
        "name": "lint",
        "final_answer": final_answer,
        "initial_context": {"system_prompt": "You fix lint.", "node_context": node_context},
        "tools": tools,
    }
    if max_turns is not None:
        data["max_turns"] = max_turns
    return SubagentDefinition.model_validate(data)


class InProcessExecutor:
    """Tools as Python callables; records every call and context run in order."""

    def __init__(
        self,
        handlers: dict[str, Callable[[dict[str, Any]], Any]] | None = None,
        contexts: dict[str, Callable[[], str]] | None = None,
        workspace_id: str | None = None,
        changed: list[str] | None = None,
    ) -> None:
        self.handlers = handlers or {}
        self.contexts = contexts or {}
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.order: list[str] = []
        self._workspace_id = workspace_id
        # Kept, not copied: a test may change it as its tools write.
        self._changed = changed if changed is not None else []

    @property
    def workspace_id(self) -> str | None:
        return self._workspace_id

    async def changed_files(self) -> list[str]:
        return list(self._changed)

    async def call(self, tool: Any, arguments: dict[str, Any]) -> dict[str, Any]:
        self.calls.append((tool.name, arguments))
        self.order.append(f"tool:{tool.name}")
        handler = self.handlers.get(tool.name)
        if handler is None:
            # A submit script that only acknowledges adds nothing to the submission.
            return envelope_ok(None if tool.name == "submit_result" else {"done": tool.name})
        try:
            value = handler(arguments)
        except ZeroDivisionError as exc:  # a tool whose own code fails
            return envelope_error("runtime_error", f"ZeroDivisionError: {exc}")
        if isinstance(value, dict) and "ok" in value:
            return value
        return envelope_ok(value)

    async def context(self, provider_script: Path) -> str:
        self.order.append(f"context:{provider_script.name}")
        producer = self.contexts[provider_script.name]
        try:
            return producer()
        except LookupError as exc:
            raise RemoraError("SANDBOX_002", f"provider failed: {exc}") from exc


def config(**overrides: Any) -> RunnerConfig:
    policy = overrides.pop("policy", None)
    cfg = RunnerConfig(**overrides)
    if policy is not None:
        cfg = cfg.model_copy(update={"policy": TurnPolicyConfig(**policy)})
    return cfg


def profile(name: str = "default", **changes: Any) -> ModelProfile:
    return BUILTIN_PROFILES[name].model_copy(update=changes)


def runner_for(
    defn: SubagentDefinition,
    provider: ScriptedProvider | FunctionProvider,
    executor: InProcessExecutor | None = None,
    *,
    cfg: RunnerConfig | None = None,
    emitter: RecordingEmitter | None = None,
    retries: RetryRecord | None = None,
) -> AgentRunner:
    return AgentRunner(
        defn,
        provider,
        cfg or config(),
        executor or InProcessExecutor(),
        emitter=emitter or RecordingEmitter(),
        template_vars={"node_type": "function", "node_name": "f"},
        run_id="run-1",
        retries=retries,
    )


async def run(
    defn: SubagentDefinition,
    provider: ScriptedProvider | FunctionProvider,
    executor: InProcessExecutor | None = None,
    *,
    cfg: RunnerConfig | None = None,
    emitter: RecordingEmitter | None = None,
) -> AgentResult:
    return await runner_for(defn, provider, executor, cfg=cfg, emitter=emitter).run()


def tool_payloads(runner: AgentRunner) -> list[list[dict[str, Any]]]:
    """The payloads of every tool message of the run, in order."""
    assert runner.transcript is not None
    return [[r.payload for r in m.results] for m in runner.transcript.messages if m.role == "tool"]


def user_texts(runner: AgentRunner) -> list[str]:
    assert runner.transcript is not None
    return [m.text for m in runner.transcript.messages if m.role == "user"]
