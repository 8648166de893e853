"""The ``model:`` section of remora.yaml and the base of every section (remora.config)."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from remora.config.provider_plugins import PROVIDER_ENTRY_POINT_GROUP, provider_entry_points

__all__ = [
    "DEFAULT_EMBEDDED_MODEL",
    "DEFAULT_PROMPT_CACHE_MIB",
    "PROVIDER_NAMES",
    "ModelConfig",
    "ProviderName",
    "RequestRetryConfig",
    "Section",
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


class Section(BaseModel):
    """A section of the configuration: unknown keys are errors, assignments validated.

    Defaults are written ``Field(default=...)``, by keyword: type checkers read a
    section's constructor from that (PEP 681), so ``remora.ModelConfig(...)`` in a
    user's script is checked without pydantic's mypy plugin
    (tests/unit/library/test_library_types.py).
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


# The built-in providers; providers/factory.py maps each to its adapter, and mypy checks
# that mapping covers exactly these. A model section may also name a plugin's provider
# (config/provider_plugins.py).
ProviderName = Literal["embedded", "openai", "llm", "gemini", "scripted"]
PROVIDER_NAMES: tuple[ProviderName, ...] = typing.get_args(ProviderName)


class RequestRetryConfig(Section):
    """`model.retry`: a model request sent again after a connection error or a timeout."""

    max_attempts: int = Field(
        default=3, ge=1, description="Attempts on connection errors and timeouts"
    )
    backoff_s: float = Field(default=0.5, ge=0, description="First backoff; doubles each attempt")


class ModelConfig(Section):
    provider: str = Field(
        default="embedded",
        description="A built-in provider (embedded, openai, llm, gemini, scripted) or a plugin's",
    )
    id: str = Field(
        default=DEFAULT_EMBEDDED_MODEL,
        description="Model id as the provider names it (embedded: a name from `remora models`)",
    )
    path: Path | None = Field(default=None, description="A GGUF file for the embedded provider")
    base_url: str | list[str] | None = Field(
        default=None, description="The server's URL; openai: a list spreads requests over servers"
    )
    api_key_env: str | None = Field(
        default=None, description="Environment variable holding the key"
    )
    timeout: float = Field(default=60.0, gt=0, description="Seconds per model request")
    retry: RequestRetryConfig = Field(default_factory=RequestRetryConfig)
    # vLLM batches far more than this; a llama.cpp server takes its -np slots and queues the rest.
    max_in_flight: int = Field(
        default=16,
        ge=1,
        le=4096,
        description="openai: requests at once per server (default -j: 1.5 × the sum)",
    )
    cooldown_s: float = Field(
        default=30.0,
        gt=0,
        description="openai: seconds a server that stopped answering is left out",
    )
    profile: str | None = Field(
        default=None, description="Model profile; default: from the model id"
    )
    # One slot: the engine reads one prompt at a time at full speed, the other agents
    # wait in the queue (not counted against them) or run their tools, and the KV
    # cache is half of two slots' (~95 MB less). `benchmarks/analyze.py` on the
    # sample project, with the 128 MiB prompt cache: 1 slot 180-204 s, peak RSS 530
    # MB; 2 slots 214-215 s, 640 MB (64 MiB cache).
    n_parallel: int = Field(default=1, ge=1, le=256, description="Embedded: parallel slots")
    n_ctx_per_slot: int = Field(
        default=4096, ge=256, le=1_048_576, description="Embedded: context per slot"
    )
    threads: int | None = Field(default=None, ge=1, le=1024, description="Embedded: CPU threads")
    # f16 reads prompts ~1.7x faster than q8_0 on AVX2 (SmolLM2-135M, one thread:
    # 110 -> 190 tokens/s) for ~23 KB instead of ~12 KB per token of context.
    kv_cache: Literal["f16", "q8_0"] = Field(
        default="f16", description="Embedded: KV cache type (q8_0 halves its memory, reads slower)"
    )
    prompt_cache_mib: int = Field(
        default=DEFAULT_PROMPT_CACHE_MIB,
        ge=0,
        le=1_048_576,
        description="Embedded: RAM (MiB) per engine keeping prompt states between requests",
    )
    engines: int = Field(
        default=1,
        ge=1,
        le=16,
        description="Embedded: model copies sharing the slots, each with its own threads",
    )

    @field_validator("provider")
    @classmethod
    def _provider_known(cls, value: str) -> str:
        if value in PROVIDER_NAMES:
            return value
        plugins = sorted(set(provider_entry_points()) - set(PROVIDER_NAMES))
        if value in plugins:
            return value
        installed = ", ".join(plugins) or "none"
        raise ValueError(
            f"unknown provider {value!r}: the built-in ones are {', '.join(PROVIDER_NAMES)}; "
            f"installed plugins (entry points {PROVIDER_ENTRY_POINT_GROUP!r}): {installed}"
        )

    @field_validator("base_url")
    @classmethod
    def _urls_are_urls(cls, value: str | list[str] | None) -> str | list[str] | None:
        urls = [value] if isinstance(value, str) else value or []
        if isinstance(value, list) and not value:
            raise ValueError("an empty list of servers; give at least one URL, or leave it out")
        for url in urls:
            parsed = urlsplit(url)
            if parsed.scheme not in ("http", "https") or not parsed.netloc:
                raise ValueError(f"{url!r} is not an http(s) URL such as http://host:8000/v1")
        if len(set(urls)) < len(urls):
            raise ValueError(f"a server is listed twice: {', '.join(urls)}")
        return value

    @model_validator(mode="after")
    def _server_list_for_openai(self) -> ModelConfig:
        if isinstance(self.base_url, list) and self.provider != "openai":
            raise ValueError(
                f"base_url: a list of servers is for provider openai, not {self.provider}"
            )
        return self

    def server_urls(self) -> list[str]:
        """``base_url`` as a list (empty when not set)."""
        return [self.base_url] if isinstance(self.base_url, str) else list(self.base_url or [])
