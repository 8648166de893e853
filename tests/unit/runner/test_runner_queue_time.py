"""A turn's time limit starts when the model starts on the request, not while it is queued."""

from __future__ import annotations

import asyncio
import dataclasses

from loop_kit import config, definition, run

from remora.conversation import ModelRequest, ModelTurn
from remora.events import RecordingEmitter
from remora.providers.scripted import FunctionProvider, ScriptedProvider, tool_turn
from remora.runner.clock import TurnClock

SUBMIT = tool_turn(("submit_result", {"summary": "done"}))


def queued_model(wait_s: float, *, work: asyncio.Event | None = None) -> FunctionProvider:
    """A model whose every request first waits ``wait_s`` in a queue, then answers."""

    async def answer(request: ModelRequest) -> ModelTurn:
        assert request.clock is not None
        request.clock.queued()
        await asyncio.sleep(wait_s)
        request.clock.started()
        if work is not None:
            await work.wait()  # never set: the engine never finishes
        return tool_turn(("run_linter", {})) if len(provider.requests) == 1 else SUBMIT

    provider = FunctionProvider(answer)
    return provider


async def test_a_request_queued_past_the_turn_limit_still_gets_its_answer() -> None:
    emitter = RecordingEmitter()
    result = await run(
        definition(),
        queued_model(0.3),
        cfg=config(per_turn_timeout=0.1, total_timeout=60),
        emitter=emitter,
    )
    assert result.status == "success", result.error
    responses = [e for e in emitter.events if e.kind == "model_response"]
    assert all(e.data["queued_s"] > 0 for e in responses)


async def test_queued_time_does_not_count_against_the_total_timeout() -> None:
    result = await run(
        definition(), queued_model(0.3), cfg=config(per_turn_timeout=1, total_timeout=0.2)
    )
    assert result.status == "success", result.error


async def test_the_limit_runs_from_the_start_of_work() -> None:
    result = await run(
        definition(),
        queued_model(0.0, work=asyncio.Event()),
        cfg=config(per_turn_timeout=0.05, total_timeout=60),
    )
    assert result.error is not None and result.error.code == "AGENT_002"
    assert "per-turn timeout of 0.05s" in result.error.message


async def test_clock_without_a_scope_only_measures() -> None:
    clock = TurnClock(5.0)
    clock.queued()
    await asyncio.sleep(0.01)
    clock.started()
    first = clock.queued_s
    assert first > 0
    clock.started()  # a second start adds nothing
    assert clock.queued_s == first


async def test_the_engines_own_times_go_into_the_event() -> None:
    """The engine's prompt and generation times tell its work apart from the queue."""
    timed = dataclasses.replace(SUBMIT, timings={"prompt_s": 0.12, "generation_s": 0.3055})
    emitter = RecordingEmitter()
    provider = ScriptedProvider([tool_turn(("run_linter", {})), timed])
    result = await run(definition(), provider, emitter=emitter)
    assert result.status == "success", result.error
    untimed, response = [e for e in emitter.events if e.kind == "model_response"]
    assert response.data["prompt_s"] == 0.12 and response.data["generation_s"] == 0.3055
    # A response without them (a scripted or remote model) has none.
    assert "prompt_s" not in untimed.data and "generation_s" not in untimed.data
