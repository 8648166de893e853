"""Host steps that write the workspace, fill the templates, or are offered to the host only."""

from __future__ import annotations

from typing import Any

import pytest
from loop_kit import OBJ, InProcessExecutor, run, runner_for, user_texts
from pydantic import ValidationError

from remora.agents import SubagentDefinition
from remora.errors import WorkspaceNotFoundError
from remora.events import RecordingEmitter
from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.runner import envelope_error

SUBMIT: dict[str, Any] = {"name": "submit_result", "description": "Finish.", "parameters": OBJ}
EDIT: dict[str, Any] = {
    "name": "edit_node",
    "description": "Edit.",
    "parameters": {
        "type": "object",
        "properties": {"issue_code": {"type": "string"}},
        "required": ["issue_code"],
    },
}
FIX: dict[str, Any] = {
    "name": "fix_safe",
    "description": "Safe fixes.",
    "parameters": OBJ,
    "host_only": True,
}
NODE_CONTEXT = "{{ node_name }}: {% for f in lint.remaining %}{{ f }} {% endfor %}"


def agent(step: dict[str, Any], *, fix: dict[str, Any] = FIX) -> SubagentDefinition:
    return SubagentDefinition.model_validate(
        {
            "name": "lint",
            "max_turns": 3,
            "initial_context": {"system_prompt": "You fix lint.", "node_context": NODE_CONTEXT},
            "tools": [fix, EDIT, SUBMIT],
            "host_steps": [step],
        }
    )


STEP = {
    "tool": "fix_safe",
    "changes_workspace": True,
    "result_variable": "lint",
    "finish_if_empty": "remaining",
}


def writing_executor(result: Any) -> InProcessExecutor:
    """fix_safe writes m.py (the executor's changed files grow) and returns ``result``."""
    executor = InProcessExecutor(workspace_id="ws-1")

    def fix_safe(arguments: dict[str, Any]) -> Any:
        executor._changed.append("m.py")
        return result

    executor.handlers["fix_safe"] = fix_safe
    return executor


async def test_a_writing_step_that_leaves_nothing_finishes_with_its_change() -> None:
    provider = ScriptedProvider([])
    executor = writing_executor({"applied": ["F401"], "remaining": []})
    emitter = RecordingEmitter()
    result = await run(agent(STEP), provider, executor, emitter=emitter)
    assert result.status == "success" and result.turns == 0 and provider.requests == []
    assert result.changed_files == ["m.py"]
    assert [name for name, _ in executor.calls] == ["fix_safe", "submit_result"]
    run_end = next(e for e in emitter.events if e.kind == "run_end")
    assert run_end.data["host_calls"] == 2


async def test_the_result_variable_fills_the_prompt_instead_of_a_json_note() -> None:
    provider = ScriptedProvider([tool_turn(("edit_node", {"issue_code": "E711"}))])
    executor = writing_executor({"applied": [], "remaining": ["E711"]})
    runner = runner_for(agent(STEP), provider, executor)
    await runner.run()
    first = user_texts(runner)[0]
    assert first == "f: E711 "
    # The host-only tool is not offered to the model; only the decisions are.
    assert [t.name for t in provider.requests[0].tools] == ["edit_node", "submit_result"]


async def test_a_failing_writing_step_ends_the_run_with_a_failed_result_naming_it() -> None:
    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    executor = InProcessExecutor(
        {"fix_safe": lambda a: envelope_error("runtime_error", "ruff failed on m.py")}
    )
    result = await run(agent(STEP), provider, executor)
    assert result.status == "failed" and result.turns == 0 and provider.requests == []
    assert result.error is not None and result.error.code == "runtime_error"
    assert result.error.message == "lint: host_steps[0] (fix_safe) failed: ruff failed on m.py"
    assert result.details["host_step"]["tool"] == "fix_safe"
    assert [name for name, _ in executor.calls] == ["fix_safe"]


async def test_a_step_that_writes_without_saying_so_fails_the_run_with_agent_001() -> None:
    step = {"tool": "fix_safe"}
    plain = {**FIX, "host_only": False}
    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    executor = writing_executor({"remaining": []})
    result = await run(agent(step, fix=plain), provider, executor)
    assert result.status == "failed" and provider.requests == []
    assert result.error is not None and result.error.code == "AGENT_001"
    assert "host_steps[0].changes_workspace: fix_safe changed m.py" in result.error.message


