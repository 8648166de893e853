"""``remora agents`` (listing) and ``remora agents check`` on agent YAMLs."""

from __future__ import annotations

import json
from pathlib import Path

from agent_files import AGENT, CONTEXT, GREET, SUBMIT
from typer.testing import CliRunner

from remora.agents.definition import SubagentDefinition
from remora.cli import app
from remora.config import ModelConfig, OperationConfig, RemoraConfig

runner = CliRunner()


def _agent(folder: Path, name: str) -> Path:
    (folder / "tools").mkdir(parents=True)
    (folder / "context").mkdir()
    (folder / "agent.yaml").write_text(AGENT.replace("name: greeter", f"name: {name}"))
    (folder / "tools/greet.pym").write_text(GREET)
    (folder / "tools/submit.pym").write_text(SUBMIT)
    (folder / "context/cfg.pym").write_text(CONTEXT)
    return folder / "agent.yaml"


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    _agent(project / "agents/greeter", "greeter")
    lint = _agent(project / "agents/my_lint", "lint")
    lint.write_text(lint.read_text().replace("description: Greets.", "description: Mine."))
    broken = project / "agents/broken"
    broken.mkdir(parents=True)
    (broken / "agent.yaml").write_text("name: broken\nmax_turns: 0\n")
    script = project / "turns.yaml"
    script.write_text("- text: hi\n")
    (project / "remora.yaml").write_text(
        f"agents_dir: agents\nmodel:\n  provider: scripted\n  id: demo\n  path: {script}\n"
    )
    return project


def test_agents_lists_bundled_and_user_agents_validated(tmp_path: Path) -> None:
    project = _project(tmp_path)
    result = runner.invoke(app, ["agents", "--project", str(project), "--format", "json"])
    assert result.exit_code == 1  # one agent is broken
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert {"greeter", "lint", "broken", "docstring", "test", "sample_data"} <= set(rows)
    assert rows["greeter"]["valid"] and rows["greeter"]["origin"] == "user"
    assert rows["lint"]["overrides_bundled"] and rows["lint"]["description"] == "Mine."
    assert rows["docstring"]["origin"] == "bundled" and rows["docstring"]["valid"]
    assert not rows["broken"]["valid"]
    problems = [p["message"] for p in rows["broken"]["problems"]]
    assert "max_turns: Input should be greater than or equal to 1" in problems
    assert rows["broken"]["problems"][0]["line"] == 2
    assert rows["greeter"]["model"] == {
        "provider": "scripted",
        "id": "demo",
        "profile": "default",
        "available": True,
        "reason": "",
        "hint": "",
    }


def test_agents_table_names_the_problem_and_an_unavailable_model(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "remora.yaml").write_text("agents_dir: agents\nmodel:\n  provider: scripted\n")
    result = runner.invoke(app, ["agents", "--project", str(project)])
    assert result.exit_code == 1
    assert "agents/broken/agent.yaml:2: max_turns" in result.output
    assert "unavailable" in result.output and "model.path" in result.output


def test_agents_check_validates_yaml_and_scripts(tmp_path: Path) -> None:
    good = _agent(tmp_path / "good", "good")
    result = runner.invoke(app, ["agents", "check", str(good.parent), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {Path(item["file"]).name for item in report} == {
        "agent.yaml",
        "greet.pym",
        "submit.pym",
        "cfg.pym",
    }
    bad = _agent(tmp_path / "bad", "bad")
    (bad.parent / "tools/greet.pym").unlink()
    result = runner.invoke(app, ["agents", "check", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:10: tools[0].pym: script not found" in result.stdout


def test_model_precedence_is_config_then_agent_then_operation() -> None:
    definition = SubagentDefinition.model_validate(
        {
            "name": "lint",
            "model": {"provider": "openai", "id": "qwen2.5"},
            "initial_context": {"system_prompt": "s", "node_context": "c"},
            "tools": [{"name": "submit_result", "description": "d"}],
        }
    )
    config = RemoraConfig(model=ModelConfig(provider="openai", id="base", timeout=5))
    assert config.model_for("lint", definition.model).id == "qwen2.5"
    assert config.model_for("lint", definition.model).timeout == 5
    config.operations["lint"] = OperationConfig(model={"id": "llama-3"})
    assert config.model_for("lint", definition.model).id == "llama-3"
    assert config.model_for("docstring").id == "base"
