"""Limits, invalid responses and error handling (docs/agents.md, "The agent loop")."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from loop_kit import InProcessExecutor, config, definition, profile, run, runner_for

from remora.conversation import ModelRequest, ModelTurn
from remora.errors import InvalidModelOutputError, ModelUnavailableError, RemoraError
from remora.providers.base import ProviderError
from remora.providers.scripted import FunctionProvider, ScriptedProvider, text_turn, tool_turn
from remora.runner import envelope_ok


async def _hang(request: ModelRequest) -> ModelTurn:
    await asyncio.Event().wait()  # never set: a model that never answers
    raise AssertionError("unreachable")


async def test_empty_response_is_retried_once_with_a_correction() -> None:
    provider = ScriptedProvider(
        [
            tool_turn(("run_linter", {})),
            text_turn(""),
            tool_turn(("submit_result", {"summary": "ok"})),
        ]
    )
    runner = runner_for(definition(), provider)
    result = await runner.run()
    assert result.status == "success"
    correction = provider.requests[2].messages[-1]
    assert correction.role == "user"
    assert "could not be used (the reply was empty)" in correction.text


async def test_empty_response_twice_soft_fails_with_agent_004() -> None:
    provider = ScriptedProvider([tool_turn(("run_linter", {})), text_turn(""), text_turn("  ")])
    executor = InProcessExecutor({"run_linter": lambda a: {"issues": 0}})
    result = await run(definition(), provider, executor)
    assert result.status == "failed" and result.degraded
    assert result.error is not None and result.error.code == "AGENT_004"
    assert result.turns == 3
    assert "run_linter() →" in result.summary and '"issues": 0' in result.summary


async def test_malformed_call_is_retried_once_then_soft_fails() -> None:
    bad = text_turn(
        '{"name": "run_linter", "argum',
        finish="invalid",
        error="tool call arguments are not valid JSON",
    )
    provider = ScriptedProvider([bad, bad])
    result = await run(definition(), provider)
    assert result.error is not None and result.error.code == "AGENT_004"
    assert "not valid JSON" in result.error.message
    assert result.turns == 2
    # The retry said what was wrong.
    assert "not valid JSON" in provider.requests[1].messages[-1].text


async def test_malformed_then_valid_recovers() -> None:
    provider = ScriptedProvider(
        [
            text_turn("", finish="invalid", error="no JSON object in output"),
            tool_turn(("run_linter", {})),
            tool_turn(("submit_result", {"summary": "ok"})),
        ]
    )
    result = await run(definition(), provider)
    assert result.status == "success" and result.turns == 3


async def test_provider_malformed_output_error_counts_as_an_invalid_response() -> None:
    turns: list[Any] = [
        InvalidModelOutputError("unparseable tool call"),
        tool_turn(("run_linter", {})),
        tool_turn(("submit_result", {"summary": "ok"})),
    ]

    def next_turn(request: ModelRequest) -> ModelTurn:
        item = turns.pop(0)
        if isinstance(item, ProviderError):
            raise item
        assert isinstance(item, ModelTurn)
        return item

    result = await run(definition(), FunctionProvider(next_turn))
    assert result.status == "success"


async def test_blocked_response_is_invalid() -> None:
    blocked = text_turn("", finish="blocked", error="SAFETY")
    result = await run(definition(), ScriptedProvider([blocked, blocked]))
    assert result.error is not None and result.error.code == "AGENT_004"
    assert "SAFETY" in result.error.message


async def test_text_without_a_call_is_invalid_when_the_profile_requires_tools() -> None:
    provider = ScriptedProvider(
        [text_turn("I will lint it."), text_turn("Done!")], profile=profile("smollm")
    )
    result = await run(definition(), provider)
    assert result.error is not None and result.error.code == "AGENT_004"
    assert "no tool call" in result.error.message
    # The model's text stays in the conversation before the correction.
    second = provider.requests[1].messages
    assert [m.role for m in second[-2:]] == ["assistant", "user"]
    assert second[-2].text == "I will lint it."


async def test_invalid_retries_are_configurable() -> None:
    provider = ScriptedProvider(
        [text_turn("")] * 3
        + [tool_turn(("run_linter", {})), tool_turn(("submit_result", {"summary": "ok"}))]
    )
    result = await run(definition(), provider, cfg=config(invalid_response_retries=3))
    assert result.status == "success" and result.turns == 5
    strict = ScriptedProvider([text_turn("")])
    failed = await run(definition(), strict, cfg=config(invalid_response_retries=0))
    assert failed.error is not None and failed.error.code == "AGENT_004"
    assert failed.turns == 1


async def test_per_turn_timeout_soft_fails_with_agent_002() -> None:
    result = await run(
        definition(), FunctionProvider(_hang), cfg=config(per_turn_timeout=0.05, total_timeout=60)
    )
    assert result.status == "failed" and result.degraded
    assert result.error is not None and result.error.code == "AGENT_002"
    assert "per-turn timeout" in result.error.message


async def test_total_timeout_soft_fails_with_agent_002() -> None:
    answered = 0

    async def slow_after_first(request: ModelRequest) -> ModelTurn:
        nonlocal answered
        answered += 1
        if answered == 1:
            return tool_turn(("run_linter", {}))
        return await _hang(request)

    executor = InProcessExecutor({"run_linter": lambda a: {"issues": ["F401"]}})
    result = await run(
        definition(),
        FunctionProvider(slow_after_first),
        executor,
        cfg=config(per_turn_timeout=30, total_timeout=0.1),
    )
    assert result.error is not None and result.error.code == "AGENT_002"
    assert "total timeout" in result.error.message
    # What the first turn established survives.
    assert result.details["established"][0]["tool"] == "run_linter"
    assert "F401" in result.summary


async def test_total_deadline_is_checked_before_each_turn() -> None:
    provider = ScriptedProvider([tool_turn(("run_linter", {}))] * 3)

    def slow_tool(arguments: dict[str, Any]) -> Any:
        import time

        time.sleep(0.06)  # a tool that eats the whole budget
        return {}

    executor = InProcessExecutor({"run_linter": slow_tool})
    result = await run(
        definition(),
        provider,
        executor,
        cfg=config(total_timeout=0.05, policy={"repeat_guard": False}),
    )
    assert result.error is not None and "total timeout" in result.error.message
    assert result.turns == 1


async def test_the_request_carries_the_turn_limit_as_timeout() -> None:
    provider = ScriptedProvider([text_turn("done")])
    await run(definition(), provider, cfg=config(per_turn_timeout=7, total_timeout=100))
    assert provider.requests[0].timeout_s == 7


async def test_unavailable_model_is_a_failed_result_with_agent_002() -> None:
    def refuse(request: ModelRequest) -> ModelTurn:
        raise ModelUnavailableError("connection refused: http://127.0.0.1:9/v1")

    result = await run(definition(), FunctionProvider(refuse))
    assert result.status == "failed"
    assert result.error is not None and result.error.code == "AGENT_002"
    assert "connection refused" in result.error.message


async def test_scripted_provider_without_a_script_is_unavailable() -> None:
    from remora.config import ModelConfig

    provider = ScriptedProvider.from_config(
        ModelConfig(provider="scripted", id="demo"), profile("default")
    )
    availability = await provider.check()
    assert not availability.ok and "model.path" in availability.reason
    result = await run(definition(), provider)
    assert result.error is not None and result.error.code == "AGENT_002"


async def test_programming_error_in_the_provider_propagates() -> None:
    def buggy(request: ModelRequest) -> ModelTurn:
        raise KeyError("choices")

    with pytest.raises(KeyError, match="choices"):
        await run(definition(), FunctionProvider(buggy))


async def test_programming_error_in_a_tool_executor_propagates() -> None:
    def buggy(arguments: dict[str, Any]) -> Any:
        raise TypeError("unexpected None")

    provider = ScriptedProvider([tool_turn(("run_linter", {}))])
    with pytest.raises(TypeError, match="unexpected None"):
        await run(definition(), provider, InProcessExecutor({"run_linter": buggy}))


async def test_executor_breaking_the_envelope_contract_is_a_bug() -> None:
    provider = ScriptedProvider([tool_turn(("run_linter", {}))])
    executor = InProcessExecutor({"run_linter": lambda a: {"ok": "yes"}})
    with pytest.raises(TypeError, match="expected an envelope"):
        await run(definition(), provider, executor)


async def test_remora_error_from_a_tool_becomes_its_envelope() -> None:
    def refuse(arguments: dict[str, Any]) -> Any:
        raise RemoraError("WORKSPACE_002", "path '../x' leaves the project", "use a relative path")

    class Raising(InProcessExecutor):
        async def call(self, tool: Any, arguments: dict[str, Any]) -> dict[str, Any]:
            if tool.name == "read_file":
                refuse(arguments)
            return envelope_ok(None)

    provider = ScriptedProvider(
        [tool_turn(("read_file", {})), tool_turn(("submit_result", {"summary": "ok"}))]
    )
    runner = runner_for(definition(), provider, Raising())
    result = await runner.run()
    assert result.status == "success"
    payload = provider.requests[1].messages[-1].results[0].payload
    assert payload["error"]["code"] == "WORKSPACE_002"
    assert payload["error"]["details"] == {"hint": "use a relative path"}


async def test_tool_timeout_becomes_its_envelope() -> None:
    def slow(arguments: dict[str, Any]) -> Any:
        raise TimeoutError

    provider = ScriptedProvider(
        [tool_turn(("run_linter", {})), tool_turn(("submit_result", {"summary": "ok"}))]
    )
    result = await run(definition(), provider, InProcessExecutor({"run_linter": slow}))
    assert result.status == "success"
    assert provider.requests[1].messages[-1].results[0].payload["error"]["code"] == "timeout"


async def test_remora_error_from_the_model_layer_mid_run_is_a_degraded_result() -> None:
    turns = iter([tool_turn(("run_linter", {}))])

    def model(request: ModelRequest) -> ModelTurn:
        for turn in turns:
            return turn
        raise RemoraError("AGENT_002", "model file vanished", "run `remora models pull`")

    executor = InProcessExecutor({"run_linter": lambda a: {"issues": ["W291"]}})
    result = await run(definition(), FunctionProvider(model), executor)
    assert result.status == "failed" and result.degraded
    assert result.error is not None and result.error.code == "AGENT_002"
    assert "W291" in result.summary and result.turns == 2
