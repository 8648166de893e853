"""ParsedFile.line_of numbers lines as LibCST's own positions do, whatever breaks the lines:
LF, CRLF, CR alone, or a mix (a CR-only file's lines were all line 1 when LFs were counted)."""

from __future__ import annotations

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from remora.code.parsing import parse

SOURCE = "import os\n\n\ndef a():\n    return 1\n\n\nclass B:\n    def c(self):\n        pass\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_definitions_start_and_end_where_libcst_puts_them(newline: str) -> None:
    text = SOURCE.replace("\n", newline)
    file = parse(text, f"m_{len(newline)}_{newline == chr(13)}.py")
    wrapper = MetadataWrapper(cst.parse_module(text))
    positions = wrapper.resolve(PositionProvider)
    theirs = sorted(
        (p.start.line, p.end.line)
        for n, p in positions.items()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef))
    )
    ours = sorted(
        (
            file.line_of(file.spans[n].start),
            file.line_of(file.spans[n].start + file.spans[n].length - 1),
        )
        for n in file.spans
        if isinstance(n, (cst.FunctionDef, cst.ClassDef))
    )
    assert ours == theirs == [(4, 5), (8, 10), (9, 10)]


def test_the_lf_of_a_crlf_is_on_the_line_of_its_cr() -> None:
    data = "x = 1\r\ny = 2\rz = 3\n"
    file = parse(data, "mixed.py")
    lines = [file.line_of(offset) for offset in range(len(data))]
    assert lines == [1] * 7 + [2] * 6 + [3] * 6
