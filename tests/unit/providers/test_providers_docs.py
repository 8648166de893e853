"""Every remora.yaml in docs/providers.md is accepted by the configuration and
builds its provider; every extra-openai-models.yaml entry has llm's keys."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from remora.config import load_config
from remora.providers.factory import create_provider

DOC = Path(__file__).resolve().parents[3] / "docs" / "providers.md"
BLOCKS = re.findall(r"```yaml\n(.*?)```", DOC.read_text(), re.DOTALL)
CONFIGS = [b for b in BLOCKS if b.startswith("model:")]
LLM_MODELS = [b for b in BLOCKS if b.startswith("- model_id:")]


# The profile each example ends up with (from model.profile, else from the id).
EXPECTED_PROFILE = {
    "functiongemma": "functiongemma",
    "ollama/functiongemma": "functiongemma",
    "google/functiongemma-270m-it": "functiongemma",
    "Qwen/Qwen3-4B-Instruct-2507": "qwen",
    "qwen2.5-coder-1.5b": "qwen_small",
    "qwen2.5-coder-0.5b": "qwen_small",
    "functiongemma-local": "functiongemma_text",
    "gpt-4o-mini": "default",
    "local-qwen": "qwen",
    "gemini-2.5-flash": "gemini",
}


def test_the_doc_has_a_section_per_backend() -> None:
    headings = re.findall(r"^## (.+)$", DOC.read_text(), re.MULTILINE)
    assert headings == [
        "The embedded model",
        "Ollama with FunctionGemma",
        "vLLM",
        "A llama.cpp server",
        "The `llm` library",
        "Gemini",
    ]
    assert {yaml.safe_load(b)["model"]["id"] for b in CONFIGS} == set(EXPECTED_PROFILE)


@pytest.mark.parametrize("block", CONFIGS)
def test_config_example_loads_and_builds(block: str, tmp_path: Path) -> None:
    config_file = tmp_path / "remora.yaml"
    config_file.write_text(block)
    loaded = load_config(config_file, project_root=tmp_path, environ={})
    provider = create_provider(loaded.config.model)
    assert provider.profile.name == EXPECTED_PROFILE[loaded.config.model.id]


@pytest.mark.parametrize("block", LLM_MODELS)
def test_llm_extra_models_example(block: str) -> None:
    for entry in yaml.safe_load(block):
        assert {"model_id", "model_name", "api_base"} <= set(entry)
        assert set(entry) <= {"model_id", "model_name", "api_base", "supports_tools"}
