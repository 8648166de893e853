"""A summary's "string" where the code has bytes is refused (docstring/text_kinds.py).

dicttoxml's reviewer: "By default (return_bytes=True) dicttoxml returns UTF-8 encoded bytes,
not a string"; webencodings' of "Decode the input string …": "the input is bytes rather than
a string". Where the code shows no bytes, a string stays a string.
"""

from __future__ import annotations

import pytest
from summary_support import summary_refusal

SOURCE = """\
MARK = b"\\x00\\x01"


def _strip_mark(data):
    if data.startswith((MARK, b"\\x02")):
        return data[2:]
    return data


def _split_mark(blob):
    if blob[:2] == b"\\x00\\x01":
        return blob[:2], blob[2:]
    return None, blob


def render(items, as_bytes=True):
    text = ",".join(items)
    if not as_bytes:
        return text
    return text.encode("utf-8")


def render_text(items) -> str:
    return ",".join(items)


def unpack(payload, errors="strict"):
    head, rest = _split_mark(payload)
    return rest.decode("ascii", errors)


def unpack_fresh(payload):
    payload = payload.encode("ascii")
    return _split_mark(payload)


def unquote(quoted, encoding="utf-8"):
    if not isinstance(quoted, bytes):
        quoted = quoted.encode(encoding)
    return b"".join(quoted.split(b"%")).decode(encoding)


def shout(text):
    return text.upper() + "!"


def raw_length(buffer: bytes):
    return len(buffer)


class Reader:
    def __init__(self):
        self.pending = b""

    def feed(self, chunk):
        return self._strip(chunk)

    def _strip(self, data):
        return data + b"\\n"
"""


def refused(kind: str, name: str, summary: str) -> str:
    return summary_refusal(SOURCE, "pkg/codec.py", kind, name, summary)


@pytest.mark.parametrize(
    ("kind", "name", "summary", "shown"),
    [
        # What comes back: the default path encodes.
        ("function", "render", "Join the items into a comma-separated string.", "text.encode"),
        ("function", "render", "Return the items as a string.", "text.encode"),
        # What the call is given: decoded after a helper compares it with bytes.
        ("function", "unpack", "Decode the payload string with the given errors.", "_split_mark"),
        ("function", "unpack", "Split the mark off a string and decode the rest.", "_split_mark"),
        ("function", "raw_length", "Count the characters of the string.", "buffer: bytes"),
        ("method", "Reader.feed", "Strip the given string chunk.", "_strip"),
    ],
)
def test_a_string_the_code_treats_as_bytes_is_refused(
    kind: str, name: str, summary: str, shown: str
) -> None:
    reason = refused(kind, name, summary)
    assert "string" in reason and "bytes" in reason and shown in reason, reason


@pytest.mark.parametrize(
    ("kind", "name", "summary"),
    [
        ("function", "render_text", "Join the items into a comma-separated string."),
        ("function", "shout", "Uppercase the string and add an exclamation mark."),
        # uritools' uridecode: text is encoded first, bytes taken as they are.
        ("function", "unquote", "Remove the percent signs of a quoted string."),
        # The helper sees what the function encoded: its own parameter was text.
        ("function", "unpack_fresh", "Encode the payload string and split its mark off."),
        # "string" said of neither the input nor the result.
        ("function", "unpack", "Decode the payload with the given error policy."),
    ],
)
def test_a_string_the_code_shows_no_bytes_for_stands(kind: str, name: str, summary: str) -> None:
    assert "bytes" not in refused(kind, name, summary)
