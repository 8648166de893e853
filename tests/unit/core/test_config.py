"""Configuration: precedence, sources, and every kind of bad input."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from pydantic import ValidationError

from remora.agents.registry import AgentRegistry
from remora.config import RemoraConfig, RunnerConfig, load_config
from remora.coordinator import parse_operations
from remora.errors import (
    CONFIG_INVALID_VALUE,
    CONFIG_INVALID_YAML,
    CONFIG_NOT_FOUND,
    CONFIG_UNKNOWN_KEY,
    RemoraError,
)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_file(tmp_path: Path) -> None:
    loaded = load_config(project_root=tmp_path, environ={})
    assert loaded.file is None
    assert loaded.config.model.provider == "embedded"
    assert loaded.source_of("runner.max_turns") == "default"
    assert set(loaded.config.operations) == {"lint", "docstring", "test", "sample_data"}


def test_docstring_runs_only_when_asked_for(tmp_path: Path) -> None:
    registry = AgentRegistry(None, project_root=tmp_path)
    default = load_config(project_root=tmp_path, environ={}).config
    assert parse_operations(None, default, registry) == ["lint", "test", "sample_data"]
    assert parse_operations("docstring", default, registry) == ["docstring"]
    write(tmp_path / "remora.yaml", "operations:\n  docstring:\n    enabled: true\n")
    enabled = load_config(project_root=tmp_path, environ={}).config
    assert parse_operations(None, enabled, registry) == ["lint", "docstring", "test", "sample_data"]
    assert enabled.operations["docstring"].options == {"style": "google"}


def test_precedence_file_then_env_then_flag(tmp_path: Path) -> None:
    write(
        tmp_path / "remora.yaml", "runner:\n  max_turns: 4\n  max_tokens: 100\n  temperature: 0.3\n"
    )
    env = {"REMORA_RUNNER__MAX_TOKENS": "200", "REMORA_RUNNER__TEMPERATURE": "0.4"}
    loaded = load_config(
        overrides={"runner": {"temperature": 0.9}}, project_root=tmp_path, environ=env
    )
    runner = loaded.config.runner
    assert (runner.max_turns, runner.max_tokens, runner.temperature) == (4, 200, 0.9)
    assert loaded.source_of("runner.max_turns").startswith("file ")
    assert loaded.source_of("runner.max_tokens") == "env REMORA_RUNNER__MAX_TOKENS"
    assert loaded.source_of("runner.temperature") == "flag"
    assert loaded.source_of("model.id") == "default"


def test_explicit_config_path_wins_over_project_file(tmp_path: Path) -> None:
    write(tmp_path / "remora.yaml", "runner:\n  max_turns: 4\n")
    other = write(tmp_path / "other.yaml", "runner:\n  max_turns: 5\n")
    assert load_config(other, project_root=tmp_path, environ={}).config.runner.max_turns == 5


def test_missing_explicit_config_file(tmp_path: Path) -> None:
    with pytest.raises(RemoraError) as info:
        load_config(tmp_path / "nope.yaml", project_root=tmp_path, environ={})
    assert info.value.code == CONFIG_NOT_FOUND
    assert info.value.exit_code == 3


def test_invalid_yaml_names_file_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path / "remora.yaml", "runner:\n  max_turns: [1, 2\nmodel: {}\n")
    with pytest.raises(RemoraError) as info:
        load_config(project_root=tmp_path, environ={})
    assert info.value.code == CONFIG_INVALID_YAML
    assert f"{path}:3:" in info.value.message


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    write(tmp_path / "remora.yaml", "- a\n- b\n")
    with pytest.raises(RemoraError) as info:
        load_config(project_root=tmp_path, environ={})
    assert info.value.code == CONFIG_INVALID_YAML


def test_wrong_type_names_the_field_and_its_line(tmp_path: Path) -> None:
    path = write(tmp_path / "remora.yaml", "model:\n  id: x\nrunner:\n  max_turns: many\n")
    with pytest.raises(RemoraError) as info:
        load_config(project_root=tmp_path, environ={})
    assert info.value.code == CONFIG_INVALID_VALUE
    assert "'runner.max_turns'" in info.value.message
    assert f"{path}:4" in info.value.message


def test_unknown_key_suggests_the_closest(tmp_path: Path) -> None:
    write(tmp_path / "remora.yaml", "runner:\n  max_turn: 3\n")
    with pytest.raises(RemoraError) as info:
        load_config(project_root=tmp_path, environ={})
    assert info.value.code == CONFIG_UNKNOWN_KEY
    assert "runner.max_turn" in info.value.message
    assert "max_turns" in info.value.hint


def test_unknown_section_suggests_the_closest(tmp_path: Path) -> None:
    write(tmp_path / "remora.yaml", "sandbx:\n  limits: strict\n")
    with pytest.raises(RemoraError) as info:
        load_config(project_root=tmp_path, environ={})
    assert "'sandbox'" in info.value.hint


def test_unknown_key_from_env_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(RemoraError) as info:
        load_config(project_root=tmp_path, environ={"REMORA_RUNNER__MAXTURNS": "3"})
    assert "REMORA_RUNNER__MAXTURNS" in info.value.message


def test_unknown_key_inside_operation(tmp_path: Path) -> None:
    write(tmp_path / "remora.yaml", "operations:\n  lint:\n    enabld: false\n")
    with pytest.raises(RemoraError) as info:
        load_config(project_root=tmp_path, environ={})
    assert "enabled" in info.value.hint


def test_operation_model_override(tmp_path: Path) -> None:
    write(
        tmp_path / "remora.yaml",
        "operations:\n  lint:\n    model: {provider: openai, base_url: 'http://x/v1'}\n",
    )
    config = load_config(project_root=tmp_path, environ={}).config
    assert config.model_for("lint").provider == "openai"
    assert config.model_for("docstring").provider == "embedded"


@pytest.mark.parametrize(
    ("settings", "environ", "docstring_model"),
    [
        # Nothing named: the docstring operation loads its own embedded model.
        ("", {}, "qwen2.5-coder-1.5b"),
        ("model: {n_ctx_per_slot: 8192}\n", {}, "qwen2.5-coder-1.5b"),
        # A model the user names, anywhere, is the one loaded.
        ("model: {id: qwen2.5-coder-0.5b}\n", {}, "qwen2.5-coder-0.5b"),
        ("", {"REMORA_MODEL__ID": "smollm2-135m"}, "smollm2-135m"),
        ("", {"REMORA_MODEL__PATH": "/models/mine.gguf"}, "qwen2.5-coder-0.5b"),
        ("operations:\n  docstring:\n    model: {id: smollm2-135m}\n", {}, "smollm2-135m"),
        ("operations:\n  docstring:\n    embedded_model: null\n", {}, "qwen2.5-coder-0.5b"),
        ("model: {provider: openai, id: served}\n", {}, "served"),
    ],
)
def test_the_docstring_operation_loads_its_embedded_model_unless_one_is_named(
    tmp_path: Path, settings: str, environ: dict[str, str], docstring_model: str
) -> None:
    write(tmp_path / "remora.yaml", settings)
    config = load_config(project_root=tmp_path, environ=environ).config
    assert config.model_for("docstring").id == docstring_model
    # The other operations keep the model section's.
    assert config.model_for("lint") == config.model


def test_operation_model_override_rejects_unknown_keys(tmp_path: Path) -> None:
    write(tmp_path / "remora.yaml", "operations:\n  lint:\n    model: {providr: openai}\n")
    with pytest.raises(RemoraError):
        load_config(project_root=tmp_path, environ={})


@pytest.mark.parametrize("value", ["auto", "none", "required"])
def test_tool_choice_valid_values(value: str) -> None:
    assert RunnerConfig(tool_choice=value).tool_choice == value


def test_tool_choice_invalid_value_rejected() -> None:
    with pytest.raises(ValidationError, match="tool_choice"):
        RunnerConfig(tool_choice="force")


def test_required_with_functiongemma_warns() -> None:
    with pytest.warns(UserWarning, match="not supported by model profile 'functiongemma'"):
        RemoraConfig.model_validate(
            {"model": {"id": "functiongemma-270m"}, "runner": {"tool_choice": "required"}}
        )


def test_required_with_llama_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        RemoraConfig.model_validate(
            {"model": {"id": "llama-3.1-8b"}, "runner": {"tool_choice": "required"}}
        )


def test_unknown_profile_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(RemoraError) as info:
        load_config(
            overrides={"runner": {"model_profile": "nope"}}, project_root=tmp_path, environ={}
        )
    assert "unknown model profile" in info.value.message


def test_load_warning_surfaces_once(tmp_path: Path) -> None:
    with pytest.warns(UserWarning) as record:
        load_config(
            overrides={"model": {"id": "functiongemma"}, "runner": {"tool_choice": "required"}},
            project_root=tmp_path,
            environ={},
        )
    assert len(record) == 1


def test_env_names_outside_the_config_are_ignored(tmp_path: Path) -> None:
    loaded = load_config(project_root=tmp_path, environ={"REMORA_DEBUG": "1"})
    assert loaded.sources == {}


def test_env_top_level_key(tmp_path: Path) -> None:
    loaded = load_config(project_root=tmp_path, environ={"REMORA_AGENTS_DIR": "my_agents"})
    assert loaded.config.agents_dir == Path("my_agents")
