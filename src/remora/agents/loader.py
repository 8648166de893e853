"""Load one agent YAML into a :class:`SubagentDefinition`, checking its scripts.

Every problem is reported as ``file:line: field: message`` (AGENT_001); all
problems of a file are collected, so fixing an agent takes one round.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from remora.agents.definition import SubagentDefinition, ToolDefinition
from remora.agents.schemas import (
    InputSpec,
    compare_with_inputs,
    derive_parameters,
    strict_schema,
)
from remora.errors import AgentDefinitionError

__all__ = ["AgentLoadError", "load_agent"]


class AgentLoadError(AgentDefinitionError):
    """An agent definition or one of its scripts is invalid (AGENT_001)."""

    def __init__(
        self, path: Path, problems: Sequence[str], findings: Sequence[dict[str, Any]] | None = None
    ) -> None:
        self.path = path
        self.problems = list(problems)
        # The same problems as data: file, line (or None), message.
        self.findings = (
            list(findings)
            if findings is not None
            else [{"file": str(path), "line": None, "message": p} for p in self.problems]
        )
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        super().__init__(
            f"{self.problems[0]}{more}",
            f"fix the agent definition; `remora agents check {path}` lists every problem",
        )

    def report(self) -> str:
        return "\n".join(self.problems)


class _Lines:
    """Field path (``tools[1].pym``) -> line in the YAML text, for messages."""

    def __init__(self, text: str) -> None:
        self._lines: dict[str, int] = {}
        try:
            root = yaml.compose(text)
        except yaml.YAMLError:
            root = None
        if root is not None:
            self._walk(root, "")

    def _walk(self, node: yaml.Node, prefix: str) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                path = f"{prefix}.{key.value}" if prefix else str(key.value)
                self._lines[path] = key.start_mark.line + 1
                self._walk(value, path)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                path = f"{prefix}[{index}]"
                self._lines[path] = item.start_mark.line + 1
                self._walk(item, path)

    def line(self, field: str) -> int | None:
        while field:
            if field in self._lines:
                return self._lines[field]
            cut = max(field.rfind("."), field.rfind("["))
            field = field[:cut] if cut > 0 else ""
        return None


def _field(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class _Problems:
    def __init__(self, path: Path, lines: _Lines) -> None:
        self.path = path
        self.lines = lines
        self.items: list[str] = []
        self.findings: list[dict[str, Any]] = []

    def add(self, message: str, field: str = "") -> None:
        """``message`` may start with its own field path ("tools[0].x: ...")."""
        if not field and ": " in message:
            field = message.split(": ", 1)[0]
        line = self.lines.line(field) if field else None
        where = f"{self.path}:{line}" if line else str(self.path)
        self.items.append(f"{where}: {message}")
        self.findings.append({"file": str(self.path), "line": line, "message": message})

    def error(self) -> AgentLoadError:
        return AgentLoadError(self.path, self.items, self.findings)


def load_agent(path: Path) -> SubagentDefinition:
    """Load and validate an agent YAML and every script it names.

    Script paths are relative to the YAML's directory. Tools without
    ``parameters`` get the schema derived from their script's inputs; given
    parameters must agree with those inputs. Raises :class:`AgentLoadError`.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise AgentLoadError(path, [f"{path}: cannot read: {exc.strerror}"]) from exc
    problems = _Problems(path, _Lines(text))
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark else None
        message = f"invalid YAML: {exc.problem or exc}"
        raise AgentLoadError(
            path,
            [f"{path}:{line}: {message}" if line else f"{path}: {message}"],
            [{"file": str(path), "line": line, "message": message}],
        ) from exc
    if not isinstance(data, dict):
        raise AgentLoadError(
            path, [f"{path}: the top level must be a mapping (name:, tools:, ...)"]
        )
    try:
        definition = SubagentDefinition.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors():
            field = _field(error["loc"])
            message = error["msg"].removeprefix("Value error, ")
            if not field and message.startswith(("host_steps[", "tools[")):
                problems.add(message)  # the agent-wide check names the step itself
            else:
                field = field or "(agent)"
                problems.add(f"{field}: {message}", field)
        raise problems.error() from exc
    tools = [
        _resolve_tool(tool, i, path.parent, problems) for i, tool in enumerate(definition.tools)
    ]
    _check_host_steps(definition, tools, problems)
    _check_options(definition, tools, problems)
    if problems.items:
        raise problems.error()
    resolved = definition.model_copy(update={"tools": tools})
    resolved.__dict__.pop("tools_by_name", None)  # drop caches built on the unresolved copy
    resolved.__dict__.pop("tool_specs", None)
    return resolved.with_source(path.resolve())


