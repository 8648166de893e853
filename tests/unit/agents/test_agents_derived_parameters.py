"""A tool's parameters come from its script's Input declarations; the YAML only rewords them."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from agent_files import AGENT, CONTEXT, SUBMIT

from remora.agents import AgentLoadError, AgentRegistry, load_agent

# What the bundled agents' YAML declared as each tool's parameters before the
# scripts became the source, key order included (the order the model is shown).
SNAPSHOT = json.loads((Path(__file__).parent / "bundled_schemas.json").read_text())

GREET = """\
from typing import Literal

from remora.pym import Input

name: str = Input("name", max_length=40, description="Who to greet")
times: int = Input("times", default=1, minimum=1, maximum=5, description="Often")
tone: Literal["warm", "dry"] = Input("tone", default="warm")
notes: list[dict[str, str]] = Input("notes", default=[], max_items=2)

{"greeting": ("hi " + name + " ") * times}
"""


def _agent(tmp_path: Path, greet_tool: str, script: str = GREET) -> Path:
    """The greeter agent with its greet tool's YAML lines replaced by ``greet_tool``."""
    yaml_text = AGENT.replace(
        "    description: Greet someone.\n    context_providers: [context/cfg.pym]\n",
        "    description: Greet someone.\n" + textwrap.indent(textwrap.dedent(greet_tool), "    "),
    )
    files = {
        "agent.yaml": yaml_text,
        "tools/greet.pym": script,
        "tools/submit.pym": SUBMIT,
        "context/cfg.pym": CONTEXT,
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path / "agent.yaml"


@pytest.mark.parametrize("agent", sorted(SNAPSHOT))
def test_a_bundled_tools_derived_schema_is_what_its_yaml_declared(agent: str) -> None:
    definition = AgentRegistry().get(agent)
    derived = {tool.name: tool.parameters for tool in definition.tools}
    # Compared as text: the order of the keys reaches the model's prompt.
    assert json.dumps(derived, indent=1) == json.dumps(SNAPSHOT[agent], indent=1)


def test_the_script_gives_types_limits_and_required_and_inputs_reword_them(
    tmp_path: Path,
) -> None:
    path = _agent(
        tmp_path,
        """\
        inputs:
          name: {description: The person's name.}
          notes:
            items:
              properties: {text: {maxLength: 30}}
              additionalProperties: false
        """,
    )
    greet = load_agent(path).tools_by_name["greet"]
    assert greet.inputs is None  # laid over the parameters at load
    assert json.dumps(greet.parameters) == json.dumps(
        {
            "type": "object",
            "properties": {
                "name": {"type": "string", "maxLength": 40, "description": "The person's name."},
                "times": {"type": "integer", "minimum": 1, "maximum": 5, "description": "Often"},
                "tone": {"type": "string", "enum": ["warm", "dry"]},
                "notes": {
                    "type": "array",
                    "maxItems": 2,
                    "items": {
                        "type": "object",
                        "properties": {"text": {"maxLength": 30}},
                        "additionalProperties": False,
                    },
                },
            },
            "required": ["name"],
            "additionalProperties": False,
        }
    )


def test_inputs_cannot_name_what_the_script_does_not_declare_nor_retype_it(
    tmp_path: Path,
) -> None:
    path = _agent(
        tmp_path,
        """\
        inputs:
          nmae: {description: typo}
          times: {type: string, description: x}
        """,
    )
    with pytest.raises(AgentLoadError) as info:
        load_agent(path)
    problems = info.value.problems
    assert any(
        p.endswith(
            "tools[0].inputs.nmae: the script declares no Input named 'nmae' "
            "(its inputs: name, times, tone, notes); did you mean 'name'?"
        )
        for p in problems
    ), problems
    assert any(
        "tools[0].inputs.times: type: what an input is comes from its Input declaration" in p
        for p in problems
    ), problems
    # Each names the YAML file and the line of the key.
    assert [p.split(": ", 1)[0] for p in problems] == [f"{path}:13", f"{path}:14"], problems


def test_inputs_and_a_whole_parameters_schema_are_not_both_given(tmp_path: Path) -> None:
    path = _agent(
        tmp_path,
        """\
        inputs: {name: {description: x}}
        parameters: {type: object, properties: {}}
        """,
    )
    with pytest.raises(AgentLoadError) as info:
        load_agent(path)
    assert "give 'inputs'" in info.value.problems[0] and "not both" in info.value.problems[0]


def test_a_constraint_must_be_a_number_literal(tmp_path: Path) -> None:
    script = GREET.replace("max_length=40", "max_length=LIMIT")
    with pytest.raises(AgentLoadError) as info:
        load_agent(_agent(tmp_path, "", script))
    problems = info.value.problems
    assert any("Input 'name': max_length must be a number literal" in p for p in problems)
