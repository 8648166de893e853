"""Gemini failures become AGENT_002/AGENT_004, never a traceback; check() explains."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from providers_http_doubles import GeminiReplay, load_fixture

from remora.config import ModelConfig, RequestRetryConfig
from remora.conversation import Message, ModelRequest
from remora.errors import AGENT_INVALID_OUTPUT, AGENT_MODEL_UNAVAILABLE
from remora.profiles import resolve_profile
from remora.providers.base import ProviderError
from remora.providers.gemini import GeminiProvider

MODEL = "gemini-2.5-flash"
REQUEST = ModelRequest((Message.user("hello"),))


@pytest.fixture
def replay() -> Iterator[GeminiReplay]:
    server = GeminiReplay().start()
    try:
        yield server
    finally:
        server.close()


def _provider(base_url: str | None, **overrides: object) -> GeminiProvider:
    config = ModelConfig.model_validate(
        {"provider": "gemini", "id": MODEL, "base_url": base_url, **overrides}
    )
    return GeminiProvider.from_config(config, resolve_profile(None, MODEL))


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.setenv("GEMINI_API_KEY", "k")


async def test_missing_key_is_unavailable_with_a_hint(
    replay: GeminiReplay, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GEMINI_API_KEY")
    provider = _provider(replay.url)
    with pytest.raises(ProviderError) as caught:
        await provider.complete(REQUEST)
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert "GEMINI_API_KEY or GOOGLE_API_KEY is not set" in caught.value.message
    availability = await provider.check()
    assert not availability.ok
    assert availability.provider == "gemini" and availability.model == MODEL
    assert "export GEMINI_API_KEY" in availability.hint
    assert replay.requests == []  # nothing was sent


async def test_api_key_env_names_the_variable(
    replay: GeminiReplay, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_TEAM_GEMINI_KEY", "team-key")
    replay.enqueue("final_text.json")
    provider = _provider(replay.url, api_key_env="MY_TEAM_GEMINI_KEY")
    await provider.complete(REQUEST)
    assert replay.requests[0].headers["x-goog-api-key"] == "team-key"
    monkeypatch.delenv("MY_TEAM_GEMINI_KEY")
    assert "MY_TEAM_GEMINI_KEY" in (await provider.check()).reason


async def test_remote_endpoint_refused_when_network_models_are_disabled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("REMORA_NO_NETWORK_MODELS", "1")
    provider = _provider(None)
    with pytest.raises(ProviderError) as caught:
        await provider.complete(REQUEST)
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert "REMORA_NO_NETWORK_MODELS" in caught.value.message


@pytest.mark.parametrize(
    ("fixture", "status", "mentions", "retryable"),
    [
        ("error_not_found.json", 404, "was not found", False),
        ("error_quota.json", 429, "RESOURCE_EXHAUSTED", True),
        ("error_bad_key.json", 400, "the API key was refused", False),
    ],
)
async def test_api_errors_are_agent_002(
    replay: GeminiReplay, fixture: str, status: int, mentions: str, retryable: bool
) -> None:
    replay.enqueue(fixture, status=status)
    with pytest.raises(ProviderError) as caught:
        await _provider(replay.url).complete(REQUEST)
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert mentions in caught.value.message
    assert caught.value.retryable is retryable


async def test_malformed_body_is_agent_004(replay: GeminiReplay) -> None:
    replay.enqueue_raw(b"<html>proxy error</html>")
    with pytest.raises(ProviderError) as caught:
        await _provider(replay.url).complete(REQUEST)
    assert caught.value.code == AGENT_INVALID_OUTPUT
    assert "malformed response" in caught.value.message


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


async def test_unreachable_server_is_retried_then_agent_002() -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    provider = _provider(url, retry=RequestRetryConfig(max_attempts=2, backoff_s=0.0))
    with pytest.raises(ProviderError) as caught:
        await provider.complete(REQUEST)
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert caught.value.retryable
    assert f"cannot reach {url}" in caught.value.message
    availability = await provider.check()
    assert not availability.ok and "cannot reach" in availability.reason


async def test_a_dropped_connection_is_retried(replay: GeminiReplay) -> None:
    replay.enqueue_drop()
    replay.enqueue("final_text.json")
    provider = _provider(replay.url, retry=RequestRetryConfig(max_attempts=3, backoff_s=0.0))
    turn = await provider.complete(REQUEST)
    assert turn.finish == "stop"
    assert len(replay.requests) == 2


async def test_a_slow_server_times_out_as_agent_002(replay: GeminiReplay) -> None:
    replay.enqueue("final_text.json", delay_s=1.0)
    provider = _provider(replay.url, retry=RequestRetryConfig(max_attempts=1))
    request = ModelRequest((Message.user("hello"),), timeout_s=0.1)
    with pytest.raises(ProviderError) as caught:
        await provider.complete(request)
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert caught.value.retryable
    assert "timed out after 0.1s" in caught.value.message


async def test_http_errors_are_not_retried(replay: GeminiReplay) -> None:
    # Only connection errors and timeouts are retried; a 429 goes back to the loop
    # marked retryable, after one request.
    replay.enqueue("error_quota.json", status=429)
    replay.enqueue("final_text.json")
    provider = _provider(replay.url, retry=RequestRetryConfig(max_attempts=3, backoff_s=0.0))
    with pytest.raises(ProviderError):
        await provider.complete(REQUEST)
    assert len(replay.requests) == 1


async def test_check_reads_the_model(replay: GeminiReplay) -> None:
    replay.model_info = (200, load_fixture("model_info.json"))
    provider = _provider(replay.url)
    availability = await provider.check()
    assert availability.ok, availability
    assert replay.requests[0].method == "GET"
    assert replay.requests[0].path == f"/v1beta/models/{MODEL}"
    await provider.aclose()


async def test_check_unknown_model(replay: GeminiReplay) -> None:
    replay.model_info = (404, load_fixture("error_not_found.json"))
    availability = await _provider(replay.url).check()
    assert not availability.ok
    assert "was not found" in availability.reason


def test_base_url_version_is_split_off() -> None:
    assert _provider("http://127.0.0.1:9/v1").api_version == "v1"
    assert _provider("http://127.0.0.1:9/v1").base_url == "http://127.0.0.1:9"
    assert _provider("http://127.0.0.1:9").api_version == "v1beta"
    assert _provider(None).base_url is None
