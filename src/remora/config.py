"""RemoraConfig: defaults < remora.yaml < REMORA_* environment < command-line flags.

Every resolved leaf remembers where it came from, so ``remora config`` can say
why a value is what it is. Unknown keys are errors with a suggestion.
"""

from __future__ import annotations

import difflib
import os
import typing
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from remora.errors import (
    ConfigNotFoundError,
    ConfigValueError,
    ConfigYamlError,
    RemoraError,
    UnknownConfigKeyError,
)
from remora.profiles import resolve_profile

__all__ = [
    "CONFIG_FILENAME",
    "AssistantConfig",
    "DiscoveryConfig",
    "EventsConfig",
    "LoadedConfig",
    "LspConfig",
    "ModelConfig",
    "OperationConfig",
    "RemoraConfig",
    "RetryConfig",
    "RunnerConfig",
    "SandboxConfig",
    "TurnPolicyConfig",
    "WatchConfig",
    "load_config",
]

CONFIG_FILENAME = "remora.yaml"
ENV_PREFIX = "REMORA_"
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


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class RetryConfig(_Section):
    max_attempts: int = Field(3, ge=1, description="Attempts on connection errors and timeouts")
    backoff_s: float = Field(0.5, ge=0, description="First backoff; doubles each attempt")


class ModelConfig(_Section):
    provider: Literal["embedded", "openai", "llm", "gemini", "scripted"] = "embedded"
    id: str = Field(
        DEFAULT_EMBEDDED_MODEL,
        description="Model id as the provider names it (embedded: a name from `remora models`)",
    )
    path: Path | None = Field(None, description="A GGUF file for the embedded provider")
    base_url: str | None = None
    api_key_env: str | None = Field(None, description="Environment variable holding the key")
    timeout: float = Field(60.0, gt=0, description="Seconds per model request")
    retry: RetryConfig = Field(default_factory=RetryConfig)
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


# Test code: tests are not documented, tested or given sample data unless an
# operation's own `exclude:` says otherwise (`exclude: []` runs them on tests too).
SKIPS_TEST_CODE: tuple[str, ...] = ("docstring", "test", "sample_data")
TEST_CODE_PATTERNS: tuple[str, ...] = (
    "tests/*",
    "*/tests/*",
    "test_*.py",
    "*_test.py",
    "conftest.py",
)


class OperationConfig(_Section):
    enabled: bool = True
    model: dict[str, Any] | None = Field(None, description="Overrides of the model section")
    options: dict[str, Any] = Field(default_factory=dict)
    # File patterns (fnmatch on the project-relative path, `*` crosses `/`; a
    # pattern without `/` also matches the file name alone). An empty include
    # means every file.
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
        "test": OperationConfig(options={"max_tests": 6, "time_budget_s": 60}),
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
    def _test_code_excluded_by_default(self) -> RemoraConfig:
        for name in SKIPS_TEST_CODE:
            op = self.operations.get(name)
            if op is not None and "exclude" not in op.model_fields_set:
                op.exclude = list(TEST_CODE_PATTERNS)
        return self

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


@dataclass
class LoadedConfig:
    """The resolved config plus where every leaf value came from."""

    config: RemoraConfig
    sources: dict[str, str] = field(default_factory=dict)
    file: Path | None = None
    project_root: Path = field(default_factory=Path.cwd)

    def source_of(self, dotted: str) -> str:
        while dotted:
            if dotted in self.sources:
                return self.sources[dotted]
            dotted = dotted.rpartition(".")[0]
        return "default"


# ---------------------------------------------------------------- loading


def _yaml_lines(text: str) -> dict[str, int]:
    """dotted key -> 1-based line of that key in the YAML text."""
    lines: dict[str, int] = {}

    def walk(node: yaml.Node, prefix: str) -> None:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                dotted = f"{prefix}{key_node.value}"
                lines[dotted] = key_node.start_mark.line + 1
                walk(value_node, dotted + ".")

    root = yaml.compose(text)
    if root is not None:
        walk(root, "")
    return lines


