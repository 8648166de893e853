"""Loading agent YAML files with their real `.pym` scripts (docs/agents.md)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from agent_files import AGENT, CONTEXT, GREET, SUBMIT

from remora.agents import AgentLoadError, load_agent


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if rel.endswith(".yaml") else text)
    return root / "agent.yaml"


def _agent(tmp_path: Path, yaml_text: str = AGENT, **extra: str) -> Path:
    return _write(
        tmp_path,
        {
            "agent.yaml": yaml_text,
            "tools/greet.pym": GREET,
            "tools/submit.pym": SUBMIT,
            "context/cfg.pym": CONTEXT,
            **extra,
        },
    )


def _problems(path: Path) -> list[str]:
    with pytest.raises(AgentLoadError) as info:
        load_agent(path)
    assert info.value.code == "AGENT_001"
    return info.value.problems


def test_parameters_are_derived_from_the_script_inputs(tmp_path: Path) -> None:
    d = load_agent(_agent(tmp_path))
    greet = d.tools_by_name["greet"]
    assert greet.parameters is not None
    assert greet.parameters["type"] == "object"
    assert greet.parameters["additionalProperties"] is False
    assert greet.parameters["required"] == ["name"]
    assert greet.parameters["properties"]["name"]["type"] == "string"
    assert greet.parameters["properties"]["times"]["type"] == "integer"
    # Paths are resolved relative to the YAML's directory.
    assert greet.pym == (tmp_path / "tools/greet.pym").resolve()
    assert greet.context_providers == [(tmp_path / "context/cfg.pym").resolve()]
    assert d.source == (tmp_path / "agent.yaml").resolve()
    assert d.max_turns == 4 and d.node_types == ["function"]


def test_given_parameters_that_agree_are_kept_strict(tmp_path: Path) -> None:
    text = AGENT.replace(
        "    description: Greet someone.\n",
        """\
    description: Greet someone.
    parameters:
      type: object
      properties:
        name: {type: string, description: The name}
        times: {type: integer}
      required: [name]
""",
    )
    greet = load_agent(_agent(tmp_path, text)).tools_by_name["greet"]
    assert greet.parameters == {
        "type": "object",
        "additionalProperties": False,
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "description": "The name"},
            "times": {"type": "integer"},
        },
    }


def test_parameters_that_disagree_with_the_script_are_load_errors(tmp_path: Path) -> None:
    text = AGENT.replace(
        "    description: Greet someone.\n",
        """\
    description: Greet someone.
    parameters:
      type: object
      properties:
        name: {type: integer}
        loud: {type: boolean}
""",
    )
    problems = _problems(_agent(tmp_path, text))
    yaml_path = tmp_path / "agent.yaml"
    assert (
        f"{yaml_path}:16: tools[0].parameters.properties.loud: the script declares no "
        "Input named 'loud' (its inputs: name, times)" in problems
    )
    assert any("tools[0].parameters.properties: missing 'times'" in p for p in problems)
    assert any(
        "properties.name.type: integer does not match the script's Input type string" in p
        for p in problems
    )
    assert any(
        "'name' has no default in the script, so it must be listed as required" in p
        for p in problems
    )


def test_a_missing_script_names_the_field_and_path(tmp_path: Path) -> None:
    path = _agent(tmp_path)
    (tmp_path / "tools/submit.pym").unlink()
    problems = _problems(path)
    assert problems == [
        f"{path}:14: tools[1].pym: script not found: {tmp_path / 'tools/submit.pym'}"
    ]


def test_a_broken_script_is_a_load_error_with_its_findings(tmp_path: Path) -> None:
    broken = "from remora.pym import Input\n\nclass A(dict):\n    pass\n\nA()\n"
    problems = _problems(_agent(tmp_path, **{"tools/greet.pym": broken}))
    assert len(problems) >= 1
    assert all(p.startswith(f"{tmp_path / 'agent.yaml'}:10: tools[0].pym: ") for p in problems)
    assert any(f"{tmp_path / 'tools/greet.pym'}:3" in p for p in problems)


def test_a_broken_context_provider_is_a_load_error(tmp_path: Path) -> None:
    problems = _problems(_agent(tmp_path, **{"context/cfg.pym": "x = (\n"}))
    assert any("tools[0].context_providers[0]: " in p for p in problems)


def test_structure_errors_name_file_line_and_field(tmp_path: Path) -> None:
    text = AGENT.replace("max_turns: 4", "max_turns: 0").replace(
        "    description: Finish.\n", "    description: Finish.\n    timeout: 3\n"
    )
    problems = _problems(_agent(tmp_path, text))
    path = tmp_path / "agent.yaml"
    assert f"{path}:4: max_turns: Input should be greater than or equal to 1" in problems
    assert f"{path}:16: tools[1].timeout: Extra inputs are not permitted" in problems


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = _agent(tmp_path)
    (tmp_path / "tools/greet.pym").unlink()
    (tmp_path / "tools/submit.pym").unlink()
    with pytest.raises(AgentLoadError) as info:
        load_agent(path)
    assert len(info.value.problems) == 2
    assert info.value.message.endswith("(and 1 more)")
    assert info.value.report().count("script not found") == 2


def test_missing_submit_result_is_reported(tmp_path: Path) -> None:
    text = AGENT.split("  - name: submit_result")[0]
    problems = _problems(_agent(tmp_path, text))
    assert problems == [
        f"{tmp_path / 'agent.yaml'}: (agent): a submit_result tool is required (it ends the run)"
    ]


def test_strictness_cannot_be_opted_out_of(tmp_path: Path) -> None:
    text = AGENT.replace(
        "    description: Greet someone.\n",
        """\
    description: Greet someone.
    parameters:
      type: object
      properties: {name: {type: string}}
      additionalProperties: true
