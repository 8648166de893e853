"""line_breaks: the bounded searches give what the whole-file searches gave, on every text of
up to seven bytes of ``a``, LF and CR, at every offset."""

from __future__ import annotations

import itertools

from remora.code.parsing import line_starts
from remora.code.parsing.line_breaks import line_break_at, line_start_at


def _texts() -> list[bytes]:
    return [bytes(chars) for size in range(8) for chars in itertools.product(b"a\n\r", repeat=size)]


def test_line_break_at_is_the_nearest_lf_or_cr() -> None:
    for data in _texts():
        for offset in range(len(data) + 1):
            found = [i for i in (data.find(b"\n", offset), data.find(b"\r", offset)) if i >= 0]
            assert line_break_at(data, offset) == min(found, default=len(data)), (data, offset)


def test_line_start_at_follows_the_last_lf_or_cr() -> None:
    for data in _texts():
        for offset in range(len(data) + 1):
            expected = max(data.rfind(b"\n", 0, offset), data.rfind(b"\r", 0, offset)) + 1
            assert line_start_at(data, offset) == expected, (data, offset)


def test_line_starts_break_at_lf_crlf_and_cr_only() -> None:
    assert line_starts(b"a\nb\r\nc\rd\x0ce") == [0, 2, 5, 7]
    assert line_starts(b"a\n") == [0, 2]
    assert line_starts(b"") == [0]
