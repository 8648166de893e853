"""A model's special prompt tokens, read from its GGUF file's metadata.

Completion prompts use the model's own tokens: fill-in-the-middle needs the
three FIM markers of its vocabulary, and a chat whose reply is prefilled is
written in its chat format. The ``gguf`` package reads the whole file (tensor
index included: tens of seconds for a 0.5B model on a busy 2-core machine);
this reader walks the metadata key/value section only, as the GGUF spec lays
it out, and stops before the tensor infos.
"""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

__all__ = ["FIM_MARKERS", "PromptTokens", "prompt_tokens", "read_tokens"]

# FIM markers by family, in prompt order (prefix, suffix, middle).
FIM_MARKERS: tuple[tuple[str, str, str], ...] = (
    ("<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>"),  # Qwen2.5-Coder
    ("<fim_prefix>", "<fim_suffix>", "<fim_middle>"),  # StarCoder, SantaCoder
    ("<|fim▁begin|>", "<|fim▁hole|>", "<|fim▁end|>"),  # DeepSeek-Coder
)
_CHATML = ("<|im_start|>", "<|im_end|>")
_TOKENS_KEY = "tokenizer.ggml.tokens"

# GGUF value types: fixed sizes; 8 is a string, 9 an array.
_FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_STRING, _ARRAY = 8, 9


@dataclass(frozen=True, slots=True)
class PromptTokens:
    """What a model's vocabulary offers for completion prompts."""

    fim: tuple[str, str, str] | None
    chatml: bool


class GGUFFormatError(ValueError):
    """The file is not GGUF, or its metadata is cut short."""


def _read(fh: BinaryIO, size: int) -> bytes:
    data = fh.read(size)
    if len(data) != size:
        raise GGUFFormatError("the GGUF metadata ends early")
    return data


def _u32(fh: BinaryIO) -> int:
    return int(struct.unpack("<I", _read(fh, 4))[0])


def _u64(fh: BinaryIO) -> int:
    return int(struct.unpack("<Q", _read(fh, 8))[0])


def _string(fh: BinaryIO) -> bytes:
    return _read(fh, _u64(fh))


def _skip(fh: BinaryIO, value_type: int) -> None:
    if value_type in _FIXED:
        fh.seek(_FIXED[value_type], 1)
    elif value_type == _STRING:
        fh.seek(_u64(fh), 1)
    elif value_type == _ARRAY:
        item_type, count = _u32(fh), _u64(fh)
        if item_type in _FIXED:
            fh.seek(_FIXED[item_type] * count, 1)
        else:
            for _ in range(count):
                _skip(fh, item_type)
    else:
        raise GGUFFormatError(f"unknown GGUF value type {value_type}")


def read_tokens(path: Path) -> list[str]:
    """The vocabulary (``tokenizer.ggml.tokens``) of a GGUF file; [] when it has none."""
    with path.open("rb") as fh:
        if _read(fh, 4) != b"GGUF":
            raise GGUFFormatError(f"{path} is not a GGUF file")
        version = _u32(fh)
        if version < 2:
            raise GGUFFormatError(f"{path}: GGUF version {version} is not supported")
        _u64(fh)  # tensor count
        for _ in range(_u64(fh)):
            key = _string(fh).decode("utf-8", "replace")
            value_type = _u32(fh)
            if key != _TOKENS_KEY:
                _skip(fh, value_type)
                continue
            item_type, count = _u32(fh), _u64(fh)
            if value_type != _ARRAY or item_type != _STRING:
                raise GGUFFormatError(f"{path}: {_TOKENS_KEY} is not a list of strings")
            return [_string(fh).decode("utf-8", "replace") for _ in range(count)]
    return []


@functools.lru_cache(maxsize=8)
def prompt_tokens(path: Path) -> PromptTokens:
    """The FIM markers and chat format a model's vocabulary has (cached per file)."""
    vocabulary = set(read_tokens(path))
    fim = next((m for m in FIM_MARKERS if all(t in vocabulary for t in m)), None)
    return PromptTokens(fim, all(t in vocabulary for t in _CHATML))
