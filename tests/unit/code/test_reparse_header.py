"""A change inside a function's header (``def`` up to its colon) parses the header alone and
keeps the old block: the new text still equals its whole parse, node by node."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from reparse_support import assert_same_as_whole_parse, snippet_sources

from remora.code.parsing import ParsedFile
from remora.code.parsing.reparse import reparsed_spans

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"

SOURCE = '''"""Module."""
from typing import Optional


@decorator(1)
def top(a: Optional[int], b):  # trailing
    if a:
        return b
    return None


class Outer:
    x: Optional[int] = 1

    @property
    async def value(
        self,
        other: Optional[str] = None,
    ) -> Optional[int]:
        """Value."""

        def inner(y: Optional[int]) -> None:
            print(y)

        return self.x


X = top(1, 2)
'''

HEADER_EDITS = {
    # ruff's UP007 and UP006 fixes, the commonest lint change of a typed project's signatures
    "annotation of a parameter": ("a: Optional[int], b", "a: int | None, b"),
    "annotations over several lines": (
        "other: Optional[str] = None,\n    ) -> Optional[int]:",
        "other: str | None = None,\n    ) -> int | None:",
    ),
    "parameter added": ("(a: Optional[int], b)", "(a: Optional[int], b, c=3)"),
    "renamed": ("def top(", "def top_level("),
    "async dropped": ("async def value", "def value"),
    "a nested function's header": ("def inner(y: Optional[int])", "def inner(y: int | None)"),
    "return annotation added": (
        "def top(a: Optional[int], b):",
        "def top(a: Optional[int], b) -> None:",
    ),
    "whitespace before the colon": ("-> Optional[int]:", "-> Optional[int] :"),
}


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("edit", sorted(HEADER_EDITS))
def test_an_edit_of_a_header_parses_the_header_alone(
    edit: str, newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, after = HEADER_EDITS[edit]
    old = ParsedFile(SOURCE.replace("\n", newline))
    new_text = SOURCE.replace(before, after, 1).replace("\n", newline)
    assert new_text != old.text
    sources = snippet_sources(monkeypatch)
    assert_same_as_whole_parse(old, new_text)
    assert len(sources) == 1
    assert sources[0].endswith(b" ..." + newline.encode())  # the header alone, not its block


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # text before the ``def``: a decorator is no part of the header
        ("    async def value", "    @cached\n    async def value"),
        # after the colon: the header line's comment belongs to the block
        ("b):  # trailing", "b):  # trailing, longer"),
        # the header and the block at once
        ("(a: Optional[int], b):  # trailing\n    if a:", "(a, b):  # trailing\n    if not a:"),
    ],
)
def test_other_edits_around_a_header_are_left_to_larger_parses(before: str, after: str) -> None:
    old = ParsedFile(SOURCE)
    new_text = SOURCE.replace(before, after, 1)
    if reparsed_spans(old, new_text.encode("utf-8")) is not None:
        assert_same_as_whole_parse(old, new_text)


def test_a_header_that_no_longer_parses_is_left_to_the_whole_parse() -> None:
    old = ParsedFile(SOURCE)
    broken = SOURCE.replace("(a: Optional[int], b)", "(a: Optional[int], b", 1)
    assert reparsed_spans(old, broken.encode("utf-8")) is None


@pytest.mark.parametrize("path", sorted(SAMPLE.rglob("*.py")), ids=lambda p: p.name)
def test_every_function_of_the_sample_project_renamed(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = ParsedFile(path.read_text(encoding="utf-8"))
    functions = [d for _, d in old.definitions if isinstance(d, cst.FunctionDef)]
    for definition in functions:
        name = old.spans[definition.name]
        at = name.start + name.length
        new_text = (old.data[:at] + b"_renamed" + old.data[at:]).decode("utf-8")
        sources = snippet_sources(monkeypatch)
        assert_same_as_whole_parse(old, new_text)
        assert sources[0].endswith(b" ...\n")  # the header alone