class UnreadableWorkspace(InProcessExecutor):
    """A workspace whose changed files can be read ``readable`` times, then not."""

    def __init__(self, readable: int) -> None:
        super().__init__({"fix_safe": lambda a: {"remaining": []}}, workspace_id="ws-1")
        self.readable = readable

    async def changed_files(self) -> list[str]:
        if self.readable == 0:
            raise WorkspaceNotFoundError("workspace ws-1: its overlay database is gone")
        self.readable -= 1
        return await super().changed_files()


@pytest.mark.parametrize(
    ("readable", "when", "calls"), [(0, "before", []), (1, "after", ["fix_safe"])]
)
async def test_a_workspace_that_cannot_be_read_around_a_step_fails_the_run_naming_it(
    readable: int, when: str, calls: list[str]
) -> None:
    # Without the changed files the undeclared-write check cannot be made: the
    # run fails with that reason instead of skipping the check.
    plain = {**FIX, "host_only": False}
    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    executor = UnreadableWorkspace(readable)
    result = await run(agent({"tool": "fix_safe"}, fix=plain), provider, executor)
    assert result.status == "failed" and result.turns == 0 and provider.requests == []
    assert result.error is not None and result.error.code == "WORKSPACE_003"
    assert result.error.message == (
        f"lint: host_steps[0] (fix_safe): the workspace's changed files could not be read "
        f"{when} the step, so whether it wrote without `changes_workspace: true` cannot be "
        "checked: workspace ws-1: its overlay database is gone"
    )
    assert result.details["host_step"]["error"]["code"] == "WORKSPACE_003"
    assert [name for name, _ in executor.calls] == calls


async def test_the_model_calling_a_host_only_tool_is_told_there_is_none() -> None:
    provider = ScriptedProvider(
        [tool_turn(("fix_safe", {})), tool_turn(("edit_node", {"issue_code": "E711"}))]
    )
    executor = writing_executor({"applied": [], "remaining": ["E711"]})
    runner = runner_for(agent(STEP), provider, executor)
    await runner.run()
    assert [name for name, _ in executor.calls].count("fix_safe") == 1
    refused = next(m for m in provider.requests[1].messages if m.role == "tool").results[0]
    assert refused.payload["error"]["code"] == "unknown_function"
    assert refused.payload["error"]["details"]["available"] == ["edit_node", "submit_result"]


@pytest.mark.parametrize(
    ("step", "fix", "message"),
    [
        ({"tool": "edit_node"}, FIX, "tools[0].host_only: fix_safe is never offered"),
        ({**STEP, "result_variable": "node_text"}, FIX, "is a node template variable"),
        ({**STEP, "result_variable": "a-b"}, FIX, "is not a template variable name"),
    ],
)
def test_invalid_host_only_tools_and_result_variables_are_rejected(
    step: dict[str, Any], fix: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError, match=message.replace("[", r"\[").replace("]", r"\]")):
        agent(step, fix=fix)


async def test_a_model_call_that_leaves_nothing_is_followed_by_the_hosts_submit() -> None:
    edit = {**EDIT, "finish_if_empty": "remaining"}
    defn = SubagentDefinition.model_validate(
        {
            "name": "lint",
            "max_turns": 3,
            "initial_context": {"system_prompt": "You fix lint.", "node_context": NODE_CONTEXT},
            "tools": [FIX, edit, SUBMIT],
            "host_steps": [STEP],
        }
    )
    fixed = iter([{"remaining": ["F841", "E711"]}, {"remaining": ["E711"]}, {"remaining": []}])
    provider = ScriptedProvider(
        [
            tool_turn(("edit_node", {"issue_code": "F841"})),
            tool_turn(("edit_node", {"issue_code": "E711"})),
        ]
    )
    executor = writing_executor({"applied": [], "remaining": ["F841", "E711"]})
    executor.handlers["edit_node"] = lambda a: next(fixed)
    next(fixed)  # the first value is what fix_safe left
    result = await run(defn, provider, executor)
    assert result.status == "success" and result.turns == 2
    assert [name for name, _ in executor.calls] == [
        "fix_safe",
        "edit_node",
        "edit_node",
        "submit_result",
    ]


def test_finish_if_empty_on_a_tool_needs_a_submit_without_arguments() -> None:
    submit = {**SUBMIT, "parameters": {"type": "object", "properties": {"summary": {}}}}
    with pytest.raises(ValidationError, match=r"tools\[1\]\.finish_if_empty: the host can"):
        SubagentDefinition.model_validate(
            {
                "name": "lint",
                "initial_context": {"system_prompt": "s", "node_context": "n"},
                "tools": [FIX, {**EDIT, "finish_if_empty": "remaining"}, submit],
                "host_steps": [STEP],
            }
        )
