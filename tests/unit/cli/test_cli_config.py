"""``remora config`` and the shared options, through typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remora.cli import app
from remora.cli.options import SharedOptions

runner = CliRunner()


def test_shared_options_empty_gives_no_overrides() -> None:
    assert SharedOptions().to_overrides() == {}


def test_shared_options_partial() -> None:
    opts = SharedOptions(max_turns=5, model="qwen2.5", events_file="-")
    assert opts.to_overrides() == {
        "runner": {"max_turns": 5},
        "model": {"id": "qwen2.5"},
        "events": {"output": "-", "enabled": True},
    }


def test_config_json_reports_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "remora.yaml").write_text("runner:\n  max_turns: 4\n")
    monkeypatch.setenv("REMORA_RUNNER__MAX_TOKENS", "300")
    result = runner.invoke(
        app, ["config", "--project", str(tmp_path), "--temperature", "0.5", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["values"]["runner"]["max_turns"] == 4
    assert data["sources"]["runner.max_turns"].startswith("file ")
    assert data["sources"]["runner.max_tokens"] == "env REMORA_RUNNER__MAX_TOKENS"
    assert data["sources"]["runner.temperature"] == "flag"


def test_config_table_marks_sources(tmp_path: Path) -> None:
    result = runner.invoke(app, ["config", "--project", str(tmp_path), "--max-turns", "2"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if "max_turns:" in x)
    assert "# flag" in line


def test_shared_options_exist_on_config_help() -> None:
    result = runner.invoke(app, ["config", "--help"])
    for flag in ("--config", "--model", "--max-turns", "--tool-choice", "--events-file"):
        assert flag in result.stdout
