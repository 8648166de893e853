"""Token log-probabilities from an OpenAI-compatible ``/v1/completions``, over real HTTP."""

from __future__ import annotations

from typing import Any

from providers_http_doubles import _Server

from remora.config import ModelConfig
from remora.conversation import CompletionRequest, TokenLogprob
from remora.providers.factory import create_provider

ASKED = CompletionRequest(prefix='def add(a, b):\n    """', stop=('"""',), logprobs=True)


def _answer(body: dict[str, Any], logprobs: dict[str, Any] | None) -> dict[str, Any]:
    choice = {"index": 0, "text": "Add two numbers.", "finish_reason": "stop", "logprobs": logprobs}
    return {"id": "c", "object": "text_completion", "model": body["model"], "choices": [choice]}


async def _complete(route: Any) -> tuple[Any, list[Any]]:
    with _Server(route) as server:
        provider = create_provider(
            ModelConfig(provider="openai", id="m", base_url=f"{server.url}/v1")
        )
        try:
            done = await provider.complete_text(ASKED)  # type: ignore[attr-defined]
        finally:
            await provider.aclose()
        return done, [r.body for r in server.requests if r.method == "POST"]


async def test_the_legacy_shape_gives_each_tokens_log_probability() -> None:
    def route(method: str, path: str, body: Any) -> tuple[int, Any]:
        scored = {
            "tokens": ["Add", " two", " numbers", "."],
            "token_logprobs": [-0.5, -0.1, -0.2, 0.0],
        }
        return 200, _answer(body, scored)

    done, sent = await _complete(route)
    assert sent[0]["logprobs"] == 1
    assert done.texts == ("Add two numbers.",)
    assert done.logprobs[0][:2] == (TokenLogprob("Add", -0.5), TokenLogprob(" two", -0.1))


async def test_a_server_that_refuses_logprobs_is_asked_once_more_without() -> None:
    def route(method: str, path: str, body: Any) -> tuple[int, Any]:
        if "logprobs" in body:
            return 400, {"error": {"message": "unknown field: logprobs"}}
        return 200, _answer(body, None)

    done, sent = await _complete(route)
    assert [("logprobs" in body) for body in sent] == [True, False]
    assert done.texts == ("Add two numbers.",) and done.logprobs == ((),)
