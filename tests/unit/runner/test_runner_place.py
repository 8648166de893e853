"""A run holds its place among the -j talking to the model only while it talks (runner/place.py):
from its first turn to the model's likely last answer, and for a completion asked outside a
conversation; the host's work around that holds none."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from loop_kit import OBJ, InProcessExecutor, config, definition

from remora.conversation import Completion, CompletionRequest, ModelRequest, ModelTurn, Usage
from remora.events import RecordingEmitter
from remora.providers.scripted import FunctionProvider, tool_turn
from remora.runner import AgentRunner, MeteredCompleter, ModelPlace


async def test_a_place_is_counted_and_the_last_holder_gives_it_back() -> None:
    places = asyncio.Semaphore(1)
    mine, other = ModelPlace(places), ModelPlace(places)
    await mine.take()
    await mine.take()  # a completion inside the run's conversation: no second place
    waiting = asyncio.create_task(other.take())
    await asyncio.sleep(0.01)
    assert not waiting.done()
    mine.give_back()
    await asyncio.sleep(0.01)
    assert not waiting.done()  # one holder is left
    mine.give_back()
    await asyncio.wait_for(waiting, 1)
    assert other.waited_s >= 0.01 and mine.held_s >= 0.02
    other.close()
    other.close()  # nothing held: nothing given back twice
    assert not places.locked()
    with pytest.raises(RuntimeError, match="did not hold"):
        mine.give_back()
    assert ModelPlace().report() == {}
    assert set(mine.report()) == {"waited_s", "held_s"}


def _runner(
    provider: FunctionProvider,
    place: ModelPlace,
    executor: InProcessExecutor,
    emitter: RecordingEmitter | None = None,
    tools: list[dict[str, Any]] | None = None,
) -> AgentRunner:
    return AgentRunner(
        definition(tools=tools),
        provider,
        config(),
        executor,
        emitter=emitter or RecordingEmitter(),
        template_vars={"node_type": "function", "node_name": "f"},
        run_id="run-1",
        place=place,
    )


async def test_a_conversation_holds_its_place_from_its_first_turn_to_the_last_answer() -> None:
    places = asyncio.Semaphore(1)
    held: list[bool] = []  # whether the one place was held as each request and tool ran

    async def answer(request: ModelRequest) -> ModelTurn:
        held.append(places.locked())
        if len(provider.requests) == 1:
            return tool_turn(("run_linter", {}))
        return tool_turn(("submit_result", {"summary": "done"}))

    provider = FunctionProvider(answer)

    def tool(_: dict[str, Any]) -> dict[str, Any]:
        held.append(places.locked())
        return {}

    executor = InProcessExecutor({"run_linter": tool, "submit_result": tool})
    emitter = RecordingEmitter()
    result = await _runner(provider, ModelPlace(places), executor, emitter).run()
    assert result.status == "success", result.error
    # Turn 1, its linter run, turn 2 hold the place; the submit it asked for runs without.
    assert held == [True, True, True, False]
    end = next(e for e in emitter.events if e.kind == "run_end")
    assert set(end.data["place"]) == {"waited_s", "held_s"}


async def test_a_run_that_goes_on_after_a_likely_last_answer_waits_for_a_place_again() -> None:
    places = asyncio.Semaphore(1)
    held: list[bool] = []
    left = iter([["E501"], []])  # the fix leaves a finding the first time, none the second

    def fix(_: dict[str, Any]) -> dict[str, Any]:
        held.append(places.locked())
        return {"remaining": next(left)}

    async def answer(request: ModelRequest) -> ModelTurn:
        held.append(places.locked())
        return tool_turn(("fix", {"code": "E501" if len(held) == 1 else "F401"}))

    code = {"type": "object", "properties": {"code": {"type": "string"}}}
    tools = [
        {"name": "fix", "description": "Fix.", "parameters": code, "finish_if_empty": "remaining"},
        {"name": "submit_result", "description": "Finish.", "parameters": OBJ},
    ]
    executor = InProcessExecutor({"fix": fix})
    runner = _runner(FunctionProvider(answer), ModelPlace(places), executor, tools=tools)
    result = await runner.run()
    assert result.error is None and result.turns == 2
    # The fix may end the run: it runs without the place; the run went on and took it again.
    assert held == [True, False, True, False] and not places.locked()
    assert runner.place.held_s > 0


class _Completer:
    """A text completer whose requests see whether the one place is held."""

    def __init__(self, places: asyncio.Semaphore) -> None:
        self.places = places
        self.held: list[bool] = []

    async def complete_text(self, request: CompletionRequest) -> Completion:
        self.held.append(self.places.locked())
        return Completion(texts=("x",), shape="fim", usage=Usage(1, 1))


async def test_a_completion_outside_a_conversation_holds_the_place_for_its_request() -> None:
    places = asyncio.Semaphore(1)
    inner = _Completer(places)
    place = ModelPlace(places)
    completer = MeteredCompleter(inner, 5.0, place)
    await completer.complete_text(CompletionRequest(prefix="def f():"))
    assert inner.held == [True] and not places.locked()
    await place.take()  # the run's conversation
    await completer.complete_text(CompletionRequest(prefix="def f():"))
    assert places.locked()  # still the conversation's
    place.close()
    assert not places.locked()
