"""AgentRegistry: bundled agents, user agents overriding by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from agent_files import AGENT, CONTEXT, GREET, SUBMIT

from remora.agents import BUNDLED_AGENTS_DIR, AgentLoadError, AgentRegistry
from remora.errors import RemoraError


def _agent_dir(root: Path, name: str, *, description: str = "Greets.") -> Path:
    folder = root / name
    (folder / "tools").mkdir(parents=True)
    (folder / "context").mkdir()
    (folder / "agent.yaml").write_text(
        AGENT.replace("name: greeter", f"name: {name}").replace(
            "description: Greets.", f"description: {description}"
        )
    )
    (folder / "tools/greet.pym").write_text(GREET)
    (folder / "tools/submit.pym").write_text(SUBMIT)
    (folder / "context/cfg.pym").write_text(CONTEXT)
    return folder / "agent.yaml"


def test_bundled_agents_are_listed(tmp_path: Path) -> None:
    bundled = tmp_path / "bundled"
    _agent_dir(bundled, "lint")
    _agent_dir(bundled, "docstring")
    registry = AgentRegistry(bundled_dir=bundled)
    assert registry.names() == ["docstring", "lint"]
    assert {e.origin for e in registry.entries()} == {"bundled"}
    assert registry.get("lint").name == "lint"


def test_a_user_agent_overrides_a_bundled_one_by_name(tmp_path: Path) -> None:
    bundled, user = tmp_path / "bundled", tmp_path / "project/agents"
    _agent_dir(bundled, "lint")
    user_lint = _agent_dir(user, "my_lint", description="Mine.")
    user_lint.write_text(user_lint.read_text().replace("name: my_lint", "name: lint"))
    _agent_dir(user, "extra")
    registry = AgentRegistry(Path("agents"), project_root=tmp_path / "project", bundled_dir=bundled)
    assert registry.names() == ["extra", "lint"]
    entry = registry.entry("lint")
    assert entry.origin == "user" and entry.overrides and entry.path == user_lint
    assert registry.get("lint").description == "Mine."
    assert not registry.entry("extra").overrides


def test_a_single_yaml_file_is_an_agent_too(tmp_path: Path) -> None:
    user = tmp_path / "agents"
    _agent_dir(user, "x")
    flat = user / "flat.yaml"
    flat.write_text(
        (user / "x/agent.yaml")
        .read_text()
        .replace("name: x", "name: flat")
        .replace("tools/", "x/tools/")
        .replace("context/", "x/context/")
    )
    registry = AgentRegistry(user, bundled_dir=None)
    assert registry.names() == ["flat", "x"]
    assert registry.get("flat").tools_by_name["greet"].pym == (user / "x/tools/greet.pym").resolve()


def test_a_broken_agent_is_listed_and_its_error_reported(tmp_path: Path) -> None:
    user = tmp_path / "agents"
    _agent_dir(user, "good")
    broken = user / "broken"
    broken.mkdir()
    (broken / "agent.yaml").write_text("name: broken\ntools: [\n")
    registry = AgentRegistry(user, bundled_dir=None)
    assert registry.names() == ["broken", "good"]
    outcome = registry.validate()
    assert isinstance(outcome["broken"], AgentLoadError)
    assert not isinstance(outcome["good"], AgentLoadError)
    with pytest.raises(AgentLoadError, match="invalid YAML"):
        registry.get("broken")


def test_unknown_agent_suggests_a_close_name(tmp_path: Path) -> None:
    _agent_dir(tmp_path, "docstring")
    registry = AgentRegistry(bundled_dir=tmp_path)
    with pytest.raises(RemoraError) as info:
        registry.entry("docstrings")
    assert info.value.code == "AGENT_001" and "did you mean 'docstring'" in info.value.hint


def test_two_user_agents_with_one_name_are_an_error(tmp_path: Path) -> None:
    first = _agent_dir(tmp_path, "a")
    second = _agent_dir(tmp_path, "b")
    second.write_text(second.read_text().replace("name: b", "name: a"))
    with pytest.raises(RemoraError, match="two agents named 'a'"):
        AgentRegistry(tmp_path, bundled_dir=None)
    assert first.exists()


def test_a_missing_agents_dir_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(RemoraError) as info:
        AgentRegistry(tmp_path / "nope", bundled_dir=None)
    assert info.value.code == "CONFIG_002"


def test_the_package_ships_its_bundled_agents_dir() -> None:
    registry = AgentRegistry()
    assert BUNDLED_AGENTS_DIR.is_dir()
    assert all(e.origin == "bundled" for e in registry.entries())
    assert all(e.path.is_relative_to(BUNDLED_AGENTS_DIR) for e in registry.entries())