def _check_host_steps(
    definition: SubagentDefinition, tools: Sequence[ToolDefinition], problems: _Problems
) -> None:
    """Each host step's arguments must satisfy its tool's (resolved) schema."""
    from jsonschema import Draft202012Validator

    by_name = {tool.name: tool for tool in tools}
    for index, step in enumerate(definition.host_steps):
        tool = by_name[step.tool]  # names were checked by the model
        if tool.parameters is None:
            continue  # its script failed to load; that problem is already recorded
        validator = Draft202012Validator(tool.parameters)
        for error in sorted(validator.iter_errors(step.args), key=lambda e: list(e.path)):
            where = "".join(f".{p}" if isinstance(p, str) else f"[{p}]" for p in error.path)
            problems.add(
                f"host_steps[{index}].args{where}: {error.message} "
                f"(arguments of {step.tool} must match its parameters)",
                f"host_steps[{index}].args",
            )


def _check_options(
    definition: SubagentDefinition, tools: Sequence[ToolDefinition], problems: _Problems
) -> None:
    """Each name of ``options:`` must be an input of one of the agent's tools."""
    if any(tool.parameters is None for tool in tools):
        return  # a script failed to load; that problem is already recorded
    taken = {name for tool in tools for name in (tool.parameters or {}).get("properties") or {}}
    for index, name in enumerate(definition.options):
        if name not in taken:
            close = difflib.get_close_matches(name, sorted(taken), n=1)
            guess = f"; did you mean {close[0]!r}?" if close else ""
            problems.add(
                f"options[{index}]: no tool of the agent takes an input {name!r}{guess}",
                f"options[{index}]",
            )


def _script(path: Path, field: str, problems: _Problems) -> Any | None:
    """The loaded `.pym` script, or None after recording why it cannot be used."""
    if not path.is_file():
        problems.add(f"{field}: script not found: {path}")
        return None
    # The toolkit and the sandbox are heavy; loaded on use.
    from remora.code import load_tool_script
    from remora.sandbox import PymLoadError

    try:
        return load_tool_script(path)
    except PymLoadError as exc:
        findings = getattr(exc, "findings", None) or []
        if not findings:
            problems.add(f"{field}: {exc.message}")
        for finding in findings:
            problems.add(f"{field}: {_finding_text(finding)}", field)
        return None


def _finding_text(finding: Any) -> str:
    file = getattr(finding, "file", "")
    line = getattr(finding, "line", None)
    rule = getattr(finding, "rule", "")
    message = getattr(finding, "message", str(finding))
    where = f"{file}:{line}" if line else str(file)
    return f"{where} {rule} {message}".strip()


def _resolve_tool(
    tool: ToolDefinition, index: int, base: Path, problems: _Problems
) -> ToolDefinition:
    prefix = f"tools[{index}]"
    providers = [base / p for p in tool.context_providers]
    for j, provider in enumerate(providers):
        _script(provider, f"{prefix}.context_providers[{j}]", problems)
    if tool.pym is None:
        problems.add(f"{prefix}.pym: every tool needs a .pym script (path relative to the YAML)")
        return tool
    pym = base / tool.pym
    script = _script(pym, f"{prefix}.pym", problems)
    parameters = tool.parameters
    if script is None:
        return tool
    inputs = [InputSpec(i.name, i.json_schema, i.required, i.description) for i in script.inputs]
    if parameters is None:
        # The script's declarations are the source; `inputs:` only rewords them.
        derived, derive_problems = derive_parameters(inputs, tool.inputs, f"{prefix}.inputs")
        for message in derive_problems:
            problems.add(message)
        # Closed recursively (an open dict[str, Any] becomes closed).
        parameters, _ = strict_schema(derived, f"{prefix}.parameters")
    else:
        # Already strict (validated by the model); it must also agree with the script.
        for message in compare_with_inputs(parameters, inputs, f"{prefix}.parameters"):
            problems.add(message)
    return tool.model_copy(
        update={
            "pym": pym.resolve(),
            "parameters": parameters,
            "inputs": None,  # now part of parameters
            "context_providers": [p.resolve() for p in providers],
        }
    )
