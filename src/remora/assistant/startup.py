"""The startup check: a model the assistant cannot use fails before the
first question, with a message that says how to choose another.

Two questions: is the model there (the provider's ``check()``), and can it call
functions. Only the second is specific to the assistant; what decides it:

- a provider may say so itself with a ``supports_function_calling`` attribute;
- ``llm``: the model's ``supports_tools``, unless the profile asks for calls in
  the prompt (``native_tools: false``, e.g. the smollm/functiongemma profiles);
- ``gemini``: model families the Gemini API serves without function calling;
- ``embedded``: every call is constrained JSON, so any chat GGUF can;
- ``openai``/``scripted``: the server decides; nothing to ask without a request.
"""

from __future__ import annotations

import asyncio
from typing import Any

from remora.config import ModelConfig
from remora.errors import ModelUnavailableError
from remora.providers.base import Provider

__all__ = ["GEMINI_WITHOUT_FUNCTIONS", "check_model", "function_calling_problem"]

# Substrings of Gemini API model ids that serve no function calling.
GEMINI_WITHOUT_FUNCTIONS = (
    "embedding",
    "aqa",
    "imagen",
    "-tts",
    "image-generation",
    "gemma-",
    "veo-",
    "learnlm",
)

CHOOSE_HINT = {
    "gemini": "choose a Gemini model with function calling, e.g. --model gemini-2.5-flash "
    "(or model.id in remora.yaml, or REMORA_MODEL__ID)",
    "llm": "choose a model that supports tools (`llm models list --tools`) with --model "
    "(or model.id in remora.yaml, or REMORA_MODEL__ID), or ask for calls in the "
    "prompt with --model-profile smollm",
}
DEFAULT_HINT = (
    "choose another model with --model / --provider (or model.id and model.provider in remora.yaml)"
)


def _llm_supports_tools(model_id: str) -> bool | None:
    import llm

    for get in (llm.get_async_model, llm.get_model):
        try:
            model: Any = get(model_id)
        except llm.UnknownModelError:
            continue
        return bool(getattr(model, "supports_tools", False))
    return None  # unknown: check() has already said so


async def function_calling_problem(provider: Provider, model: ModelConfig) -> str | None:
    """Why this model cannot call functions, or None when it can (or cannot be told)."""
    declared = getattr(provider, "supports_function_calling", None)
    if isinstance(declared, bool):
        return None if declared else "the provider says the model has no function calling"
    if model.provider == "llm":
        if not provider.profile.native_tools:
            return None  # calls are asked for in the prompt and parsed from the text
        supports = await asyncio.to_thread(_llm_supports_tools, model.id)
        if supports is False:
            return "llm reports no tool support for it (supports_tools is false)"
    if model.provider == "gemini":
        lowered = model.id.lower()
        family = next((m for m in GEMINI_WITHOUT_FUNCTIONS if m in lowered), None)
        if family is not None:
            return f"Gemini serves {family.strip('-')} models without function calling"
    return None


async def check_model(provider: Provider, model: ModelConfig) -> None:
    """Raise AGENT_002 when the assistant cannot use this model; return when it can."""
    available = await provider.check()
    label = f"{model.id} ({model.provider})"
    if not available.ok:
        raise ModelUnavailableError(
            f"model {label} is not available: {available.reason}",
            available.hint or DEFAULT_HINT,
        )
    problem = await function_calling_problem(provider, model)
    if problem is not None:
        raise ModelUnavailableError(
            f"model {label} cannot be used by the assistant: it does not support function "
            f"calling ({problem})",
            CHOOSE_HINT.get(model.provider, DEFAULT_HINT),
        )
