"""Options shared by several commands, declared once.

``@shared_options`` appends the shared parameters to a command's signature and
hands the command one :class:`SharedOptions` instead of fifteen arguments.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, ClassVar, TypeVar

import typer

from remora.config import LoadedConfig, load_config
from remora.errors import UsageError
from remora.project import find_project_root

__all__ = ["FormatOpt", "OutputFormat", "SharedOptions", "shared_options"]


class OutputFormat(StrEnum):
    table = "table"
    json = "json"


FormatOpt = Annotated[
    OutputFormat, typer.Option("--format", "-f", help="Output format.", case_sensitive=False)
]


@dataclass
class SharedOptions:
    config_path: Path | None = None
    project: Path | None = None
    provider: str | None = None
    model: str | None = None
    model_path: Path | None = None
    base_url: str | None = None
    model_profile: str | None = None
    max_turns: int | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    tool_choice: str | None = None
    max_concurrent_agents: int | None = None
    sandbox_limits: str | None = None
    agents_dir: Path | None = None
    query_pack: str | None = None
    events: bool | None = None
    events_file: str | None = None

    # dotted config key for each option that maps onto the config
    _TARGETS: ClassVar[dict[str, str]] = {
        "provider": "model.provider",
        "model": "model.id",
        "model_path": "model.path",
        "base_url": "model.base_url",
        "model_profile": "runner.model_profile",
        "max_turns": "runner.max_turns",
        "max_tokens": "runner.max_tokens",
        "temperature": "runner.temperature",
        "tool_choice": "runner.tool_choice",
        "max_concurrent_agents": "sandbox.max_concurrent_agents",
        "sandbox_limits": "sandbox.limits",
        "agents_dir": "agents_dir",
        "query_pack": "discovery.query_pack",
        "events": "events.enabled",
        "events_file": "events.output",
    }

    def to_overrides(self) -> dict[str, Any]:
        """The flags that were given, as a nested config mapping."""
        overrides: dict[str, Any] = {}
        for attr, dotted in self._TARGETS.items():
            value = getattr(self, attr)
            if value is None:
                continue
            if isinstance(value, Path):
                value = str(value)
            if attr == "base_url" and "," in value:  # several servers: --base-url URL,URL
                value = [url.strip() for url in value.split(",")]
            *parents, leaf = dotted.split(".")
            target = overrides
            for key in parents:
                target = target.setdefault(key, {})
            target[leaf] = value
        if self.events_file is not None and self.events is None:
            overrides.setdefault("events", {})["enabled"] = True
        return overrides

    def project_root(self, paths: list[Path] | None = None) -> Path:
        if self.project is not None:
            if not self.project.is_dir():
                what = "does not exist" if not self.project.exists() else "is not a directory"
                raise UsageError(
                    f"--project {self.project} {what}", "pass the project's root directory"
                )
            return self.project.resolve()
        return find_project_root(paths[0] if paths else Path.cwd())

    def load(self, paths: list[Path] | None = None) -> LoadedConfig:
        return load_config(
            self.config_path, self.to_overrides(), project_root=self.project_root(paths)
        )


def _opt(*names: str, help: str, **kw: Any) -> Any:
    return typer.Option(*names, help=help, rich_help_panel="Shared options", **kw)


_SHARED_PARAMS: dict[str, tuple[Any, Any]] = {
    "config_path": (Path | None, _opt("--config", "-c", help="Path to remora.yaml.")),
    "project": (Path | None, _opt("--project", help="Project root (default: detected).")),
    "provider": (str | None, _opt("--provider", help="embedded|openai|llm|gemini|scripted.")),
    "model": (
        str | None,
        _opt("--model", "-m", help="Model id (embedded: a name `remora models` lists)."),
    ),
    "model_path": (Path | None, _opt("--model-path", help="GGUF file for the embedded model.")),
    "base_url": (
        str | None,
        _opt("--base-url", help="Server URL for openai/gemini (openai: URL,URL,... for several)."),
    ),
    "model_profile": (str | None, _opt("--model-profile", help="Model profile name.")),
    "max_turns": (int | None, _opt("--max-turns", help="Turn limit per agent run.")),
    "max_tokens": (int | None, _opt("--max-tokens", help="Tokens per model turn.")),
    "temperature": (float | None, _opt("--temperature", help="Sampling temperature.")),
    "tool_choice": (str | None, _opt("--tool-choice", help="auto|none|required.")),
    "max_concurrent_agents": (
        int | None,
        _opt(
            "--max-concurrent-agents",
            "-j",
            help="Agent runs talking to the model at once; a few more do host work beside "
            "them (default: 1.5 × what the openai servers take, else 4).",
        ),
    ),
    "sandbox_limits": (str | None, _opt("--sandbox-limits", help="strict|default|permissive.")),
    "agents_dir": (Path | None, _opt("--agents-dir", help="Directory of user agents.")),
    "query_pack": (str | None, _opt("--query-pack", help="Discovery query pack.")),
    "events": (bool | None, _opt("--events/--no-events", help="Write the JSONL event log.")),
    "events_file": (str | None, _opt("--events-file", help="Event log path, or - for stdout.")),
}

assert set(_SHARED_PARAMS) == {f.name for f in fields(SharedOptions)}, "declare each option once"

F = TypeVar("F", bound=Callable[..., Any])


def shared_options(func: F) -> F:
    """Give ``func`` the shared options; it receives them as ``opts: SharedOptions``."""
    signature = inspect.signature(func)
    # Resolve string annotations (PEP 563) now: typer reads the wrapper's signature.
    hints = typing.get_type_hints(func, include_extras=True)
    own = [
        p.replace(annotation=hints.get(name, p.annotation))
        for name, p in signature.parameters.items()
        if name != "opts"
    ]
    extra = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=Annotated[annotation, default],
            default=None,
        )
        for name, (annotation, default) in _SHARED_PARAMS.items()
    ]

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        opts = SharedOptions(**{name: kwargs.pop(name, None) for name in _SHARED_PARAMS})
        return func(*args, opts=opts, **kwargs)

    wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[
            *(
                p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
                if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
                else p
                for p in own
            ),
            *extra,
        ]
    )
    return wrapper  # type: ignore[return-value]
