"""The server router (providers/server_pool.py): least in flight, cool-down, retry elsewhere,
the adaptive limit under back-pressure. Choices are checked on Server objects with a set
clock; the retries through the real OpenAI SDK against the stand-in server
(benchmarks/standin_server.py) on 127.0.0.1, which can answer 429 or go away on cue."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from remora.config import ModelConfig, RequestRetryConfig
from remora.conversation import Message, ModelRequest, ToolSpec
from remora.errors import AGENT_MODEL_UNAVAILABLE, ModelUnavailableError
from remora.profiles import BUILTIN_PROFILES
from remora.providers.openai_compat import OpenAIProvider
from remora.providers.server_pool import Server, ServerRouter

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from standin_server import MODEL_ID, StandIn, Trouble

WRITE = ToolSpec(
    "write_docstring",
    "Write it.",
    {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
)
REQUEST = ModelRequest((Message.system("sys"), Message.user("document f")), (WRITE,))


class SetClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def router(*servers: Server, clock: SetClock, cooldown_s: float = 30.0) -> ServerRouter:
    return ServerRouter(
        list(servers),
        cooldown_s=cooldown_s,
        max_attempts=2,
        backoff_s=0.0,
        back_pressure_budget_s=10.0,
        now=clock,
    )


def test_the_server_with_fewest_in_flight_and_room_is_chosen() -> None:
    clock = SetClock()
    a, b, c = (Server(url, None, 4) for url in ("http://a/v1", "http://b/v1", "http://c/v1"))
    pool = router(a, b, c, clock=clock)
    a.in_flight, b.in_flight, c.in_flight = 2, 1, 3
    assert pool.choose() is b
    b.in_flight = 4  # full
    assert pool.choose() is a
    a.out_until = clock.now + 5  # cooling down
    assert pool.choose() is c
    c.paused_until = clock.now + 1  # Retry-After
    assert pool.choose() is None  # b is in rotation but full: wait for it
    assert pool.choose(frozenset({"http://c/v1"})) is None


def test_idle_servers_take_requests_in_turn() -> None:
    clock = SetClock()
    a, b, c = (Server(url, None, 4) for url in ("http://a/v1", "http://b/v1", "http://c/v1"))
    pool = router(a, b, c, clock=clock)
    chosen = [pool.choose() for _ in range(6)]  # none in flight: each is a tie
    assert [chosen.count(s) for s in (a, b, c)] == [2, 2, 2]
    b.in_flight = 1
    assert {id(pool.choose()) for _ in range(4)} == {id(a), id(c)}


def test_when_every_server_cools_down_the_one_back_soonest_is_tried() -> None:
    clock = SetClock()
    a, b = Server("http://a/v1", None, 2), Server("http://b/v1", None, 2)
    pool = router(a, b, clock=clock)
    a.out_until, b.out_until = clock.now + 9, clock.now + 3
    assert pool.choose() is b  # a single server must still be tried after a blip
    b.in_flight = 2
    assert pool.choose() is None


def test_a_server_back_from_cool_down_takes_one_probe_first() -> None:
    clock = SetClock()
    a, b = Server("http://a/v1", None, 8), Server("http://b/v1", None, 8)
    pool = router(a, b, clock=clock, cooldown_s=5)
    pool.mark_down("http://a/v1", "refused")
    assert a.state(clock.now) == "cooling down" and pool.choose() is b
    clock.now += 5.1
    assert a.state(clock.now) == "probing" and a.room(clock.now) == 1
    b.in_flight = 2
    assert pool.choose() is a  # fewest in flight (b has the others)
    a.in_flight = 1
    b.in_flight = 3
    assert pool.choose() is b  # the probe is out: a takes no second request yet
    assert pool.snapshot()[0]["state"] == "probing" and pool.snapshot()[0]["failed"] == 1


def provider(urls: list[str], **model: Any) -> OpenAIProvider:
    config = ModelConfig(
        provider="openai",
        id=MODEL_ID,
        base_url=urls if len(urls) > 1 else urls[0],
        retry=RequestRetryConfig(max_attempts=2, backoff_s=0.01),
        **model,
    )
    return OpenAIProvider.from_config(config, BUILTIN_PROFILES["default"])


@pytest.fixture
def standins(request: pytest.FixtureRequest) -> Iterator[list[StandIn]]:
    """Stand-ins started from ``(latency_ms, Trouble)`` pairs given by parametrize-indirect."""
    with ExitStack() as stack:
        yield [stack.enter_context(StandIn(ms, trouble=t)) for ms, t in request.param]


async def ask_many(client: OpenAIProvider, count: int) -> list[str]:
    turns = await asyncio.gather(*(client.complete(REQUEST) for _ in range(count)))
    return [t.message.tool_calls[0].name for t in turns]


@pytest.mark.parametrize("standins", [[(50, Trouble()), (50, Trouble())]], indirect=True)
async def test_two_servers_each_get_a_fair_share(standins: list[StandIn]) -> None:
    client = provider([s.base_url for s in standins], max_in_flight=4)
    assert (await client.check()).ok
    names = await ask_many(client, 64)  # eight rounds of the two servers' eight requests
    await client.aclose()
    assert names == ["write_docstring"] * 64
    served = [s.stats()["answered"] for s in standins]
    assert sum(served) == 64 and min(served) >= 24, served  # least in flight: about half each
    assert [row["served"] for row in client.servers()] == served


@pytest.mark.parametrize("standins", [[(30, Trouble()), (30, Trouble(die_after=5))]], indirect=True)
async def test_a_server_that_goes_away_is_left_out_and_its_requests_retried_elsewhere(
    standins: list[StandIn],
) -> None:
    alive, dying = standins
    client = provider([alive.base_url, dying.base_url], max_in_flight=4, cooldown_s=60)
    names = await ask_many(client, 40)  # no request fails
    assert names == ["write_docstring"] * 40
    assert dying.stats()["answered"] >= 5
    later = await ask_many(client, 8)
    assert len(later) == 8
    states = {row["url"]: row for row in client.servers()}
    assert states[dying.base_url]["state"] == "cooling down"
    assert states[dying.base_url]["failed"] >= 1 and states[dying.base_url]["last_error"]
    assert states[alive.base_url]["served"] == alive.stats()["answered"] >= 35
    await client.aclose()


@pytest.mark.parametrize(
    "standins", [[(20, Trouble(capacity=3, retry_after_s=0.05))]], indirect=True
)
async def test_back_pressure_halves_the_limit_and_no_request_fails(
    standins: list[StandIn],
) -> None:
    (server,) = standins
    client = provider([server.base_url], max_in_flight=16)
    names = await ask_many(client, 40)
    assert names == ["write_docstring"] * 40
    (state,) = client.servers()
    assert server.stats()["busy"] > 0 and state["throttled"] == server.stats()["busy"]
    assert state["limit"] < 16  # halved at least once, grown back slowly
    assert state["served"] == 40 and state["failed"] == 0
    limit = client.router.servers[0].limit
    for _ in range(5):  # one at a time: under the stand-in's capacity, so each succeeds
        await client.complete(REQUEST)
    grown = client.router.servers[0].limit
    assert limit < grown <= limit + 5 / limit  # by 1/limit a success: slowly
    await client.aclose()


@pytest.mark.parametrize("standins", [[(0, Trouble(busy_for_s=30))]], indirect=True)
async def test_back_pressure_longer_than_model_timeout_fails_the_request(
    standins: list[StandIn],
) -> None:
    (server,) = standins
    client = provider([server.base_url], timeout=0.3)
    started = time.monotonic()
    with pytest.raises(ModelUnavailableError) as info:
        await client.complete(REQUEST)
    assert info.value.code == AGENT_MODEL_UNAVAILABLE and info.value.retryable
    assert "kept answering HTTP 429" in info.value.message
    assert time.monotonic() - started < 5
    await client.aclose()


class RecordingClock:
    def __init__(self) -> None:
        self.events: list[str] = []

    def queued(self) -> None:
        self.events.append("queued")

    def started(self) -> None:
        self.events.append("started")


@pytest.mark.parametrize("standins", [[(200, Trouble())]], indirect=True)
async def test_waiting_for_room_stops_the_turn_clock(standins: list[StandIn]) -> None:
    (server,) = standins
    client = provider([server.base_url], max_in_flight=1)
    first, second = RecordingClock(), RecordingClock()
    await asyncio.gather(
        client.complete(ModelRequest(REQUEST.messages, REQUEST.tools, clock=first)),
        client.complete(ModelRequest(REQUEST.messages, REQUEST.tools, clock=second)),
    )
    assert server.stats()["in_flight_max"] == 1
    assert sorted([first.events, second.events]) == [[], ["queued", "started"]]
    await client.aclose()


async def test_every_server_down_is_unavailable_after_the_attempts(unused_tcp_port: int) -> None:
    urls = [f"http://127.0.0.1:{unused_tcp_port}/v1", f"http://127.0.0.1:{unused_tcp_port}/x/v1"]
    client = provider(urls)
    availability = await client.check()
    assert not availability.ok and availability.reason.count("cannot reach") == 2
    with pytest.raises(ModelUnavailableError) as info:
        await client.complete(REQUEST)
    assert "unreachable after 2 attempt(s)" in info.value.message
    assert all(row["failed"] >= 1 for row in client.servers())
    await client.aclose()


@pytest.mark.parametrize(
    ("base_url", "provider_name", "message"),
    [
        ([], "openai", "empty list of servers"),
        (["http://a:1/v1", "ftp://b/v1"], "openai", "'ftp://b/v1' is not an http(s) URL"),
        (["http://a:1/v1", "http://a:1/v1"], "openai", "listed twice"),
        (["http://a:1/v1", "http://b:1/v1"], "gemini", "a list of servers is for provider openai"),
    ],
)
def test_bad_server_lists_are_config_errors_naming_the_field(
    base_url: list[str], provider_name: str, message: str
) -> None:
    from remora.config import load_config
    from remora.errors import ConfigValueError

    with pytest.raises(ConfigValueError) as info:
        load_config(
            overrides={"model": {"provider": provider_name, "base_url": base_url}},
            environ={},
            project_root=Path.cwd(),
        )
    assert "model" in info.value.message and message in info.value.message
