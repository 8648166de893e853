"""SubagentDefinition models, strict schemas and templates (docs/agents.md)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from remora.agents import (
    NODE_TEMPLATE_VARIABLES,
    InitialContext,
    SubagentDefinition,
    ToolDefinition,
    node_template_vars,
)
from remora.agents.schemas import InputSpec, compare_with_inputs, strict_schema, types_of
from remora.discovery.node import CSTNode
from remora.errors import RemoraError

SUBMIT = {
    "name": "submit_result",
    "description": "Finish.",
    "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}},
}


def _agent(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "lint",
        "initial_context": {"system_prompt": "You lint.", "node_context": "{{ node_text }}"},
        "tools": [{"name": "run_linter", "description": "Lint."}, SUBMIT],
    }
    data.update(changes)
    return data


def test_a_minimal_definition_validates() -> None:
    d = SubagentDefinition.model_validate(_agent())
    assert d.name == "lint"
    assert d.node_types == ["file", "class", "function", "method"]
    assert d.max_turns is None and d.final_answer == "submit_result"
    assert list(d.tools_by_name) == ["run_linter", "submit_result"]
    assert d.submit_tool is not None and d.submit_tool.is_submit
    assert [s.name for s in d.tool_specs] == ["run_linter", "submit_result"]


def test_max_turns_below_one_is_rejected() -> None:
    with pytest.raises(ValidationError, match="max_turns"):
        SubagentDefinition.model_validate(_agent(max_turns=0))


def test_unknown_keys_are_rejected() -> None:
    with pytest.raises(ValidationError, match="tool_schemas"):
        SubagentDefinition.model_validate(_agent(tool_schemas=[]))
    with pytest.raises(ValidationError, match="script"):
        SubagentDefinition.model_validate(
            _agent(tools=[{"name": "a", "description": "x", "script": "a.pym"}, SUBMIT])
        )


def test_exactly_one_submit_result_is_required() -> None:
    with pytest.raises(ValidationError, match="submit_result tool is required"):
        SubagentDefinition.model_validate(_agent(tools=[{"name": "a", "description": "x"}]))
    with pytest.raises(ValidationError, match="'submit_result' is used more than once"):
        SubagentDefinition.model_validate(_agent(tools=[SUBMIT, SUBMIT]))


def test_tool_names_are_unique_and_identifiers() -> None:
    with pytest.raises(ValidationError, match="'a' is used more than once"):
        SubagentDefinition.model_validate(
            _agent(
                tools=[{"name": "a", "description": "x"}, {"name": "a", "description": "y"}, SUBMIT]
            )
        )
    with pytest.raises(ValidationError, match="not a valid tool name"):
        ToolDefinition(name="run linter", description="x")


def test_text_answer_agents_have_no_submit_result() -> None:
    d = SubagentDefinition.model_validate(
        _agent(final_answer="text", tools=[{"name": "get_type", "description": "Type."}])
    )
    assert d.submit_tool is None
    with pytest.raises(ValidationError, match="have no submit_result"):
        SubagentDefinition.model_validate(_agent(final_answer="text"))


def test_model_overrides_are_checked_against_the_model_section() -> None:
    d = SubagentDefinition.model_validate(_agent(model={"provider": "openai", "id": "qwen"}))
    assert d.model == {"provider": "openai", "id": "qwen"}
    with pytest.raises(ValidationError, match="temprature"):
        SubagentDefinition.model_validate(_agent(model={"temprature": 1}))


# ------------------------------------------------------------ strict schemas


def test_every_object_schema_is_closed_recursively() -> None:
    tool = ToolDefinition(
        name="t",
        description="x",
        parameters={
            "type": "object",
            "properties": {
                "where": {"type": "object", "properties": {"line": {"type": "integer"}}},
                "edits": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"text": {"type": "string"}}},
                },
                "either": {
                    "anyOf": [
                        {"type": "string"},
                        {"type": "object", "properties": {"a": {"type": "string"}}},
                    ]
                },
            },
        },
    )
    p = tool.parameters
    assert p is not None
    assert p["additionalProperties"] is False
    assert p["properties"]["where"]["additionalProperties"] is False
    assert p["properties"]["edits"]["items"]["additionalProperties"] is False
    assert p["properties"]["either"]["anyOf"][1]["additionalProperties"] is False


def test_objects_accepting_anything_are_refused() -> None:
    with pytest.raises(
        ValidationError,
        match=r"properties\.opts\.additionalProperties: tool "
        r"schemas are strict",
    ):
        ToolDefinition(
            name="t",
            description="x",
            parameters={
                "type": "object",
                "properties": {"opts": {"type": "object", "additionalProperties": True}},
            },
        )


def test_a_typed_map_stays_typed() -> None:
    schema, problems = strict_schema(
        {
            "type": "object",
            "properties": {"env": {"type": "object", "additionalProperties": {"type": "string"}}},
        }
    )
    assert problems == []
    assert schema["properties"]["env"]["additionalProperties"] == {"type": "string"}


def test_parameters_must_be_an_object_schema() -> None:
    with pytest.raises(ValidationError, match="type: a tool's parameters must be 'type: object'"):
        ToolDefinition(name="t", description="x", parameters={"type": "string"})
    with pytest.raises(ValidationError, match="required: 'b' is not one of the properties"):
        ToolDefinition(
            name="t",
            description="x",
            parameters={
                "type": "object",
                "properties": {"a": {"type": "string"}},
                "required": ["b"],
            },
        )
    with pytest.raises(ValidationError, match="invalid JSON schema"):
        ToolDefinition(
            name="t",
            description="x",
            parameters={"type": "object", "properties": {"a": {"type": "strin"}}},
        )


def test_a_tool_without_parameters_takes_no_arguments() -> None:
    spec = ToolDefinition(name="t", description="  Do it.  ").to_spec()
    assert spec.parameters == {"type": "object", "properties": {}, "additionalProperties": False}
    assert spec.description == "Do it."


# ------------------------------------------------------------ agreement with .pym inputs


def test_types_of_reads_type_enum_const_and_unions() -> None:
    assert types_of({"type": "string"}) == {"string"}
    assert types_of({"type": ["string", "null"]}) == {"string", "null"}
    assert types_of({"enum": ["a", 1]}) == {"string", "integer"}
    assert types_of({"anyOf": [{"type": "integer"}, {"type": "null"}]}) == {"integer", "null"}
    assert types_of({}) is None
    assert types_of({"anyOf": [{"type": "integer"}, {}]}) is None


def test_compare_with_inputs_accepts_agreeing_schemas() -> None:
    inputs = [
        InputSpec("path", {"type": "string"}, True),
        InputSpec("ratio", {"type": "number"}, False),
    ]
    params = {
        "type": "object",
        "required": ["path"],
        "properties": {
            "path": {"type": "string", "description": "file"},
            "ratio": {"type": "integer"},
        },
    }  # an int is a valid float input
    assert compare_with_inputs(params, inputs) == []


def test_compare_with_inputs_names_every_disagreement() -> None:
    inputs = [
        InputSpec("path", {"type": "string"}, True),
        InputSpec("limit", {"type": "integer"}, False),
    ]
    params = {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "limit": {"type": "string"},
            "mode": {"type": "string"},
        },
    }
    problems = compare_with_inputs(params, inputs, "tools[0].parameters")
    assert problems == [
        "tools[0].parameters.properties.mode: the script declares no Input named 'mode' "
        "(its inputs: path, limit)",
        "tools[0].parameters.required: 'path' has no default in the script, so it must be "
        "listed as required",
        "tools[0].parameters.properties.limit.type: string does not match the script's "
        "Input type integer",
    ]
    missing = compare_with_inputs({"type": "object", "properties": {}}, inputs, "p")
    assert "p.properties: missing 'path', an Input the script declares" in missing


# ------------------------------------------------------------ templates


def _node() -> CSTNode:
    return CSTNode(
        node_id="abc123",
        node_type="method",
        name="total",
        full_name="Order.total",
        file_path="shop/orders.py",
        start_byte=0,
        end_byte=10,
        start_line=3,
        end_line=5,
        text="def total(self): ...",
    )


def test_node_template_vars_are_the_design_list_and_nothing_else() -> None:
    # Operation options are not template variables: they fill tool inputs only.
    variables = node_template_vars(_node())
    assert set(variables) == set(NODE_TEMPLATE_VARIABLES)
    assert variables["node_name"] == "total"
    assert variables["full_name"] == "Order.total" and variables["language"] == "python"


def test_render_uses_all_variables() -> None:
    ctx = InitialContext(
        system_prompt="Write {{ language }} docstrings.",
        node_context="{{ node_type }} {{ full_name }} in {{ file_path }}:\n{{ node_text }}",
    )
    system, user = ctx.render(node_template_vars(_node()))
    assert system == "Write python docstrings."
    assert user == "method Order.total in shop/orders.py:\ndef total(self): ..."


def test_undefined_variable_is_agent_001_naming_field_and_variables() -> None:
    ctx = InitialContext(system_prompt="ok", node_context="{{ node_txt }}")
    with pytest.raises(RemoraError) as info:
        ctx.render(node_template_vars(_node()), source="agents/lint/agent.yaml")
    assert info.value.code == "AGENT_001"
    assert info.value.message == (
        "agents/lint/agent.yaml: initial_context.node_context: 'node_txt' is undefined"
    )
    assert "node_text" in info.value.hint


def test_template_syntax_errors_fail_validation() -> None:
    with pytest.raises(ValidationError, match="invalid Jinja2 template"):
        InitialContext(system_prompt="{% if %}", node_context="x")
