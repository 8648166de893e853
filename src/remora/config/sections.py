"""The configuration's sections and their defaults: ``RemoraConfig`` and one model per section.

Strict: an unknown key is an error (loading.py turns it into one with a suggestion).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from remora.config.model import ModelConfig
from remora.config.model import Section as _Section
from remora.profiles import resolve_profile

__all__ = [
    "AssistantConfig",
    "DiscoveryConfig",
    "EventsConfig",
    "LspConfig",
    "OperationConfig",
    "RemoraConfig",
    "RunnerConfig",
    "SandboxConfig",
    "SandboxLimitOverrides",
    "TurnPolicyConfig",
    "WatchConfig",
]


class DiscoveryConfig(_Section):
    language: Literal["python"] = "python"
    query_pack: str = "remora_core"
    query_dir: Path | None = Field(default=None, description="Extra query packs, searched first")
    ignore: list[str] = Field(default_factory=list, description="Extra gitignore-style patterns")
    use_gitignore: bool = True
    workers: int | None = Field(
        default=None, ge=1, description="Parse processes; default: CPU count"
    )


class OperationConfig(_Section):
    enabled: bool = True
    model: dict[str, Any] | None = Field(default=None, description="Overrides of the model section")
    # The docstring operation's words are where a bigger model pays: on 20 projects of the
    # review benchmark, each labelled for both models at one commit, a maintainer merged
    # 33% of the 1.5B's docstrings as written against 22% of the 0.5B's, with fewer false
    # (18% against 21%) and more of them (docs/competence.md).
    embedded_model: str | None = Field(
        default=None,
        description="Embedded: the model this operation uses where the model section keeps "
        "the default model (a name from `remora models`)",
    )
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


def default_operations() -> dict[str, OperationConfig]:
    """The bundled operations; a configuration's ``operations:`` changes the ones it names."""
    return {
        "lint": OperationConfig(),
        # Opt-in (`-o docstring` or `operations.docstring.enabled: true`): on the held-out
        # projects of the review benchmark a maintainer merged about one docstring in
        # seven as written, and one in five said something false (docs/competence.md).
        "docstring": OperationConfig(
            enabled=False, embedded_model="qwen2.5-coder-1.5b", options={"style": "google"}
        ),
        "test": OperationConfig(options={"max_tests": 6, "time_budget_s": 60}),
        "sample_data": OperationConfig(),
    }


class TurnPolicyConfig(_Section):
    no_submit_before_tools: bool = True
    repeat_guard: bool = True
    final_turn_submit_only: bool = True
    # Retries in a row (per agent and model, one command) that only repeated the
    # refused call, after which that agent's refusals end its runs; 0: always retry.
    max_repeated_retries: int = Field(default=3, ge=0)


class RunnerConfig(_Section):
    max_turns: int = Field(default=8, ge=1)
    max_tokens: int = Field(default=512, ge=1)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    tool_choice: str = "auto"
    model_profile: str | None = None
    per_turn_timeout: float = Field(default=60.0, gt=0)
    total_timeout: float = Field(default=300.0, gt=0)
    invalid_response_retries: int = Field(default=1, ge=0)
    policy: TurnPolicyConfig = Field(default_factory=TurnPolicyConfig)

    @field_validator("tool_choice")
    @classmethod
    def _tool_choice_known(cls, value: str) -> str:
        allowed = ("auto", "none", "required")
        if value not in allowed:
            raise ValueError(f"tool_choice must be one of {', '.join(allowed)}, got {value!r}")
        return value


class SandboxLimitOverrides(_Section):
    max_duration_s: float | None = Field(default=None, gt=0)
    max_memory_mb: int | None = Field(default=None, gt=0)
    max_recursion_depth: int | None = Field(default=None, gt=0)
    max_suspensions: int | None = Field(default=None, gt=0)


