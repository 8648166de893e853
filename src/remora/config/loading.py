"""Loading the configuration: defaults < remora.yaml < REMORA_* environment < command-line flags.

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
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from remora.config.sections import RemoraConfig, default_operations
from remora.errors import (
    ConfigNotFoundError,
    ConfigValueError,
    ConfigYamlError,
    RemoraError,
    UnknownConfigKeyError,
)

__all__ = ["CONFIG_FILENAME", "ENV_PREFIX", "LoadedConfig", "find_config_file", "load_config"]

CONFIG_FILENAME = "remora.yaml"
ENV_PREFIX = "REMORA_"


@dataclass
class LoadedConfig:
    """The resolved config plus where every leaf value came from."""

    config: RemoraConfig
    sources: dict[str, str] = field(default_factory=dict)
    file: Path | None = None
    project_root: Path = field(default_factory=Path.cwd)
    # dotted key -> its line in ``file``
    lines: dict[str, int] = field(default_factory=dict)

    def source_of(self, dotted: str) -> str:
        while dotted:
            if dotted in self.sources:
                return self.sources[dotted]
            dotted = dotted.rpartition(".")[0]
        return "default"

    def origin_of(self, dotted: str) -> str:
        """Where a key was set, for an error: ``remora.yaml:4``, an env variable, ``default``."""
        return _origin(dotted, self.sources, self.lines, self.file)


def _origin(dotted: str, sources: dict[str, str], lines: dict[str, int], file: Path | None) -> str:
    origin = sources.get(dotted, "default")
    if origin.startswith("file") and file is not None and dotted in lines:
        origin = f"{file}:{lines[dotted]}"
    return origin


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
    origin = _origin(dotted, sources, lines, file)
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
    # The bundled operations are the first layer: `operations: {docstring: {enabled: true}}`
    # turns docstring on and leaves lint, test and sample_data as they were.
    merged: dict[str, Any] = {
        "operations": {
            name: op.model_dump(exclude_unset=True) for name, op in default_operations().items()
        }
    }
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
    return LoadedConfig(config=config, sources=sources, file=file, project_root=root, lines=lines)
