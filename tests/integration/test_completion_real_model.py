"""Plain completions with the real default model: in process and over llama.cpp's HTTP server."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import LLAMA_SERVER_MODEL

from remora.config import ModelConfig
from remora.conversation import Completion, CompletionRequest
from remora.profiles import resolve_profile
from remora.providers.embedded import EmbeddedProvider
from remora.providers.factory import create_provider
from remora.providers.gguf_vocab import prompt_tokens

pytestmark = [pytest.mark.integration, pytest.mark.model]

SUMMARY = CompletionRequest(
    prefix='def add(a, b):\n    """Add two numbers."""\n    return a + b\n\n\n'
    'def subtract(a, b):\n    """',
    suffix='"""\n    return a - b\n',
    stop=('"""', "\n"),
    max_tokens=24,
)


async def test_the_embedded_model_fills_the_middle_in_its_own_tokens(
    embedded_model_path: Path,
) -> None:
    provider = EmbeddedProvider(
        ModelConfig(path=embedded_model_path), resolve_profile(None, embedded_model_path.name)
    )
    try:
        done = await provider.complete_text(SUMMARY)
        scored = await provider.complete_text(dataclasses.replace(SUMMARY, logprobs=True))
        chat = await provider.complete_text(
            CompletionRequest(
                prefix='def negate(x):\n    """',
                instruction="Write the docstring of:\ndef negate(x):\n    return -x",
                stop=('"""', "\n"),
                max_tokens=24,
                n=2,
            )
        )
    finally:
        await provider.aclose()
    expected = "fim" if prompt_tokens(embedded_model_path).fim else "prefix"
    assert done.shape == expected
    (text,) = done.texts
    assert text.strip() and '"""' not in text and "\n" not in text
    assert done.usage.prompt_tokens > 20 and done.usage.requests == 1
    assert chat.shape == "chat" and len(chat.texts) == 2 and chat.usage.requests == 2
    # Token log-probabilities only when asked, spelling the very text returned.
    assert done.logprobs == ((),)
    _assert_tokens_spell(scored)


def _assert_tokens_spell(done: Completion) -> None:
    """One candidate whose tokens spell its text: the token that held the stop string runs
    past it (in process) or is left out (llama.cpp's server)."""
    ((text,), (tokens,)) = done.texts, done.logprobs
    spelled = "".join(t.text for t in tokens)
    assert tokens and (spelled.startswith(text) or text.startswith(spelled))
    assert 2 * len(spelled) > len(text)
    assert all(t.logprob <= 0.0 for t in tokens)


async def test_a_server_completes_through_v1_completions(llama_server_url: str) -> None:
    config = ModelConfig(provider="openai", id=LLAMA_SERVER_MODEL, base_url=llama_server_url)
    provider = create_provider(config)
    try:
        done = await provider.complete_text(SUMMARY)  # type: ignore[attr-defined]
        scored = await provider.complete_text(  # type: ignore[attr-defined]
            dataclasses.replace(SUMMARY, logprobs=True)
        )
    finally:
        await provider.aclose()
    _assert_tokens_spell(scored)
    assert done.shape in ("fim", "prefix")
    (text,) = done.texts
    assert text.strip() and '"""' not in text and "\n" not in text
    assert done.usage.completion_tokens >= 1
