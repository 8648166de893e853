"""Every bundled agent loads (real loader, real Monty type check); its scripts stay short."""

from __future__ import annotations

import pytest

from remora.agents import BUNDLED_AGENTS_DIR, AgentRegistry, load_agent

AGENTS = ["docstring", "lint", "sample_data", "test"]
# Scripts share code through remora_code, not copies, and stay readable in one screen.
MAX_SCRIPT_LINES = 150


def test_the_registry_lists_the_four_bundled_agents() -> None:
    registry = AgentRegistry(None)
    assert sorted(registry.names()) == AGENTS
    assert {e.origin for e in registry.entries()} == {"bundled"}


@pytest.mark.parametrize("name", AGENTS)
def test_bundled_agent_loads_with_every_script_checked(name: str) -> None:
    definition = load_agent(BUNDLED_AGENTS_DIR / name / "agent.yaml")
    assert definition.name == name
    assert definition.tools[-1].name == "submit_result"
    for tool in definition.tools:
        assert tool.pym is not None and tool.pym.is_file()
        assert tool.parameters is not None
        assert tool.parameters["additionalProperties"] is False
    # Prompts stay short for tiny models and carry no worked examples to copy.
    system = definition.initial_context.system_prompt
    assert len(system) < 400 and "example" not in system.lower()


# What the host steps with a result_variable give the templates (fix_safe.pym's shape).
F841 = {"code": "F841", "message": "`y` is never used", "line": 2, "column": 5, "fixable": False}
F841_UNIT = {
    **F841,
    "start_line": 2,
    "end_line": 2,
    "text": "    y = 1",
    "excerpt": "1 | def f():\n2 |     y = 1",
    "also": [],
}
STEP_RESULTS = {
    "safe": {"applied": ["F401"], "remaining": [F841], "units": [F841_UNIT]},
    "lint": {"drafted": [], "remaining": [F841], "units": [F841_UNIT], "drafts": []},
    "node_view": "def f():\n    return 1",  # docstring's view_node: the node, shortened to fit
}


@pytest.mark.parametrize("name", AGENTS)
def test_prompts_render_with_the_node_variables(name: str) -> None:
    definition = load_agent(BUNDLED_AGENTS_DIR / name / "agent.yaml")
    variables = {
        "node_text": "def f():\n    pass\n",
        "node_name": "f",
        "node_type": "function",
        "full_name": "f",
        "file_path": "m.py",
        "node_id": "x",
        "language": "python",
        "style": "google",
    }
    for step in definition.host_steps:
        if step.result_variable is not None:
            variables[step.result_variable] = STEP_RESULTS[step.result_variable]
    system, first = definition.render(variables)
    assert "def f():" in first and system.strip()


def test_lint_prompt_of_a_file_shows_each_finding_with_its_lines_not_the_file() -> None:
    definition = load_agent(BUNDLED_AGENTS_DIR / "lint" / "agent.yaml")
    unit = {
        **F841,
        "code": "E711",
        "message": "Comparison to `None`",
        "line": 40,
        "start_line": 40,
        "end_line": 40,
        "text": "if x == None:",
        "excerpt": "39 | x = 1\n40 | if x == None:\n41 |     pass",
        "also": [],
    }
    lint = {"drafted": [], "remaining": [unit], "units": [unit], "drafts": []}
    safe = {"applied": [], "remaining": [unit], "units": [unit]}
    variables = {
        "node_type": "file",
        "full_name": "m.py",
        "file_path": "m.py",
        "lint": lint,
        "safe": safe,
    }
    _, first = definition.render(variables)
    assert first == (
        "file m.py in m.py.\n"
        "Findings left. For each, edit_node replaces only the lines in its python block:\n\n"
        "E711 at line 40: Comparison to `None`\n"
        "39 | x = 1\n40 | if x == None:\n41 |     pass\n"
        "lines 40-40:\n```python\nif x == None:\n```\n"
    )


def test_scripts_are_short_and_no_shared_parts_are_left() -> None:
    scripts = sorted(BUNDLED_AGENTS_DIR.glob("*/*/*.pym"))
    assert scripts
    for script in scripts:
        lines = len(script.read_text(encoding="utf-8").splitlines())
        assert lines <= MAX_SCRIPT_LINES, f"{script.name}: {lines} lines"
    assert not list(BUNDLED_AGENTS_DIR.glob("*.pym.part"))


def test_docstring_style_is_declared_for_the_operation_option() -> None:
    definition = load_agent(BUNDLED_AGENTS_DIR / "docstring" / "agent.yaml")
    schema = definition.tools_by_name["write_docstring"].parameters
    assert schema is not None
    assert schema["properties"]["style"]["enum"] == ["google", "numpy", "sphinx"]
    assert "style" not in schema.get("required", [])
