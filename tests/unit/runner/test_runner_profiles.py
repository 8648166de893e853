"""Model profiles and model-aware config validation."""

from __future__ import annotations

import warnings

import pytest
from pydantic import ValidationError

from remora.config import ModelConfig, RemoraConfig, RunnerConfig
from remora.profiles import BUILTIN_PROFILES, ModelProfile, resolve_profile
from remora.runner import TurnPolicy


def test_builtin_profiles_exist() -> None:
    assert set(BUILTIN_PROFILES) == {
        "default",
        "functiongemma",
        "functiongemma_text",
        "llama3",
        "mistral",
        "qwen_small",
        "qwen",
        "smollm",
        "gemini",
    }


def test_resolve_explicit_profile_wins_over_the_model_name() -> None:
    assert resolve_profile("functiongemma", "llama-3.1-70b").name == "functiongemma"


def test_resolve_auto_detects_from_the_model_name() -> None:
    profile = resolve_profile(None, "functiongemma-2b")
    assert profile.name == "functiongemma"
    assert "required" not in profile.supported_tool_choice
    assert resolve_profile(None, "Meta-Llama-3.1-8B-Instruct").name == "llama3"
    assert resolve_profile(None, "SmolLM2-135M-Instruct").name == "smollm"
    assert resolve_profile(None, "gemini-2.5-flash").name == "gemini"
    assert resolve_profile(None, "Qwen2.5-0.5B").name == "qwen"
    # The catalogue's small coders, by name or as served, take the constrained path.
    assert resolve_profile(None, "qwen2.5-coder-0.5b").name == "qwen_small"
    assert resolve_profile(None, "Qwen/Qwen2.5-Coder-1.5B-Instruct").name == "qwen_small"
    assert resolve_profile(None, "qwen2.5-coder:7b").name == "qwen"
    assert resolve_profile(None, "mistral-7b-instruct").name == "mistral"


def test_resolve_falls_back_to_default() -> None:
    profile = resolve_profile(None, "my-custom-model")
    assert profile.name == "default"
    assert "required" in profile.supported_tool_choice
    assert resolve_profile(None, None).name == "default"


def test_unknown_explicit_profile_is_an_error_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown model profile 'gpt9'.*functiongemma"):
        resolve_profile("gpt9", None)


def test_functiongemma_cannot_force_tool_choice() -> None:
    p = BUILTIN_PROFILES["functiongemma"]
    assert p.supported_tool_choice == {"auto", "none"}
    assert p.submit_result_strategy == "prompt_instruction"


@pytest.mark.parametrize("name", ["smollm", "qwen_small"])
def test_tiny_model_profile_needs_host_help(name: str) -> None:
    p = BUILTIN_PROFILES[name]
    assert p.requires_tool_calls and not p.native_tools and p.output_format == "json_schema"
    assert p.max_tool_calls_per_turn == 1 and not p.supports_parallel_tool_calls


def test_profiles_are_immutable_and_strict() -> None:
    with pytest.raises(ValidationError):
        ModelProfile(name="x", output_format="xml")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        BUILTIN_PROFILES["default"].name = "changed"  # type: ignore[misc]


# ------------------------------------------------------------ tool_choice per turn


def _policy(profile: str, tool_choice: str) -> TurnPolicy:
    from loop_kit import definition

    return TurnPolicy(
        definition(), BUILTIN_PROFILES[profile], RunnerConfig(tool_choice=tool_choice), max_turns=8
    )


def test_tool_choice_required_with_a_supporting_model() -> None:
    assert _policy("default", "required").tool_choice == "required"


def test_tool_choice_required_with_functiongemma_falls_back_to_auto() -> None:
    assert _policy("functiongemma", "required").tool_choice == "auto"


def test_tool_choice_auto_passes_for_every_profile() -> None:
    for name in BUILTIN_PROFILES:
        assert _policy(name, "auto").tool_choice == "auto"


def test_submit_strategy_decides_the_final_turn() -> None:
    from remora.runner import RunState

    forced = _policy("llama3", "auto").plan(8, RunState(tools_run=2))
    assert forced.final and forced.tool_choice == "submit_result" and forced.instruction is None
    state = RunState(tools_run=2)
    instructed = _policy("functiongemma", "auto").plan(8, state)
    assert instructed.final and [t.name for t in instructed.tools] == ["submit_result"]
    assert instructed.instruction is not None and "submit_result" in instructed.instruction
    # The instruction is given once, even if the final turn is asked again (a retry).
    assert _policy("functiongemma", "auto").plan(8, state).instruction is None


# ------------------------------------------------------------ config validation (§1.4)


def test_invalid_tool_choice_is_rejected() -> None:
    with pytest.raises(ValidationError, match="tool_choice"):
        RunnerConfig(tool_choice="force")


def test_valid_tool_choice_values_are_accepted() -> None:
    for value in ("auto", "none", "required"):
        assert RunnerConfig(tool_choice=value).tool_choice == value


def test_functiongemma_with_required_warns_at_load() -> None:
    with pytest.warns(UserWarning, match="not supported by model profile 'functiongemma'"):
        RemoraConfig(
            model=ModelConfig(provider="openai", id="functiongemma-2b"),
            runner=RunnerConfig(tool_choice="required"),
        )


def test_explicit_profile_is_used_for_the_warning() -> None:
    with pytest.warns(UserWarning, match="'functiongemma'"):
        RemoraConfig(
            model=ModelConfig(provider="openai", id="some-model"),
            runner=RunnerConfig(tool_choice="required", model_profile="functiongemma"),
        )


def test_llama_with_required_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        RemoraConfig(
            model=ModelConfig(provider="openai", id="llama-3.1-70b"),
            runner=RunnerConfig(tool_choice="required"),
        )


def test_unknown_profile_in_config_is_a_validation_error() -> None:
    with pytest.raises(ValidationError, match="unknown model profile"):
        RemoraConfig(runner=RunnerConfig(model_profile="nope"))
