"""Subagent definitions: a YAML file plus its tool scripts (docs/agents.md).

The models validate structure; :mod:`remora.agents.loader` adds what needs the
file system (script paths, `.pym` inputs) and turns every problem into an
error that names the file and the field.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from jinja2 import Environment, StrictUndefined, Template, TemplateError, UndefinedError
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from remora.agents.schemas import schema_problems, strict_schema
from remora.conversation import ToolSpec
from remora.discovery.node import CSTNode
from remora.errors import AgentDefinitionError

__all__ = [
    "NODE_TEMPLATE_VARIABLES",
    "SUBMIT_RESULT",
    "HostStep",
    "InitialContext",
    "SubagentDefinition",
    "ToolDefinition",
    "leaves_nothing",
    "node_template_vars",
]

SUBMIT_RESULT = "submit_result"
NodeKind = Literal["file", "class", "function", "method"]
NODE_TEMPLATE_VARIABLES = (
    "node_text",
    "node_name",
    "node_type",
    "full_name",
    "file_path",
    "node_id",
    "language",
)
_TOOL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")

# Autoescape off: the output is a prompt, not HTML. StrictUndefined: a typo in a
# variable name must fail loudly instead of rendering an empty string.
_JINJA = Environment(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True)


def node_template_vars(node: CSTNode, *, language: str = "python") -> dict[str, Any]:
    """The template variables (docs/agents.md) for one node.

    The operation's options are not among them: an option fills the tool input of
    its name and nothing else (coordinator/binding.py), so no prompt mentions it.
    """
    return {
        "node_text": node.text,
        "node_name": node.name,
        "node_type": node.node_type,
        "full_name": node.full_name,
        "file_path": node.file_path,
        "node_id": node.node_id,
        "language": language,
    }


def leaves_nothing(envelope: dict[str, Any], key: str | None) -> bool:
    """Whether a successful result has ``key`` and it is empty (``finish_if_empty``)."""
    if key is None or not envelope.get("ok"):
        return False
    result = envelope.get("result")
    return isinstance(result, dict) and key in result and not result[key]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolDefinition(_Model):
    name: str
    description: str = Field(..., min_length=1)
    # The tool script; None only for tools implemented in-process (the assistant).
    pym: Path | None = None
    # Strict JSON schema of the arguments; derived from the script's Input
    # declarations when omitted (agents/schemas.py derive_parameters).
    parameters: dict[str, Any] | None = None
    # Instead of a whole schema: per input, the words the model is shown and what
    # an annotation cannot say, laid over the derived schema (docs/agents.md).
    inputs: dict[str, dict[str, Any]] | None = None
    context_providers: list[Path] = Field(default_factory=list)
    # Called only by a host step, never offered to the model (ruff's safe fixes:
    # the host already made that call, so offering it again only costs turns).
    host_only: bool = False
    # A key of this tool's result: when a model's call of it leaves the key empty
    # (no findings left), the host submits instead of spending a turn on it.
    finish_if_empty: str | None = Field(None, min_length=1)

    @field_validator("name")
    @classmethod
    def _name_is_identifier(cls, value: str) -> str:
        if not _TOOL_NAME.match(value):
            raise ValueError(
                f"{value!r} is not a valid tool name (letters, digits and _, "
                "not starting with a digit, at most 64 characters)"
            )
        return value

    @field_validator("parameters")
    @classmethod
    def _parameters_strict(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        """A valid object schema, closed recursively (docs/agents.md, "Strict schemas")."""
        if value is None:
            return None
        problems = schema_problems(value, "")
        strict, strict_problems = strict_schema(value, "")
        problems += strict_problems
        if problems:
            raise ValueError("; ".join(problems))
        return strict

    @model_validator(mode="after")
    def _one_source_of_parameters(self) -> ToolDefinition:
        if self.parameters is not None and self.inputs is not None:
            raise ValueError(
                "give 'inputs' (rewording the script's Input declarations) or 'parameters' "
                "(a whole schema), not both"
            )
        return self

    @property
    def is_submit(self) -> bool:
        return self.name == SUBMIT_RESULT

    def to_spec(self) -> ToolSpec:
        params = self.parameters or {
            "type": "object",
            "properties": {},
            "additionalProperties": False,
        }
        return ToolSpec(name=self.name, description=self.description.strip(), parameters=params)


class HostStep(_Model):
    """A tool call the host makes before the first model turn (``host_steps:``).

    For steps every run starts with (run the linter, read the docstring): the
    result goes into the first message, so no model turn is spent on them.
    """

    tool: str = Field(..., min_length=1)
    args: dict[str, Any] = Field(default_factory=dict)
    # A key of the step's result: when it is there and empty (no fixable codes,
    # no failed tests) there is nothing left to decide, and the host submits.
    finish_if_empty: str | None = Field(None, min_length=1)
    # The step writes the run's workspace (ruff's safe fixes). Must be declared:
    # a step that is not marked and changes the workspace fails the run.
    changes_workspace: bool = False
    # The template variable that holds the step's result in initial_context,
    # instead of the result appended to the first message as JSON.
    result_variable: str | None = None

    @property
    def required(self) -> bool:
        """Whether the run cannot go on without this step: its failure ends the run.

        A step that writes the workspace leaves it in an unknown state when it
        fails, and a step whose result fills the prompt leaves nothing to render.
        """
        return self.changes_workspace or self.result_variable is not None

    def finishes(self, envelope: dict[str, Any]) -> bool:
        """Whether this step's result envelope says the run has nothing left to do."""
        return leaves_nothing(envelope, self.finish_if_empty)