class SandboxConfig(_Section):
    limits: Literal["strict", "default", "permissive"] = "default"
    overrides: SandboxLimitOverrides = Field(default_factory=SandboxLimitOverrides)
    max_concurrent_agents: int | None = Field(
        default=None,
        ge=1,
        description="Agent runs talking to the model at once (-j; a few more do host work "
        "beside them); default: 1.5 × openai servers' max_in_flight, else 4",
    )
    # remora analyze with server models: the host work (tools, parses, ruff, records) of
    # one process saturates one core at ~25 runs/s; N processes, each on a shard of the
    # files, take N cores (coordinator/shards.py; docs/performance.md, "Host processes").
    # auto by default: on 2 cores, click at 200 ms and -j 64, 8.8-9.4 requests in flight
    # instead of 4.75-5.7, the same CPU per run, +180 MB of RSS; only openai models, and
    # only from 300 runs (an embedded or small run stays in one process, as before).
    host_processes: int | Literal["auto"] = Field(
        default="auto",
        description="analyze: processes sharing the nodes, file by file (openai models only); "
        "auto: one per CPU, up to 8, from 150 runs each (else one); 1: one process",
    )
    workers: int | None = Field(
        default=None,
        ge=1,
        description="Monty worker processes at most, started as needed; default: one per agent "
        "run at once (-j and the runs beside), since a tool script holds its worker while the "
        "host works for it",
    )
    request_timeout: float = Field(
        default=30.0, gt=0, description="Seconds before a worker is killed"
    )
    commands: list[list[str]] = Field(
        default_factory=lambda: [["ruff"], ["python", "-m", "pytest"]],
        description="Allowed command prefixes for run_command",
    )
    command_timeout: float = Field(default=60.0, gt=0)
    allow_unsandboxed_commands: bool = Field(
        default=False,
        description="Run commands without the bubblewrap sandbox when none can be created "
        "(unsafe: a command such as pytest then runs the project's code as you)",
    )

    @field_validator("host_processes")
    @classmethod
    def _host_processes_positive(cls, value: int | str) -> int | str:
        if isinstance(value, int) and value < 1:
            raise ValueError(f"host_processes must be 1 or more, or auto; got {value}")
        return value


class EventsConfig(_Section):
    enabled: bool = False
    output: str = Field(default=".remora/events.jsonl", description="A file path, or - for stdout")
    max_payload_chars: int = Field(default=2000, ge=10)


class WatchConfig(_Section):
    debounce_ms: int = Field(default=500, ge=0)
    ignore: list[str] = Field(default_factory=list)


class LspConfig(_Section):
    """`remora lsp`: operations re-run on the changed nodes of a saved file (none by default)."""

    run_on_save: list[str] = Field(default_factory=list)


class AssistantConfig(_Section):
    """The live-Python assistant: its own limits, not the code agents'."""

    max_steps: int = Field(default=6, ge=1, description="Model steps per question")
    # For the default model (Qwen2.5-Coder-0.5B: a step with the facts is 3-5 s on 2 cores).
    step_timeout: float = Field(default=15.0, gt=0, description="Seconds per model step")
    total_timeout: float = Field(default=45.0, gt=0, description="Seconds per question")
    invalid_response_retries: int = Field(default=1, ge=0)
    history_file: Path | None = Field(
        default=None, description="REPL history; default .remora/repl_history"
    )


class RemoraConfig(_Section):
    model: ModelConfig = Field(default_factory=ModelConfig)
    discovery: DiscoveryConfig = Field(default_factory=DiscoveryConfig)
    agents_dir: Path | None = None
    operations: dict[str, OperationConfig] = Field(default_factory=default_operations)
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
        user's per-operation choice wins over the agent author's default. Where none of
        them names a model and the embedded provider would load the default one, the
        operation's ``embedded_model`` is loaded instead.
        """
        op = self.operations.get(operation or "")
        op_model = op.model if op is not None else None
        chosen = {**(agent_model or {}), **(op_model or {})}
        named = {"id", "path"} & (set(self.model.model_fields_set) | set(chosen))
        embedded = chosen.get("provider", self.model.provider) == "embedded"
        if op is not None and op.embedded_model is not None and embedded and not named:
            chosen["id"] = op.embedded_model
        if not chosen:
            return self.model
        return ModelConfig.model_validate({**self.model.model_dump(), **chosen})
