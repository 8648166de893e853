"""Every bundled agent loads (real loader, real Monty type check) and its shared code is in sync."""

from __future__ import annotations

import re

import pytest

from remora.agents import BUNDLED_AGENTS_DIR, AgentRegistry, load_agent

AGENTS = ["docstring", "lint", "sample_data", "test"]
SHARED = re.compile(r"# --- shared: (?P<name>.+?) ---\n.*?# --- end shared: (?P=name) ---\n", re.S)


def _parts() -> dict[str, str]:
    parts: dict[str, str] = {}
    for path in sorted(BUNDLED_AGENTS_DIR.glob("_shared_*.pym.part")):
        text = path.read_text(encoding="utf-8")
        match = SHARED.fullmatch(text)
        assert match is not None, f"{path.name} must be exactly one shared block"
        parts[match.group("name")] = text
    return parts


def test_the_registry_lists_the_four_bundled_agents() -> None:
    registry = AgentRegistry(None)
    assert sorted(registry.names()) == AGENTS
    assert {e.origin for e in registry.entries()} == {"bundled"}


@pytest.mark.parametrize("name", AGENTS)
def test_bundled_agent_loads_with_every_script_checked(name: str) -> None:
    folder = "testgen" if name == "test" else name
    definition = load_agent(BUNDLED_AGENTS_DIR / folder / "agent.yaml")
    assert definition.name == name
    assert definition.tools[-1].name == "submit_result"
    for tool in definition.tools:
        assert tool.pym is not None and tool.pym.is_file()
        assert tool.parameters is not None
        assert tool.parameters["additionalProperties"] is False
    # Prompts stay short for tiny models and carry no worked examples to copy.
    system = definition.initial_context.system_prompt
    assert len(system) < 400 and "example" not in system.lower()


@pytest.mark.parametrize("name", AGENTS)
def test_prompts_render_with_the_node_variables(name: str) -> None:
    folder = "testgen" if name == "test" else name
    definition = load_agent(BUNDLED_AGENTS_DIR / folder / "agent.yaml")
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
    system, first = definition.render(variables)
    assert "def f():" in first and system.strip()


def test_shared_blocks_are_identical_in_every_script() -> None:
    parts = _parts()
    assert set(parts) >= {
        "source scanning",
        "ruff issues of one node",
        "signatures",
        "docstrings",
        "sample values",
        "call target",
        "fixtures",
        "pytest",
        "test generation",
        "test writing",
    }
    scripts = sorted(BUNDLED_AGENTS_DIR.glob("*/*/*.pym"))
    assert len(scripts) >= 14
    used: set[str] = set()
    for script in scripts:
        for match in SHARED.finditer(script.read_text(encoding="utf-8")):
            name = match.group("name")
            assert name in parts, f"{script}: unknown shared block {name!r}"
            assert match.group(0) == parts[name], (
                f"{script.relative_to(BUNDLED_AGENTS_DIR)}: shared block {name!r} differs from "
                f"_shared_*.pym.part; re-sync it"
            )
            used.add(name)
    assert used == set(parts), f"unused shared parts: {set(parts) - used}"


def test_docstring_style_is_declared_for_the_operation_option() -> None:
    definition = load_agent(BUNDLED_AGENTS_DIR / "docstring" / "agent.yaml")
    schema = definition.tools_by_name["write_docstring"].parameters
    assert schema is not None
    assert schema["properties"]["style"]["enum"] == ["google", "numpy", "sphinx"]
    assert "style" not in schema.get("required", [])