def _check_result_variable(steps: list[HostStep], index: int) -> None:
    name = steps[index].result_variable
    where = f"host_steps[{index}].result_variable"
    if name is None:
        return
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"{where}: {name!r} is not a template variable name (letters, digits, _)")
    if name in NODE_TEMPLATE_VARIABLES:
        raise ValueError(
            f"{where}: {name!r} is a node template variable; pick another name "
            f"(taken: {', '.join(NODE_TEMPLATE_VARIABLES)})"
        )
    if any(other.result_variable == name for other in steps[:index]):
        raise ValueError(f"{where}: {name!r} is already the result_variable of an earlier step")


class InitialContext(_Model):
    system_prompt: str = Field(..., min_length=1)
    node_context: str = Field(..., min_length=1)

    @field_validator("system_prompt", "node_context")
    @classmethod
    def _template_compiles(cls, value: str) -> str:
        try:
            _JINJA.parse(value)
        except TemplateError as exc:
            line = getattr(exc, "lineno", None)
            at = f" (template line {line})" if line else ""
            raise ValueError(f"invalid Jinja2 template{at}: {exc}") from None
        return value

    @cached_property
    def _templates(self) -> tuple[Template, Template]:
        return _JINJA.from_string(self.system_prompt), _JINJA.from_string(self.node_context)

    def render(self, variables: dict[str, Any], *, source: str = "<agent>") -> tuple[str, str]:
        """(system prompt, first user message). An undefined variable is AGENT_001."""
        system_t, node_t = self._templates
        rendered: list[str] = []
        for field_name, template in (("system_prompt", system_t), ("node_context", node_t)):
            try:
                rendered.append(template.render(variables))
            except UndefinedError as exc:
                known = ", ".join(sorted(variables)) or "none"
                raise AgentDefinitionError(
                    f"{source}: initial_context.{field_name}: {exc.message}",
                    f"use one of the template variables: {known}",
                ) from exc
        return rendered[0], rendered[1]


