"""source.byte_spans agrees with LibCST's own resolution of ByteSpanPositionProvider."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import ByteSpanPositionProvider, MetadataWrapper

from remora.code.parsing.source import byte_spans

SRC = Path(__file__).resolve().parents[3] / "src" / "remora"
# A spread of the project's own files, each large enough to hold more than a docstring.
FILES = [p for p in sorted(SRC.rglob("*.py")) if p.stat().st_size > 2000][::7]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_byte_spans_match_the_metadata_wrapper(path: Path) -> None:
    module = cst.parse_module(path.read_text("utf-8"))
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ByteSpanPositionProvider)
    spans = byte_spans(module)
    assert spans == dict(expected)
    assert len(spans) > 10


def test_byte_spans_count_bytes_not_characters() -> None:
    module = cst.parse_module("name = 'é'\nother = 1\r\n")
    spans = byte_spans(module)
    second = module.body[1]
    assert spans[second].start == len("name = 'é'\n".encode())
