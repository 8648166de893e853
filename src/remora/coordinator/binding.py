"""Operation options bound to tool inputs: set by the host, never chosen by the model.

An operation's options (``operations.docstring.options.style: numpy``) fill the
tool inputs of the same name, and nothing else: no prompt mentions them. Such a
property is removed from the schema the model sees, so a tiny model cannot pick
the wrong style, and the value is added to the arguments before the script runs.
An input the agent declares an option (its ``options:``) is removed even when no
value is configured: the script's default holds, whatever the model would pick (the
1.5B turned the docstring agent's ``details`` on itself).

:func:`check_options` is the one check of the values, before any run starts: a
value the input does not take, or a key no tool of the agent takes, is one
configuration error naming the key, the value and what is allowed.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from remora.agents.definition import SubagentDefinition, ToolDefinition
from remora.errors import ConfigValueError, UnknownConfigKeyError
from remora.runner import ToolExecutor, WorkspaceReporter

__all__ = ["OptionBoundExecutor", "bind_options", "check_options", "describe_schema"]

_TYPE_WORDS = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}


def describe_schema(schema: Mapping[str, Any]) -> str:
    """What a JSON schema allows, in words: "an integer from 1 to 50", "one of a, b"."""
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(describe_schema(s) for s in schema["anyOf"])
    kind = schema.get("type")
    words = _TYPE_WORDS.get(kind, "any value") if isinstance(kind, str) else "any value"
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        words += f" from {low} to {high}"
    elif low is not None:
        words += f" of at least {low}"
    elif high is not None:
        words += f" of at most {high}"
    if "maxLength" in schema:
        words += f" of at most {schema['maxLength']} characters"
    if "maxItems" in schema:
        words += f" of at most {schema['maxItems']} items"
    return words


def _inputs(definition: SubagentDefinition) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Input name -> (tool name, its schema) for every tool of the agent that takes it."""
    inputs: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for tool in definition.tools:
        for name, schema in ((tool.parameters or {}).get("properties") or {}).items():
            inputs.setdefault(name, []).append((tool.name, schema))
    return inputs


def check_options(
    operation: str,
    definition: SubagentDefinition,
    options: Mapping[str, Any],
    *,
    origin: Callable[[str], str] | None = None,
) -> None:
    """Raise the first option whose value its tool input does not take, or no tool takes.

    ``origin`` says where a key was set (``remora.yaml:4``, ``default``). Without
    it only values are checked. A key set by Remora's defaults that this agent
    does not take (an ``agents_dir`` agent replacing a bundled one) is not the
    user's mistake and is left alone.
    """
    inputs = _inputs(definition)
    for name, value in options.items():
        dotted = f"operations.{operation}.options.{name}"
        where = origin(dotted) if origin is not None else None
        at = f" ({where})" if where else ""
        if name not in inputs:
            if where is None or where == "default":
                continue
            raise UnknownConfigKeyError(
                f"unknown config key '{dotted}'{at}",
                _unknown_hint(name, operation, definition, inputs),
            )
        for _tool, schema in inputs[name]:
            if next(iter(Draft202012Validator(schema).iter_errors(value)), None) is None:
                continue
            allowed = describe_schema(schema)
            tools = [t for t, _ in inputs[name]]
            which = f"tool {tools[0]}" if len(tools) == 1 else f"tools {', '.join(tools)}"
            raise ConfigValueError(
                # As YAML would write it ("many", true), not as Python would ('many', True).
                f"invalid value for '{dotted}'{at}: {json.dumps(value, default=str)}; "
                f"it takes {allowed}",
                f"the option fills the input {name!r} of the {which}; change the value",
            )


def _unknown_hint(
    name: str,
    operation: str,
    definition: SubagentDefinition,
    inputs: Mapping[str, list[tuple[str, dict[str, Any]]]],
) -> str:
    """What the agent takes instead of ``name``: its options first.

    An agent's options are the inputs of its host steps' tools: only the host
    calls those, so nothing but an option (or the step's own args) fills them.
    The inputs of the tools the model calls are its own words (a docstring's
    summary, a test's cases); binding one is possible but rarely meant.
    """
    stepped = {step.tool for step in definition.host_steps}
    offered = sorted(n for n, tools in inputs.items() if any(t in stepped for t, _ in tools))
    close = difflib.get_close_matches(name, offered, n=1) or difflib.get_close_matches(
        name, sorted(inputs), n=1
    )
    if offered:
        takes = f"the {operation} agent's options: {', '.join(offered)}"
    else:
        model_inputs = ", ".join(sorted(inputs)) or "none"
        takes = f"the {operation} agent has no options (its tools' inputs: {model_inputs})"
    return f"did you mean '{close[0]}'? ({takes})" if close else takes


def _without(schema: dict[str, Any], names: set[str]) -> dict[str, Any]:
    properties = {k: v for k, v in (schema.get("properties") or {}).items() if k not in names}
    required = [r for r in schema.get("required") or [] if r not in names]
    out = {**schema, "properties": properties}
    if required:
        out["required"] = required
    else:
        out.pop("required", None)
    return out


def bind_options(
    definition: SubagentDefinition, options: Mapping[str, Any]
) -> tuple[SubagentDefinition, dict[str, dict[str, Any]]]:
    """The definition as the model sees it, and the fixed inputs per tool name.

    Values are checked (:func:`check_options`) the same way for a caller that did
    not check them first.
    """
    check_options(definition.name, definition, options)
    fixed: dict[str, dict[str, Any]] = {}
    tools: list[ToolDefinition] = []
    hid = False
    for tool in definition.tools:
        properties = (tool.parameters or {}).get("properties") or {}
        bound = {name: options[name] for name in properties if name in options}
        # An option left unset is the script's default: hidden all the same.
        hidden = set(bound) | {name for name in properties if name in definition.options}
        if not hidden or tool.parameters is None:
            tools.append(tool)
            continue
        hid = True
        if bound:
            fixed[tool.name] = bound
        tools.append(tool.model_copy(update={"parameters": _without(tool.parameters, hidden)}))
    if not hid:
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