class SubagentDefinition(_Model):
    name: str = Field(..., min_length=1)
    description: str = ""
    node_types: list[NodeKind] = Field(
        default_factory=lambda: list[NodeKind](["file", "class", "function", "method"]),
        min_length=1,
    )
    max_turns: int | None = Field(None, ge=1)
    # Test code (tests/, test_*.py, conftest.py): "skip" leaves it alone unless the
    # operation's own `exclude:` is set (docs/agents.md); "run" treats it as any code.
    test_code: Literal["run", "skip"] = "run"
    # The status of a run that succeeds but leaves no change for review
    # (runner/result.settle, the one rule): "skipped" for an agent whose work is a
    # change (a docstring, tests, a fixture), "success" for one whose work is a
    # check (lint: nothing left to fix is the check done).
    without_change: Literal["success", "skipped"] = "success"
    # Overrides of the model config section for this agent.
    model: dict[str, Any] | None = None
    # How a run ends: a submit_result call (code agents), or a plain-text answer
    # (the live-Python assistant, which has no submit tool).
    final_answer: Literal["submit_result", "text"] = "submit_result"
    initial_context: InitialContext
    tools: list[ToolDefinition] = Field(..., min_length=1)
    # Run by the host, in order, before the first model turn.
    host_steps: list[HostStep] = Field(default_factory=list)
    # Tool inputs that are the operation's options (docs/agents.md, "Options"): hidden from
    # the model wherever a tool it calls takes one, set by the configuration or left to the
    # script's default, never chosen by the model (the docstring agent's `details`).
    options: list[str] = Field(default_factory=list)

    _source: Path | None = PrivateAttr(default=None)

    @field_validator("model")
    @classmethod
    def _model_overrides_known(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None:
            from remora.config import ModelConfig  # config imports providers; keep it lazy

            ModelConfig.model_validate(value)
        return value

    @model_validator(mode="after")
    def _tools_consistent(self) -> SubagentDefinition:
        seen: set[str] = set()
        for tool in self.tools:
            if tool.name in seen:
                raise ValueError(f"tool name {tool.name!r} is used more than once")
            seen.add(tool.name)
        has_submit = SUBMIT_RESULT in seen
        if self.final_answer == "submit_result" and not has_submit:
            raise ValueError("a submit_result tool is required (it ends the run)")
        if self.final_answer == "text" and has_submit:
            raise ValueError("final_answer: text agents answer in text and have no submit_result")
        stepped = {step.tool for step in self.host_steps}
        submit_tool = next((t for t in self.tools if t.is_submit), None)
        bare_submit = submit_tool is not None and not submit_tool.to_spec().parameters["properties"]
        for index, tool in enumerate(self.tools):
            if tool.finish_if_empty is not None and (tool.is_submit or not bare_submit):
                raise ValueError(
                    f"tools[{index}].finish_if_empty: the host can only finish with a "
                    "submit_result that takes no arguments (and not after submit_result "
                    "itself); give submit_result 'properties: {}' or drop finish_if_empty"
                )
            if tool.host_only and (tool.is_submit or tool.name not in stepped):
                raise ValueError(
                    f"tools[{index}].host_only: {tool.name} is never offered to the model, "
                    "so a host step must call it (and submit_result cannot be host-only)"
                )
        for index, step in enumerate(self.host_steps):
            if step.tool not in seen:
                raise ValueError(
                    f"host_steps[{index}].tool: no tool named {step.tool!r} "
                    f"(the agent's tools: {', '.join(t.name for t in self.tools)})"
                )
            if step.tool == SUBMIT_RESULT:
                raise ValueError(
                    f"host_steps[{index}].tool: submit_result ends the run and cannot be a "
                    "host step (a run whose only choice left is submit_result without "
                    "arguments is finished by the host anyway)"
                )
            if step.result_variable is not None:
                _check_result_variable(self.host_steps, index)
            submit = next((t for t in self.tools if t.is_submit), None)
            takes_arguments = submit is not None and bool(submit.to_spec().parameters["properties"])
            if step.finish_if_empty is not None and (submit is None or takes_arguments):
                raise ValueError(
                    f"host_steps[{index}].finish_if_empty: the host can only finish with a "
                    "submit_result that takes no arguments; give submit_result "
                    "'properties: {}' or drop finish_if_empty"
                )
        return self

    # ------------------------------------------------------------ accessors

    @property
    def source(self) -> Path | None:
        """The YAML file this definition was loaded from."""
        return self._source

    def with_source(self, path: Path) -> SubagentDefinition:
        self._source = path
        return self

    @cached_property
    def tools_by_name(self) -> dict[str, ToolDefinition]:
        return {t.name: t for t in self.tools}

    @property
    def submit_tool(self) -> ToolDefinition | None:
        return self.tools_by_name.get(SUBMIT_RESULT)

    @cached_property
    def tool_specs(self) -> tuple[ToolSpec, ...]:
        """The tools offered to the model (``host_only`` ones are left out)."""
        return tuple(t.to_spec() for t in self.tools if not t.host_only)

    def render(self, variables: dict[str, Any]) -> tuple[str, str]:
        label = str(self._source) if self._source else self.name
        return self.initial_context.render(variables, source=label)