def _read_yaml(path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigNotFoundError(
            f"cannot read config {path}: {exc.strerror}", "check the path"
        ) from exc
    except UnicodeDecodeError as exc:
        raise ConfigYamlError(
            f"{path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start})",
            "save the file as UTF-8",
        ) from None
    try:
        data = yaml.safe_load(text)
        lines = _yaml_lines(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise ConfigYamlError(
            f"invalid YAML at {where}: {exc.problem or exc}",
            "fix the YAML syntax at that line and column",
        ) from exc
    if data is None:
        return {}, lines
    if not isinstance(data, dict):
        raise ConfigYamlError(
            f"{path}: the top level must be a mapping of sections, got {type(data).__name__}",
            "start the file with section names such as 'model:' or 'runner:'",
        )
    return data, lines


def _env_overrides(environ: Mapping[str, str]) -> dict[str, Any]:
    """REMORA_RUNNER__MAX_TURNS=3 -> {"runner": {"max_turns": 3}} (values parsed as YAML)."""
    result: dict[str, Any] = {}
    for name, raw in environ.items():
        if not name.startswith(ENV_PREFIX):
            continue
        keys = name[len(ENV_PREFIX) :].lower().split("__")
        # REMORA_DEBUG and friends steer the CLI; a nested name is always config,
        # so a typo in it is reported rather than ignored.
        if len(keys) == 1 and keys[0] not in RemoraConfig.model_fields:
            continue
        try:
            value = yaml.safe_load(raw) if raw.strip() else raw
        except yaml.YAMLError:
            value = raw
        target = result
        for key in keys[:-1]:
            target = target.setdefault(key, {})
        target[keys[-1]] = value
    return result


def _merge(
    base: dict[str, Any],
    top: Mapping[str, Any],
    origin: str,
    sources: dict[str, str],
    prefix: str = "",
) -> None:
    for key, value in top.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], value, origin, sources, dotted + ".")
        elif isinstance(value, Mapping):
            base[key] = {}
            _merge(base[key], value, origin, sources, dotted + ".")
        else:
            base[key] = value
            sources[dotted] = origin


def _known_keys(loc: tuple[int | str, ...]) -> list[str]:
    """Field names that are valid where ``loc`` points, for suggestions."""
    annotation: Any = RemoraConfig
    for part in loc[:-1]:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            info = annotation.model_fields.get(str(part))
            annotation = info.annotation if info is not None else None
        elif typing.get_origin(annotation) is dict:
            annotation = typing.get_args(annotation)[1]  # a key of a dict-valued section
        else:
            return []
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return list(annotation.model_fields)
    return []


def _validation_error(
    exc: ValidationError, sources: dict[str, str], lines: dict[str, int], file: Path | None
) -> RemoraError:
    first = exc.errors()[0]
    loc = tuple(first["loc"])
    dotted = ".".join(str(p) for p in loc)
    origin = sources.get(dotted, "default")
    if origin.startswith("file") and file is not None and dotted in lines:
        origin = f"{file}:{lines[dotted]}"
    if first["type"] == "extra_forbidden":
        known = _known_keys(loc)
        close = difflib.get_close_matches(str(loc[-1]), known, n=1)
        hint = f"did you mean '{close[0]}'?" if close else f"known keys: {', '.join(known)}"
        return UnknownConfigKeyError(f"unknown config key '{dotted}' ({origin})", hint)
    more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
    return ConfigValueError(
        f"invalid value for '{dotted}' ({origin}): {first['msg']}{more}",
        "fix that field; `remora config` prints every value and where it came from",
    )


def find_config_file(project_root: Path) -> Path | None:
    candidate = project_root / CONFIG_FILENAME
    return candidate if candidate.is_file() else None


def load_config(
    config_path: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    *,
    project_root: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> LoadedConfig:
    """Resolve the configuration. ``overrides`` are the command-line flags."""
    root = (project_root or Path.cwd()).resolve()
    env = os.environ if environ is None else environ
    if config_path is None and env.get("REMORA_CONFIG"):
        config_path = Path(env["REMORA_CONFIG"])
    if config_path is not None and not config_path.is_file():
        raise ConfigNotFoundError(f"config file {config_path} does not exist", "check --config")
    file = config_path or find_config_file(root)
    merged: dict[str, Any] = {}
    sources: dict[str, str] = {}
    lines: dict[str, int] = {}
    if file is not None:
        data, lines = _read_yaml(file)
        _merge(merged, data, f"file {file}", sources)
    _merge(merged, _env_overrides(env), "env", sources)
    for dotted in [k for k, v in sources.items() if v == "env"]:
        sources[dotted] = f"env {ENV_PREFIX}{dotted.upper().replace('.', '__')}"
    if overrides:
        _merge(merged, overrides, "flag", sources)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            config = RemoraConfig.model_validate(merged)
    except ValidationError as exc:
        raise _validation_error(exc, sources, lines, file) from exc
    for warning in caught:
        warnings.warn(warning.message, UserWarning, stacklevel=2)
    return LoadedConfig(config=config, sources=sources, file=file, project_root=root)
