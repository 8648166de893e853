"""Operation options bound to tool inputs: set by the host, never chosen by the model.

An operation's options (``operations.docstring.options.style: numpy``) fill the
tool inputs of the same name. Such a property is removed from the schema the
model sees, so a tiny model cannot pick the wrong style, and the value is added
to the arguments before the script runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from remora.agents.definition import SubagentDefinition, ToolDefinition
from remora.errors import ConfigValueError
from remora.runner import ToolExecutor, WorkspaceReporter

__all__ = ["OptionBoundExecutor", "bind_options"]


def _without(schema: dict[str, Any], names: set[str]) -> dict[str, Any]:
    properties = {k: v for k, v in (schema.get("properties") or {}).items() if k not in names}
    required = [r for r in schema.get("required") or [] if r not in names]
    out = {**schema, "properties": properties}
    if required:
        out["required"] = required
    else:
        out.pop("required", None)
    return out


def _check_option(operation: str, tool: str, name: str, value: Any, schema: dict[str, Any]) -> None:
    """A bound option must be what the tool's input takes: said once, naming the key,
    instead of a failed run per node."""
    error = next(iter(Draft202012Validator(schema).iter_errors(value)), None)
    if error is not None:
        raise ConfigValueError(
            f"operations.{operation}.options.{name}: {error.message}",
            f"it fills the input {name!r} of the tool {tool}; fix the value in remora.yaml",
        )


def bind_options(
    definition: SubagentDefinition, options: Mapping[str, Any]
) -> tuple[SubagentDefinition, dict[str, dict[str, Any]]]:
    """The definition as the model sees it, and the fixed inputs per tool name."""
    fixed: dict[str, dict[str, Any]] = {}
    tools: list[ToolDefinition] = []
    for tool in definition.tools:
        properties = (tool.parameters or {}).get("properties") or {}
        bound = {name: options[name] for name in properties if name in options}
        for name, value in bound.items():
            _check_option(definition.name, tool.name, name, value, properties[name])
        if not bound or tool.parameters is None:
            tools.append(tool)
            continue
        fixed[tool.name] = bound
        tools.append(tool.model_copy(update={"parameters": _without(tool.parameters, set(bound))}))
    if not fixed:
        return definition, {}
    copy = definition.model_copy(update={"tools": tools})
    # cached_property values of the original describe the unbound tools.
    copy.__dict__.pop("tools_by_name", None)
    copy.__dict__.pop("tool_specs", None)
    if definition.source is not None:
        copy = copy.with_source(definition.source)
    return copy, fixed


class OptionBoundExecutor:
    """Adds the bound option values to a tool's arguments, then delegates."""

    def __init__(self, inner: ToolExecutor, fixed: Mapping[str, Mapping[str, Any]]) -> None:
        self.inner = inner
        self.fixed = {name: dict(values) for name, values in fixed.items()}

    @property
    def workspace_id(self) -> str | None:
        return self.inner.workspace_id if isinstance(self.inner, WorkspaceReporter) else None

    async def changed_files(self) -> list[str]:
        if isinstance(self.inner, WorkspaceReporter):
            return await self.inner.changed_files()
        return []

    async def call(self, tool: ToolDefinition, arguments: dict[str, Any]) -> dict[str, Any]:
        bound = self.fixed.get(tool.name)
        return await self.inner.call(tool, {**arguments, **bound} if bound else arguments)

    async def context(self, provider_script: Path) -> str:
        return await self.inner.context(provider_script)
