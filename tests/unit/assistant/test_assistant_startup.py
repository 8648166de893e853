"""The startup check: unusable models fail before the first question, saying what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.assistant.startup import check_model, function_calling_problem
from remora.config import ModelConfig
from remora.errors import AGENT_MODEL_UNAVAILABLE, RemoraError
from remora.profiles import BUILTIN_PROFILES
from remora.providers.factory import create_provider
from remora.providers.scripted import ScriptedProvider


async def test_scripted_model_with_turns_passes(tmp_path: Path) -> None:
    turns = tmp_path / "turns.yaml"
    turns.write_text("- text: hi\n")
    model = ModelConfig(provider="scripted", id="scripted", path=turns)
    await check_model(create_provider(model), model)


async def test_unavailable_model_fails_with_the_providers_hint() -> None:
    model = ModelConfig(provider="scripted", id="scripted")
    with pytest.raises(RemoraError) as caught:
        await check_model(create_provider(model), model)
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert "scripted (scripted) is not available: no script" in caught.value.message
    assert "model.path" in caught.value.hint


async def test_llm_model_without_tools_fails_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    # A key makes the model "available" (check() makes no request); it still has no tools.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    model = ModelConfig(provider="llm", id="gpt-3.5-turbo-instruct")
    with pytest.raises(RemoraError) as caught:
        await check_model(create_provider(model), model)
    assert caught.value.code == AGENT_MODEL_UNAVAILABLE
    assert "does not support function calling" in caught.value.message
    assert "supports_tools" in caught.value.message
    assert "llm models list --tools" in caught.value.hint
    assert "--model" in caught.value.hint


async def test_llm_model_with_tools_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    model = ModelConfig(provider="llm", id="gpt-4o-mini")
    await check_model(create_provider(model), model)


async def test_llm_model_without_tools_is_fine_with_a_prompted_profile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    model = ModelConfig(provider="llm", id="gpt-3.5-turbo-instruct", profile="smollm")
    provider = create_provider(model)
    assert provider.profile.native_tools is False
    await check_model(provider, model)


@pytest.mark.parametrize(
    ("model_id", "family"),
    [
        ("text-embedding-004", "embedding"),
        ("gemma-3-27b-it", "gemma"),
        ("aqa", "aqa"),
    ],
)
async def test_gemini_families_without_function_calling(model_id: str, family: str) -> None:
    model = ModelConfig(provider="gemini", id=model_id)
    provider = ScriptedProvider(profile=BUILTIN_PROFILES["gemini"])
    problem = await function_calling_problem(provider, model)
    assert problem is not None and family in problem


async def test_gemini_chat_model_has_function_calling() -> None:
    model = ModelConfig(provider="gemini", id="gemini-2.5-flash")
    assert await function_calling_problem(ScriptedProvider(), model) is None


async def test_a_provider_can_declare_it_has_no_function_calling(tmp_path: Path) -> None:
    turns = tmp_path / "t.yaml"
    turns.write_text("[]\n")
    model = ModelConfig(provider="scripted", id="plain", path=turns)
    provider = create_provider(model)
    provider.supports_function_calling = False  # type: ignore[attr-defined]
    with pytest.raises(RemoraError) as caught:
        await check_model(provider, model)
    assert "does not support function calling" in caught.value.message
    assert "--model" in caught.value.hint
