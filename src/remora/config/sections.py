"""The configuration's sections and their defaults: ``RemoraConfig`` and one model per section.

Strict: an unknown key is an error (loading.py turns it into one with a suggestion).
"""

from __future__ import annotations

import typing
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from remora.profiles import resolve_profile

__all__ = [
    "DEFAULT_EMBEDDED_MODEL",
    "DEFAULT_PROMPT_CACHE_MIB",
    "PROVIDER_NAMES",
    "AssistantConfig",
    "DiscoveryConfig",
    "EventsConfig",
    "LspConfig",
    "ModelConfig",
    "OperationConfig",
    "ProviderName",
    "RemoraConfig",
    "RequestRetryConfig",
    "RunnerConfig",
    "SandboxConfig",
    "SandboxLimitOverrides",
    "TurnPolicyConfig",
    "WatchConfig",
]

# The catalogue's default (providers/catalogue.py DEFAULT_MODEL; a test keeps them equal).
DEFAULT_EMBEDDED_MODEL = "qwen2.5-coder-0.5b"
# Host RAM (MiB) where llama.cpp keeps the states of slots given to another
# request (its own default, 8 GiB, would let a long run grow far past our memory
# budget). A state costs ~23 KB per token with SmolLM2-135M (f16 KV), so a
# 700-token conversation takes ~16 MB. `remora analyze` keeps four agents with
# different system prompts in flight, so the cache must hold a state of each plus
# the conversations waiting for their next turn, or a request reads its whole
# prompt again (`benchmarks/prompt_cache.py`: 0 MiB keeps 1% of prompt tokens, 128
# MiB 50% of first turns' and 86% of second turns'). On the sample project one
# slot with 64 MiB kept 56% of all prompt tokens, with 128 MiB 64-65%.
DEFAULT_PROMPT_CACHE_MIB = 128


# The providers a model section may name; providers/factory.py maps each to its
# adapter, and mypy checks that mapping covers exactly these.
ProviderName = Literal["embedded", "openai", "llm", "gemini", "scripted"]
PROVIDER_NAMES: tuple[ProviderName, ...] = typing.get_args(ProviderName)


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class RequestRetryConfig(_Section):
    """`model.retry`: a model request sent again after a connection error or a timeout."""

    max_attempts: int = Field(3, ge=1, description="Attempts on connection errors and timeouts")
    backoff_s: float = Field(0.5, ge=0, description="First backoff; doubles each attempt")


class ModelConfig(_Section):
    provider: ProviderName = "embedded"
    id: str = Field(
        DEFAULT_EMBEDDED_MODEL,
        description="Model id as the provider names it (embedded: a name from `remora models`)",
    )
    path: Path | None = Field(None, description="A GGUF file for the embedded provider")
    base_url: str | None = None
    api_key_env: str | None = Field(None, description="Environment variable holding the key")
    timeout: float = Field(60.0, gt=0, description="Seconds per model request")
    retry: RequestRetryConfig = Field(default_factory=RequestRetryConfig)
    profile: str | None = Field(None, description="Model profile; default: from the model id")
    # One slot: the engine reads one prompt at a time at full speed, the other agents
    # wait in the queue (not counted against them) or run their tools, and the KV
    # cache is half of two slots' (~95 MB less). `benchmarks/analyze.py` on the
    # sample project, with the 128 MiB prompt cache: 1 slot 180-204 s, peak RSS 530
    # MB; 2 slots 214-215 s, 640 MB (64 MiB cache).
    n_parallel: int = Field(1, ge=1, le=256, description="Embedded: parallel slots")
    n_ctx_per_slot: int = Field(
        4096, ge=256, le=1_048_576, description="Embedded: context per slot"
    )
    threads: int | None = Field(None, ge=1, le=1024, description="Embedded: CPU threads")
    # f16 reads prompts ~1.7x faster than q8_0 on AVX2 (SmolLM2-135M, one thread:
    # 110 -> 190 tokens/s) for ~23 KB instead of ~12 KB per token of context.
    kv_cache: Literal["f16", "q8_0"] = Field(
        "f16", description="Embedded: KV cache type (q8_0 halves its memory, reads slower)"
    )
    prompt_cache_mib: int = Field(
        DEFAULT_PROMPT_CACHE_MIB,
        ge=0,
        le=1_048_576,
        description="Embedded: RAM (MiB) per engine keeping prompt states between requests",
    )
    engines: int = Field(
        1,
        ge=1,
        le=16,
        description="Embedded: model copies sharing the slots, each with its own threads",
    )


class DiscoveryConfig(_Section):
    language: Literal["python"] = "python"
    query_pack: str = "remora_core"
    query_dir: Path | None = Field(None, description="Extra query packs, searched first")
    ignore: list[str] = Field(default_factory=list, description="Extra gitignore-style patterns")
    use_gitignore: bool = True
    workers: int | None = Field(None, ge=1, description="Parse processes; default: CPU count")