""",
    )
    problems = _problems(_agent(tmp_path, text))
    assert any(
        "tools[0].parameters: additionalProperties: tool schemas are strict" in p for p in problems
    )


def test_invalid_yaml_and_a_non_mapping_are_clear(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ntools: [\n")
    assert _problems(bad)[0].startswith(f"{bad}:3: invalid YAML")
    listing = tmp_path / "list.yaml"
    listing.write_text("- a\n- b\n")
    assert "the top level must be a mapping" in _problems(listing)[0]
    assert "cannot read" in _problems(tmp_path / "missing.yaml")[0]


def test_a_tool_without_a_script_is_refused_in_yaml(tmp_path: Path) -> None:
    text = AGENT.replace("    pym: tools/greet.pym\n", "")
    problems = _problems(_agent(tmp_path, text))
    assert any("tools[0].pym: every tool needs a .pym script" in p for p in problems)


def test_host_steps_are_loaded_with_their_arguments(tmp_path: Path) -> None:
    text = AGENT + "host_steps:\n  - tool: greet\n    args: {name: world}\n"
    definition = load_agent(_agent(tmp_path, text))
    assert [(s.tool, s.args) for s in definition.host_steps] == [("greet", {"name": "world"})]


def test_host_step_problems_name_file_line_and_field(tmp_path: Path) -> None:
    first = AGENT.count("\n") + 2  # the line of the first step
    text = AGENT + (
        "host_steps:\n"
        "  - tool: greet\n"
        "    args: {name: 3, loud: true}\n"
        "  - tool: greet\n"
        "    args: {}\n"
    )
    path = _agent(tmp_path, text)
    problems = _problems(path)
    assert problems == [
        f"{path}:{first + 1}: host_steps[0].args: Additional properties are not allowed "
        "('loud' was unexpected) (arguments of greet must match its parameters)",
        f"{path}:{first + 1}: host_steps[0].args.name: 3 is not of type 'string' "
        "(arguments of greet must match its parameters)",
        f"{path}:{first + 3}: host_steps[1].args: 'name' is a required property "
        "(arguments of greet must match its parameters)",
    ]


def test_a_host_step_naming_no_tool_is_reported_at_its_line(tmp_path: Path) -> None:
    text = AGENT + "host_steps:\n  - tool: great\n"
    path = _agent(tmp_path, text)
    line = AGENT.count("\n") + 2
    assert _problems(path) == [
        f"{path}:{line}: host_steps[0].tool: no tool named 'great' "
        "(the agent's tools: greet, submit_result)"
    ]


def test_host_only_and_result_variable_problems_name_file_line_and_field(tmp_path: Path) -> None:
    text = AGENT.replace(
        "    context_providers: [context/cfg.pym]\n",
        "    context_providers: [context/cfg.pym]\n    host_only: true\n",
    )
    path = _agent(tmp_path, text)
    line = text.splitlines().index("    host_only: true") + 1
    assert _problems(path) == [
        f"{path}:{line}: tools[0].host_only: greet is never offered to the model, "
        "so a host step must call it (and submit_result cannot be host-only)"
    ]
    stepped = AGENT + (
        "host_steps:\n  - tool: greet\n    args: {name: x}\n    result_variable: node_text\n"
    )
    path = _agent(tmp_path, stepped)
    step_line = AGENT.count("\n") + 4  # the result_variable line
    (problem,) = _problems(path)
    assert problem.startswith(
        f"{path}:{step_line}: host_steps[0].result_variable: 'node_text' is a node template "
        "variable; pick another name"
    )
