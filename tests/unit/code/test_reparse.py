"""A new text parsed from the old parse (one definition again) equals the whole parse, node by
node: the same code, byte spans, line positions and definitions; or None, and the whole text
is parsed."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from remora.code.reparse import changed_region, reparsed_spans
from remora.code.source import ParsedFile, parse, qualified_definitions

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"

SOURCE = '''"""Module."""
import os


@decorator(1)
def top(a, b):  # trailing
    if a:
        return b
    return


class Outer:
    x = 1

    class Inner:
        def method(self) -> None:
            print(self)

    @property
    def value(self):
        """Value."""
        self.read = True  # a comment the span leaves out
        return self.x


X = top(1, 2)
'''


def nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = [node]
    for child in node.children:
        found.extend(nodes(child))
    return found


def assert_same_as_whole_parse(old: ParsedFile, new_text: str) -> None:
    tree = reparsed_spans(old, new_text.encode("utf-8"))
    assert tree is not None, "expected a partial parse"
    derived = ParsedFile(new_text, tree=(tree.module, tree.spans), definitions=tree.definitions)
    whole = ParsedFile(new_text)
    assert derived.module.code == new_text
    assert [n for n, _ in derived.definitions] == [n for n, _ in whole.definitions]
    # The definitions made from the old list are the new tree's own nodes.
    found = qualified_definitions(derived.module)
    assert [(n, id(d)) for n, d in derived.definitions] == [(n, id(d)) for n, d in found]
    pairs = list(zip(nodes(whole.module), nodes(derived.module), strict=True))
    compared = 0
    for expected, got in pairs:
        assert type(expected) is type(got)
        try:
            span = whole.spans[expected]
        except KeyError:  # LibCST gives whitespace and tokens no span
            continue
        assert derived.spans[got] == span, type(expected).__name__
        assert derived.positions[got] == whole.positions[expected]
        compared += 1
    assert compared > 50


EDITS = {
    # ruff's PLR1711 fix: the function's last line goes with its line break
    "useless return removed": ("    return\n\n\nclass Outer", "\n\nclass Outer"),
    "docstring added to a nested method": (
        "        def method(self) -> None:\n",
        '        def method(self) -> None:\n            """Doc ü."""\n',
    ),
    "decorated method renamed": ("def value(self):", "def value_of(self):"),
    "decorator argument": ("@decorator(1)", "@decorator(22)"),
    "trailing comment of the header": ("# trailing", "# trailing, longer"),
    "statement added in a class body": ("    x = 1\n", "    x = 1\n    y = [1, 2]\n"),
    # a comment line after a method's last one: which block owns it is up to the lines
    # around it, so the class holding them all is parsed again, not the method
    "comment under the method": (
        "            print(self)\n",
        "            print(self)\n            # later\n",
    ),
    "comment under the class": (
        "            print(self)\n",
        "            print(self)\n    # later\n",
    ),
    # the class ended with the method's last line; now with a line whose comment is no code
    "last line of the last method removed": (
        "        return self.x\n",
        "",
    ),
}


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edit_inside_a_definition_parses_as_the_whole_text(edit: str, newline: str) -> None:
    before, after = EDITS[edit]
    old = ParsedFile(SOURCE.replace("\n", newline))
    new_text = SOURCE.replace(before, after, 1).replace("\n", newline)
    assert new_text != old.text
    assert_same_as_whole_parse(old, new_text)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("X = top(1, 2)", "X = top(3)"),  # outside every definition
        ("    return\n\n\nclass Outer:", "\nclass Outer(Base):"),  # across two definitions
        ("def top(a, b):", "def top(a, b):\r"),  # a line break that is not the file's
        ("    if a:\n        return b\n", "    if a\n"),  # no longer parses
        ("return self.x\n\n\nX", "return self.x; X"),  # the next statement joins its line
    ],
)
def test_other_edits_are_left_to_the_whole_parse(before: str, after: str) -> None:
    old = ParsedFile(SOURCE)
    assert reparsed_spans(old, SOURCE.replace(before, after, 1).encode("utf-8")) is None


def test_every_function_of_the_sample_project_given_a_docstring() -> None:
    for path in sorted(SAMPLE.rglob("*.py")):
        old = ParsedFile(path.read_text(encoding="utf-8"))
        for _, definition in old.definitions:
            if not isinstance(definition.body, cst.IndentedBlock):
                continue
            first = old.spans[definition.body.body[0]].start
            line = old.data.rfind(b"\n", 0, first) + 1
            indent = old.data[line:first]
            new = old.data[:first] + b'"""Added."""\n' + indent + old.data[first:]
            assert_same_as_whole_parse(old, new.decode("utf-8"))


def test_parse_makes_a_changed_text_from_the_files_last_whole_parse() -> None:
    path = "pkg/reparse_case.py"
    first = parse(SOURCE, path)
    changed = parse(SOURCE.replace("def value(self):", "def value_of(self):"), path)
    assert not first.derived and changed.derived
    assert [n for n, _ in changed.definitions][-1] == "Outer.value_of"


def test_changed_region() -> None:
    assert changed_region(b"abcXdef", b"abcYYdef") == (3, 3)
    assert changed_region(b"aaaa", b"aaaaaa") == (4, 0)
    assert changed_region(b"", b"x") == (0, 0)


def test_the_files_first_text_stays_a_base_after_other_whole_parses() -> None:
    path = "pkg/reparse_bases.py"
    parse(SOURCE, path)
    for value in ("3", "4"):  # changes outside every definition: parsed whole
        assert not parse(SOURCE.replace("top(1, 2)", f"top({value})"), path).derived
    assert parse(SOURCE.replace("def value(self):", "def value_of(self):"), path).derived
