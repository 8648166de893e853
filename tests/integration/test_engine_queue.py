"""The embedded engine's time limit counts from the start of work, and a stopped request
frees its slot (the real default model through xllamacpp)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from remora.config import ModelConfig
from remora.errors import ModelUnavailableError
from remora.profiles import resolve_profile
from remora.providers.embedded import EmbeddedProvider
from remora.providers.llama_engine import Engine, EngineKey, acquire_engine, release_engine

pytestmark = [pytest.mark.integration, pytest.mark.model]

# Long enough to keep one slot busy for a while whatever the machine's load: seconds, where
# the request queued behind it is sent at the event loop's next turn. (400 tokens took
# 18.8 CPU-s of the model's worker, one thread: docs/performance.md, "The test command".)
LONG = {
    "messages": [{"role": "user", "content": "Count from one to a thousand in words."}],
    "max_tokens": 120,
    "ignore_eos": True,
    "temperature": 0.0,
}
SHORT = {
    "messages": [{"role": "user", "content": "Say hi."}],
    "max_tokens": 4,
    "temperature": 0.0,
}


@contextlib.asynccontextmanager
async def one_slot_engine(model: Path, n_ctx: int = 1024) -> AsyncIterator[Engine]:
    """The real model on one slot and one thread, released afterwards."""
    engine = await asyncio.to_thread(acquire_engine, EngineKey.create(model, 1, n_ctx, 1))
    try:
        yield engine
    finally:
        await asyncio.to_thread(release_engine, engine)


class RecordingClock:
    def __init__(self) -> None:
        self.events: list[str] = []

    def queued(self) -> None:
        self.events.append("queued")

    def started(self) -> None:
        self.events.append("started")


async def test_a_request_behind_a_busy_slot_is_queued_then_started(
    embedded_model_path: Path,
) -> None:
    async with one_slot_engine(embedded_model_path) as engine:
        first, second = RecordingClock(), RecordingClock()
        busy = asyncio.ensure_future(engine.chat(LONG, clock=first))
        await asyncio.sleep(0)
        answer = await engine.chat(SHORT, clock=second)
        await busy
        assert second.events == ["queued", "started"]
        assert answer["choices"][0]["message"]["content"]
        assert answer["usage"]["completion_tokens"] > 0
        assert busy.result()["usage"]["completion_tokens"] == LONG["max_tokens"]


async def test_a_request_past_its_limit_is_stopped_and_its_slot_freed(
    embedded_model_path: Path,
) -> None:
    async with one_slot_engine(embedded_model_path) as engine:
        with pytest.raises(TimeoutError):
            await engine.chat({**LONG, "max_tokens": 100_000}, timeout_s=0.2)
        # The only slot serves the next request: the stopped one no longer holds it.
        answer = await engine.chat(SHORT)
        assert answer["choices"][0]["finish_reason"] in ("stop", "length")


async def test_a_prompt_over_the_context_names_the_setting_to_raise(
    embedded_model_path: Path,
) -> None:
    async with one_slot_engine(embedded_model_path, n_ctx=256) as engine:
        with pytest.raises(ModelUnavailableError) as info:
            await engine.chat({**SHORT, "messages": [{"role": "user", "content": "word " * 400}]})
        message = info.value.message
        assert "exceeds the available context size (256 tokens)" in message
        assert "model.n_ctx_per_slot is 256" in message
        # The slot is free again.
        assert (await engine.chat(SHORT))["choices"]


async def test_engine_copies_split_the_slots_and_take_turns(embedded_model_path: Path) -> None:
    config = ModelConfig(path=embedded_model_path, n_parallel=2, n_ctx_per_slot=1024, engines=2)
    provider = EmbeddedProvider(config, resolve_profile(None, config.id))
    try:
        first = await provider.engine()
        first.in_flight += 1  # as while a request runs on it
        second = await provider.engine()
        first.in_flight -= 1
        assert second is not first
        assert {first.key.n_parallel, second.key.n_parallel} == {1}
        assert (await second.chat(SHORT))["usage"]["completion_tokens"] > 0
    finally:
        await provider.aclose()


def _conversation(system: str, node: str, turn: int) -> dict[str, object]:
    messages = [
        {"role": "system", "content": system},
        {"role": "user", "content": node},
    ]
    if turn == 2:
        messages += [
            {"role": "assistant", "content": '{"name": "write", "arguments": {}}'},
            {"role": "user", "content": "Result of write: refused, it only repeats the name."},
        ]
    return {"messages": messages, "max_tokens": 2, "temperature": 0.0, "cache_prompt": True}


async def test_a_second_turn_finds_its_first_turn_after_another_node_took_the_slot(
    embedded_model_path: Path,
) -> None:
    # One agent, two nodes, one slot: node B's first turn shares the system prompt
    # with node A's conversation. The slot's state must go to the prompt cache
    # before B overwrites it, so A's second turn reads only what is new.
    system = "You write docstrings. " + "Call one tool per turn and say what the code does. " * 30
    node_a = "Document add(a, b): " + "return a + b; " * 40
    node_b = "Document mul(a, b): " + "return a * b; " * 40
    async with one_slot_engine(embedded_model_path, n_ctx=2048) as engine:
        first = (await engine.chat(_conversation(system, node_a, 1)))["timings"]
        await engine.chat(_conversation(system, node_b, 1))
        second = (await engine.chat(_conversation(system, node_a, 2)))["timings"]
    assert second["cache_n"] >= first["prompt_n"] + first.get("cache_n", 0)
