"""Host steps before the first turn, and the submit_result the host makes for the model."""

from __future__ import annotations

from typing import Any

import pytest
from loop_kit import OBJ, InProcessExecutor, config, run, runner_for, tool_payloads, user_texts
from pydantic import ValidationError

from remora.agents import SubagentDefinition
from remora.events import RecordingEmitter
from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.runner import envelope_error

SUBMIT_NO_ARGS: dict[str, Any] = {
    "name": "submit_result",
    "description": "Finish.",
    "parameters": {"type": "object", "properties": {}},
}
APPLY_FIX: dict[str, Any] = {
    "name": "apply_fix",
    "description": "Fix one rule.",
    "parameters": {
        "type": "object",
        "properties": {"issue_code": {"type": "string"}},
        "required": ["issue_code"],
    },
}


def agent(
    tools: list[dict[str, Any]], host_steps: list[dict[str, Any]], max_turns: int = 3
) -> SubagentDefinition:
    return SubagentDefinition.model_validate(
        {
            "name": "lint",
            "max_turns": max_turns,
            "initial_context": {
                "system_prompt": "You fix lint.",
                "node_context": "{{ node_name }}",
            },
            "tools": tools,
            "host_steps": host_steps,
        }
    )


def lint_agent(max_turns: int = 3) -> SubagentDefinition:
    tools = [
        {"name": "run_linter", "description": "Lint.", "parameters": OBJ},
        APPLY_FIX,
        SUBMIT_NO_ARGS,
    ]
    return agent(tools, [{"tool": "run_linter"}], max_turns)


async def test_host_step_result_is_in_the_first_message_and_costs_no_turn() -> None:
    provider = ScriptedProvider(
        [tool_turn(("apply_fix", {"issue_code": "F401"})), tool_turn(("submit_result", {}))]
    )
    executor = InProcessExecutor({"run_linter": lambda a: {"fixable": ["F401"]}})
    emitter = RecordingEmitter()
    runner = runner_for(lint_agent(), provider, executor, emitter=emitter)
    result = await runner.run()
    assert result.status == "success"
    assert [name for name, _ in executor.calls] == ["run_linter", "apply_fix", "submit_result"]
    first = user_texts(runner)[0]
    assert first.startswith("f\n\nResult of run_linter: ")
    assert '"fixable": ["F401"]' in first
    # The model saw the result before its first turn, which went straight to the fix.
    assert len(provider.requests) == 2 and result.turns == 2
    run_end = next(e for e in emitter.events if e.kind == "run_end")
    assert run_end.data["host_calls"] == 1
    host_call = next(e for e in emitter.events if e.kind == "tool_call")
    assert host_call.data["turn"] == 0 and host_call.data["name"] == "run_linter"


async def test_model_repeating_a_host_step_is_told_it_is_done_and_the_host_submits() -> None:
    provider = ScriptedProvider(
        [tool_turn(("run_linter", {})), tool_turn(("apply_fix", {"issue_code": "E1"}))]
    )
    executor = InProcessExecutor()
    runner = runner_for(lint_agent(max_turns=3), provider, executor)
    result = await runner.run()
    assert tool_payloads(runner)[0][0]["result"]["already_done"] is True
    assert [name for name, _ in executor.calls].count("run_linter") == 1
    # A turn of repeats only: the host submits rather than ask again
    # (tests/unit/runner/test_runner_repeats.py).
    assert result.status == "success" and result.turns == 1 and provider.remaining == 1
    assert executor.calls[-1] == ("submit_result", {})


async def test_run_whose_only_choice_left_is_submit_asks_no_model() -> None:
    defn = agent(
        [{"name": "write_fixture", "description": "Write.", "parameters": OBJ}, SUBMIT_NO_ARGS],
        [{"tool": "write_fixture"}],
    )
    provider = ScriptedProvider([])
    executor = InProcessExecutor()
    emitter = RecordingEmitter()
    result = await run(defn, provider, executor, emitter=emitter)
    assert result.status == "success" and result.turns == 0
    assert provider.requests == []
    assert [name for name, _ in executor.calls] == ["write_fixture", "submit_result"]
    run_end = next(e for e in emitter.events if e.kind == "run_end")
    assert run_end.data["host_calls"] == 2


async def test_a_tool_with_arguments_left_still_asks_the_model() -> None:
    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    result = await run(lint_agent(), provider, InProcessExecutor())
    assert result.status == "success" and result.turns == 1
    assert len(provider.requests) == 1


async def test_submit_with_optional_arguments_is_left_to_the_model() -> None:
    submit = {
        "name": "submit_result",
        "description": "Finish.",
        "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}},
    }
    defn = agent(
        [{"name": "write_fixture", "description": "Write.", "parameters": OBJ}, submit],
        [{"tool": "write_fixture"}],
    )
    provider = ScriptedProvider([tool_turn(("submit_result", {"summary": "wrote it"}))])
    result = await run(defn, provider, InProcessExecutor())
    assert result.summary == "wrote it" and result.turns == 1


