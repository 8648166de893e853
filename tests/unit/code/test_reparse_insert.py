"""Lines put first in a block that opens with a compound statement (a docstring before an ``if``
or a class's first method) are parsed alone: the result equals the whole parse node by node."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from reparse_support import assert_same_as_whole_parse, snippet_sources

from remora.code.parsing import ParsedFile
from remora.code.parsing.reparse import reparsed_spans

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"

SOURCE = '''"""Module."""


def guarded(a, b):  # trailing
    if a:
        return b
    return a


def looping(items):
    # the loop's own comment

    for item in items:
        print(item)


class Holder:
    def __init__(self, value):
        self.value = value

    @property
    def doubled(self):
        with open("x") as fh:
            return fh.read() * 2

    class Nested:
        try:
            import json
        except ImportError:
            json = None
'''

INSERTIONS = {
    "a function's docstring before an if": (
        "def guarded(a, b):  # trailing\n",
        '    """Doc ü."""\n',
    ),
    "before a comment owned by the loop": ("def looping(items):\n", '    """Doc."""\n'),
    "a class's docstring before its first method": ("class Holder:\n", '    """Holds."""\n'),
    "a method's docstring before a with": ("    def doubled(self):\n", '        """Twice."""\n'),
    "a nested class's docstring before a try": ("    class Nested:\n", '        """N."""\n'),
    "two statements with a blank line": ("class Holder:\n", '    """Holds."""\n\n    x = 1\n'),
    "a comment, then a statement": ("class Holder:\n", "    # why\n    x: int = 0\n"),
}


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("name", sorted(INSERTIONS))
def test_lines_put_before_a_compound_statement_are_parsed_alone(
    name: str, newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    header, lines = INSERTIONS[name]
    old = ParsedFile(SOURCE.replace("\n", newline))
    new_text = SOURCE.replace(header, header + lines, 1).replace("\n", newline)
    sources = snippet_sources(monkeypatch)
    assert_same_as_whole_parse(old, new_text)
    assert sources == [("if 1:\n" + lines).replace("\n", newline).encode("utf-8")]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_decorator_put_before_a_first_method_is_the_methods(
    newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = ParsedFile(SOURCE.replace("\n", newline))
    new_text = SOURCE.replace("class Holder:\n", "class Holder:\n    @staticmethod\n", 1)
    sources = snippet_sources(monkeypatch)
    assert_same_as_whole_parse(old, new_text.replace("\n", newline))
    # Tried as the class's statements first (they do not parse), then as the method's lines.
    assert sources[0] == "if 1:\n    @staticmethod\n".replace("\n", newline).encode("utf-8")
    assert all(len(source) < 120 for source in sources)  # never the class or the file


@pytest.mark.parametrize(
    ("header", "lines"),
    [
        ("class Holder:\n", '    """Holds."""\n    # a comment last\n'),  # the method's, or not
        ("class Holder:\n", "    def first(self):\n        pass\n"),  # a definition added
        ("class Holder:\n", "      x = 1\n"),  # not the block's indentation
        ("class Holder:\n", "    if x:\n        y = 1\n"),  # a compound statement
        ("class Holder:\n", '    """Holds."""'),  # not a whole line
    ],
)
def test_other_insertions_are_left_to_larger_parses(
    header: str, lines: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = ParsedFile(SOURCE)
    new_text = SOURCE.replace(header, header + lines, 1)
    sources = snippet_sources(monkeypatch)
    if reparsed_spans(old, new_text.encode("utf-8")) is not None:
        assert max(map(len, sources)) > len(lines) + len("if 1:\n")  # the definition again
        assert_same_as_whole_parse(old, new_text)


def test_every_block_of_the_sample_project_given_a_first_line() -> None:
    given = 0
    for path in sorted(SAMPLE.rglob("*.py")):
        given += _first_lines_given(ParsedFile(path.read_text(encoding="utf-8")))
    assert given > 20


def _first_lines_given(old: ParsedFile) -> int:
    given = 0
    for _, definition in old.definitions:
        block = definition.body
        if not isinstance(block, cst.IndentedBlock):
            continue
        header = old.spans[block.header]
        at = header.start + header.length
        first = old.spans[block.body[0]].start
        indent = old.data[old.data.rfind(b"\n", 0, first) + 1 : first]
        for lines in (b'"""Added."""\n', b"x = 1\n\n"):
            new = (
                old.data[:at]
                + b"".join(
                    indent + line + b"\n" if line else b"\n" for line in lines.split(b"\n")[:-1]
                )
                + old.data[at:]
            )
            assert_same_as_whole_parse(old, new.decode("utf-8"))
            given += 1
    return given
