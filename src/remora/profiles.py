"""Model-family profiles: what a model can do, so the loop never hard-codes it.

Resolution (docs/providers.md, "Model profiles"): an explicit profile name, else the first
built-in whose match pattern occurs in the model name, else ``default``.

Profiles are data that both the configuration (which checks ``runner.tool_choice``
against the profile when it loads) and the providers read, so they sit below both.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["BUILTIN_PROFILES", "ModelProfile", "resolve_profile"]

ToolChoiceValue = Literal["auto", "none", "required"]


class ModelProfile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    supported_tool_choice: frozenset[ToolChoiceValue] = frozenset({"auto", "none", "required"})
    output_format: Literal["openai_json", "functiongemma_tags", "json_schema"] = "openai_json"
    supports_parallel_tool_calls: bool = True
    max_tool_calls_per_turn: int | None = None
    submit_result_strategy: Literal["tool_choice_force", "prompt_instruction"] = "tool_choice_force"
    native_tools: bool = True
    # Whether a turn without a tool call is an invalid response (docs/architecture.md).
    requires_tool_calls: bool = False
    # Completion prompts (CompletionRequest) on a server: the FIM markers the model was
    # trained with, in prompt order, and whether it chats in ChatML. The embedded provider
    # reads both from the GGUF vocabulary instead.
    fim_tokens: tuple[str, str, str] | None = None
    chat_format: Literal["chatml"] | None = None
    # Substrings of a model name that select this profile, lower case.
    match: tuple[str, ...] = Field(default=())


# Qwen2.5-Coder's fill-in-the-middle markers (its GGUF vocabulary has them too).
QWEN_FIM = ("<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>")

BUILTIN_PROFILES: dict[str, ModelProfile] = {
    p.name: p
    for p in (
        ModelProfile(name="default"),
        ModelProfile(
            name="functiongemma",
            supported_tool_choice=frozenset({"auto", "none"}),
            submit_result_strategy="prompt_instruction",
            match=("functiongemma",),
        ),
        # FunctionGemma behind a raw-text backend (no tool-call parser on the
        # server): declarations in the prompt, <start_function_call> tags parsed
        # from the text. Chosen by name only (model.profile: functiongemma_text).
        ModelProfile(
            name="functiongemma_text",
            supported_tool_choice=frozenset({"auto", "none"}),
            output_format="functiongemma_tags",
            native_tools=False,
            submit_result_strategy="prompt_instruction",
        ),
        ModelProfile(name="llama3", match=("llama-3", "llama3")),
        ModelProfile(
            name="mistral",
            supports_parallel_tool_calls=False,
            max_tool_calls_per_turn=1,
            match=("mistral", "mixtral"),
        ),
        # The small Qwen2.5-Coder models of Remora's catalogue: like SmolLM2, one call
        # per turn, constrained by a JSON schema with the tools in the prompt (the
        # embedded provider's path); before "qwen", which larger Qwen models served
        # with native tool calls keep.
        ModelProfile(
            name="qwen_small",
            output_format="json_schema",
            supports_parallel_tool_calls=False,
            max_tool_calls_per_turn=1,
            native_tools=False,
            requires_tool_calls=True,
            fim_tokens=QWEN_FIM,
            chat_format="chatml",
            match=("qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"),
        ),
        ModelProfile(name="qwen", fim_tokens=QWEN_FIM, chat_format="chatml", match=("qwen",)),
        ModelProfile(
            name="smollm",
            output_format="json_schema",
            supports_parallel_tool_calls=False,
            max_tool_calls_per_turn=1,
            native_tools=False,
            requires_tool_calls=True,
            chat_format="chatml",
            match=("smollm",),
        ),
        ModelProfile(
            name="gemini",
            supported_tool_choice=frozenset({"auto", "none", "required"}),
            match=("gemini",),
        ),
    )
}


def resolve_profile(profile_name: str | None, model_name: str | None) -> ModelProfile:
    """Explicit name > match in the model name > ``default``."""
    if profile_name:
        try:
            return BUILTIN_PROFILES[profile_name]
        except KeyError:
            known = ", ".join(sorted(BUILTIN_PROFILES))
            raise ValueError(f"unknown model profile {profile_name!r} (known: {known})") from None
    lowered = (model_name or "").lower()
    for profile in BUILTIN_PROFILES.values():
        if any(m in lowered for m in profile.match):
            return profile
    return BUILTIN_PROFILES["default"]