async def test_failed_host_submit_goes_back_to_the_model_with_the_reason() -> None:
    defn = agent(
        [{"name": "write_fixture", "description": "Write.", "parameters": OBJ}, SUBMIT_NO_ARGS],
        [{"tool": "write_fixture"}],
    )
    attempts: list[int] = []

    def submit(arguments: dict[str, Any]) -> dict[str, Any]:
        attempts.append(1)
        if len(attempts) == 1:
            return envelope_error("check_failed", "the fixture is not valid JSON")
        return {"ok": True, "result": {"summary": "fixture written"}}

    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    executor = InProcessExecutor({"submit_result": submit})
    runner = runner_for(defn, provider, executor, cfg=config())
    result = await runner.run()
    assert result.status == "success" and result.summary == "fixture written"
    assert result.turns == 1 and len(attempts) == 2
    assert any("the fixture is not valid JSON" in text for text in user_texts(runner))


async def test_failing_host_step_is_reported_to_the_model() -> None:
    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    executor = InProcessExecutor({"run_linter": lambda a: 1 // 0})
    runner = runner_for(lint_agent(), provider, executor)
    result = await runner.run()
    assert result.status == "success"
    assert '"ok": false' in user_texts(runner)[0]
    assert "ZeroDivisionError" in user_texts(runner)[0]


async def test_host_step_context_providers_join_the_first_message() -> None:
    tools = [
        {
            "name": "run_linter",
            "description": "Lint.",
            "parameters": OBJ,
            "context_providers": ["ctx/ruff_config.pym"],
        },
        APPLY_FIX,
        SUBMIT_NO_ARGS,
    ]
    defn = agent(tools, [{"tool": "run_linter"}])
    executor = InProcessExecutor(contexts={"ruff_config.pym": lambda: "line-length = 100"})
    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    runner = runner_for(defn, provider, executor)
    await runner.run()
    assert user_texts(runner)[0].endswith("[Context] line-length = 100")
    assert executor.order[:2] == ["context:ruff_config.pym", "tool:run_linter"]


async def test_host_step_arguments_reach_the_tool() -> None:
    defn = agent(
        [
            {"name": "run_linter", "description": "Lint.", "parameters": OBJ},
            APPLY_FIX,
            SUBMIT_NO_ARGS,
        ],
        [{"tool": "apply_fix", "args": {"issue_code": "I001"}}],
    )
    executor = InProcessExecutor()
    await run(defn, ScriptedProvider([tool_turn(("submit_result", {}))]), executor)
    assert executor.calls[0] == ("apply_fix", {"issue_code": "I001"})


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ({"tool": "run_lintr"}, "host_steps[0].tool: no tool named 'run_lintr'"),
        ({"tool": "submit_result"}, "host_steps[0].tool: submit_result ends the run"),
        ({"tool": "run_linter", "argz": {}}, "Extra inputs are not permitted"),
    ],
)
def test_invalid_host_steps_are_rejected(step: dict[str, Any], message: str) -> None:
    tools = [{"name": "run_linter", "description": "Lint.", "parameters": OBJ}, SUBMIT_NO_ARGS]
    with pytest.raises(ValidationError, match=message.replace("[", r"\[").replace("]", r"\]")):
        agent(tools, [step])


def finishing_lint_agent() -> SubagentDefinition:
    tools = [
        {"name": "run_linter", "description": "Lint.", "parameters": OBJ},
        {"name": "read_file", "description": "Read.", "parameters": OBJ},
        APPLY_FIX,
        SUBMIT_NO_ARGS,
    ]
    steps = [{"tool": "run_linter", "finish_if_empty": "fixable_codes"}, {"tool": "read_file"}]
    return agent(tools, steps)


async def test_step_whose_result_leaves_nothing_to_do_finishes_the_run() -> None:
    provider = ScriptedProvider([])
    executor = InProcessExecutor({"run_linter": lambda a: {"fixable_codes": [], "total": 1}})
    result = await run(finishing_lint_agent(), provider, executor)
    assert result.status == "success" and result.turns == 0
    assert provider.requests == []
    # The steps after it are not run either.
    assert [name for name, _ in executor.calls] == ["run_linter", "submit_result"]


@pytest.mark.parametrize(
    "linted",
    [{"fixable_codes": ["F401"]}, {"total": 0}, envelope_error("runtime_error", "ruff crashed")],
)
async def test_a_step_with_work_left_or_no_such_key_goes_on(linted: dict[str, Any]) -> None:
    provider = ScriptedProvider([tool_turn(("apply_fix", {"issue_code": "F401"}))])
    executor = InProcessExecutor({"run_linter": lambda a: linted})
    await run(finishing_lint_agent(), provider, executor)
    assert len(provider.requests) >= 1
    assert [name for name, _ in executor.calls][:2] == ["run_linter", "read_file"]


def test_finish_if_empty_needs_a_submit_without_arguments() -> None:
    submit = {
        "name": "submit_result",
        "description": "Finish.",
        "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}},
    }
    tools = [{"name": "run_linter", "description": "Lint.", "parameters": OBJ}, submit]
    with pytest.raises(ValidationError, match=r"host_steps\[0\]\.finish_if_empty: the host can"):
        agent(tools, [{"tool": "run_linter", "finish_if_empty": "fixable_codes"}])