class OperationConfig(_Section):
    enabled: bool = True
    model: dict[str, Any] | None = Field(None, description="Overrides of the model section")
    options: dict[str, Any] = Field(default_factory=dict)
    # File patterns (fnmatch on the project-relative path, `*` crosses `/`; a
    # pattern without `/` also matches the file name alone). An empty include
    # means every file. Unset, exclude is the agent's: test code for an agent
    # with `test_code: skip` (coordinator/tasks.py).
    include: list[str] = Field(default_factory=list, description="Only files matching these")
    exclude: list[str] = Field(default_factory=list, description="Never files matching these")

    @field_validator("model")
    @classmethod
    def _model_keys_known(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None:
            ModelConfig.model_validate(value)
        return value


def _default_operations() -> dict[str, OperationConfig]:
    return {
        "lint": OperationConfig(),
        "docstring": OperationConfig(options={"style": "google"}),
        "test": OperationConfig(),
        "sample_data": OperationConfig(),
    }


class TurnPolicyConfig(_Section):
    no_submit_before_tools: bool = True
    repeat_guard: bool = True
    final_turn_submit_only: bool = True
    # Retries in a row (per agent and model, one command) that only repeated the
    # refused call, after which that agent's refusals end its runs; 0: always retry.
    max_repeated_retries: int = Field(3, ge=0)


class RunnerConfig(_Section):
    max_turns: int = Field(8, ge=1)
    max_tokens: int = Field(512, ge=1)
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    tool_choice: str = "auto"
    model_profile: str | None = None
    per_turn_timeout: float = Field(60.0, gt=0)
    total_timeout: float = Field(300.0, gt=0)
    invalid_response_retries: int = Field(1, ge=0)
    policy: TurnPolicyConfig = Field(default_factory=TurnPolicyConfig)

    @field_validator("tool_choice")
    @classmethod
    def _tool_choice_known(cls, value: str) -> str:
        allowed = ("auto", "none", "required")
        if value not in allowed:
            raise ValueError(f"tool_choice must be one of {', '.join(allowed)}, got {value!r}")
        return value


class SandboxLimitOverrides(_Section):
    max_duration_s: float | None = Field(None, gt=0)
    max_memory_mb: int | None = Field(None, gt=0)
    max_recursion_depth: int | None = Field(None, gt=0)
    max_suspensions: int | None = Field(None, gt=0)


class SandboxConfig(_Section):
    limits: Literal["strict", "default", "permissive"] = "default"
    overrides: SandboxLimitOverrides = Field(default_factory=SandboxLimitOverrides)
    max_concurrent_agents: int = Field(4, ge=1)
    workers: int = Field(2, ge=1, description="Monty worker processes in the pool")
    request_timeout: float = Field(30.0, gt=0, description="Seconds before a worker is killed")
    commands: list[list[str]] = Field(
        default_factory=lambda: [["ruff"], ["python", "-m", "pytest"]],
        description="Allowed command prefixes for run_command",
    )
    command_timeout: float = Field(60.0, gt=0)
    allow_unsandboxed_commands: bool = Field(
        False,
        description="Run commands without the bubblewrap sandbox when none can be created "
        "(unsafe: a command such as pytest then runs the project's code as you)",
    )


class EventsConfig(_Section):
    enabled: bool = False
    output: str = Field(".remora/events.jsonl", description="A file path, or - for stdout")
    max_payload_chars: int = Field(2000, ge=10)


class WatchConfig(_Section):
    debounce_ms: int = Field(500, ge=0)
    ignore: list[str] = Field(default_factory=list)


class LspConfig(_Section):
    """`remora lsp`: operations re-run on the changed nodes of a saved file (none by default)."""

    run_on_save: list[str] = Field(default_factory=list)


class AssistantConfig(_Section):
    """The live-Python assistant: its own limits, not the code agents'."""

    max_steps: int = Field(6, ge=1, description="Model steps per question")
    # For the default model (Qwen2.5-Coder-0.5B: a step with the facts is 3-5 s on 2 cores).
    step_timeout: float = Field(15.0, gt=0, description="Seconds per model step")
    total_timeout: float = Field(45.0, gt=0, description="Seconds per question")
    invalid_response_retries: int = Field(1, ge=0)
    history_file: Path | None = Field(
        None, description="REPL history; default .remora/repl_history"
    )


class RemoraConfig(_Section):
    model: ModelConfig = Field(default_factory=ModelConfig)
    discovery: DiscoveryConfig = Field(default_factory=DiscoveryConfig)
    agents_dir: Path | None = None
    operations: dict[str, OperationConfig] = Field(default_factory=_default_operations)
    runner: RunnerConfig = Field(default_factory=RunnerConfig)
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig)
    events: EventsConfig = Field(default_factory=EventsConfig)
    watch: WatchConfig = Field(default_factory=WatchConfig)
    lsp: LspConfig = Field(default_factory=LspConfig)
    assistant: AssistantConfig = Field(default_factory=AssistantConfig)

    @model_validator(mode="after")
    def _profile_supports_tool_choice(self) -> RemoraConfig:
        profile_name = self.runner.model_profile or self.model.profile
        try:
            profile = resolve_profile(profile_name, self.model.id)
        except ValueError as exc:
            raise ValueError(str(exc)) from None
        if self.runner.tool_choice not in profile.supported_tool_choice:
            supported = ", ".join(sorted(profile.supported_tool_choice))
            warnings.warn(
                f"tool_choice={self.runner.tool_choice!r} is not supported by model profile "
                f"{profile.name!r} (supported: {supported}); the runner falls back to 'auto'",
                UserWarning,
                stacklevel=2,
            )
        return self

    def model_for(
        self, operation: str | None, agent_model: Mapping[str, Any] | None = None
    ) -> ModelConfig:
        """The model a run uses: this ``model:`` < the agent's ``model:`` < the operation's.

        ``agent_model`` is the agent definition's own ``model:`` overrides. The
        user's per-operation choice wins over the agent author's default.
        """
        op = self.operations.get(operation or "")
        op_model = op.model if op is not None else None
        if not agent_model and not op_model:
            return self.model
        return ModelConfig.model_validate(
            {**self.model.model_dump(), **(agent_model or {}), **(op_model or {})}
        )
