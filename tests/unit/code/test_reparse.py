"""A new text parsed from the old parse (one definition again) equals the whole parse, node by
node: the same code, byte spans, line positions and definitions; or None, and the whole text
is parsed."""

from __future__ import annotations

import re
import sys
import threading
import time
from pathlib import Path
from typing import Any

import libcst as cst
import pytest
from reparse_support import assert_same_as_whole_parse, snippet_sources

import remora.code.parsing.parse_cache as parse_cache
from remora.code.docstring.edit import with_docstring
from remora.code.parsing import NodeRef, ParsedFile, locate, parse, qualified_definitions
from remora.code.parsing.reparse import changed_region, reparsed_spans

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


EDITS = {
    # ruff's PLR1711 fix: the function's last line goes with its line break
    "useless return removed": ("    return\n\n\nclass Outer", "\n\nclass Outer"),
    "docstring added to a nested method": (
        "        def method(self) -> None:\n",
        '        def method(self) -> None:\n            """Doc ü."""\n',
    ),
    # the class's block starts where its first statement does: here the decorator's line
    "decorator added to a class's first method": (
        "        def method(self)",
        "        @staticmethod\n        def method(self)",
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


HEADED = "#!/usr/bin/env python\n# Licence: MIT.\n\n" + SOURCE.split("\n", 1)[1]
HEAD_EDITS = {
    "module docstring replaced": (SOURCE, '"""Module."""', '"""Module, longer.\n\nTwo ü."""'),
    "module docstring added": (SOURCE.split("\n", 1)[1], "import os", '"""Added."""\n\nimport os'),
    "docstring added under the file's comments": (
        HEADED,
        "import os",
        '"""Added."""\n\nimport os',
    ),
    "a statement joins the first line": (SOURCE, '"""Module."""\n', '"""Module."""; import sys\n'),
    # a text is parsed as text (LibCST's encoding is utf-8 then): a coding line is a comment
    "coding line added": (SOURCE, '"""Module."""\n', '# -*- coding: latin-1 -*-\n"""Module."""\n'),
    "statements before the first": (SOURCE, '"""Module."""\n', '"""Module."""\nA = 1\nB = 2\n'),
    "the file's comments removed": (HEADED, "#!/usr/bin/env python\n# Licence: MIT.\n\n", ""),
}


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("edit", sorted(HEAD_EDITS))
def test_an_edit_of_the_module_head_parses_as_the_whole_text(edit: str, newline: str) -> None:
    source, before, after = HEAD_EDITS[edit]
    old = ParsedFile(source.replace("\n", newline))
    new_text = source.replace(before, after, 1).replace("\n", newline)
    assert new_text != old.text
    assert_same_as_whole_parse(old, new_text)


@pytest.mark.parametrize(
    ("source", "before", "after"),
    [
        # the comment is the next statement's in the whole text, the head's footer alone
        (SOURCE, '"""Module."""\n', '"""Module."""\n# about os\n'),
        (SOURCE, '"""Module."""\n', '"""Module."""\ndef first():\n    pass\n'),
        (SOURCE, "import os\n", "import os\r\n"),  # a line ending that is not the file's
        ("def first():\n    pass\n", "def first", '"""Doc."""\ndef first'),  # compound first
        (SOURCE, "import os\n\n\n@", "import os\nimport re\n@"),  # past the first statement
    ],
)
def test_other_head_edits_are_left_to_the_whole_parse(source: str, before: str, after: str) -> None:
    old = ParsedFile(source)
    assert reparsed_spans(old, source.replace(before, after, 1).encode("utf-8")) is None


# LibCST gives a block the lines after it up to the last one indented as deep as its body.
MARGIN = "def f(a):\n    x = a\n    return x\n\n# about g\ndef g():\n    pass\n"


def test_a_comment_at_the_margin_after_a_function_leaves_it_alone() -> None:
    old = ParsedFile(MARGIN)
    assert_same_as_whole_parse(old, MARGIN.replace("(a):", "(a, b=1):"))


@pytest.mark.parametrize("after", ["    return x\n    # the block's\n", "    return x\n    \n"])
def test_lines_the_block_may_own_leave_the_function_to_the_whole_parse(after: str) -> None:
    source = MARGIN.replace("    return x\n", after)
    # its block changed: which of the lines after it the block owns, only the whole text says
    new = source.replace("    x = a\n", "    for x in a:\n        pass\n").encode("utf-8")
    assert reparsed_spans(ParsedFile(source), new) is None
    # its header alone: the block, and the lines after it, stay as they are
    assert_same_as_whole_parse(ParsedFile(source), source.replace("(a):", "(a, b=1):"))


BLOCK_EDITS = {
    "docstring added before the block's comment lines": (
        "    x = a\n",
        '    """Doc."""\n    x = a\n',
    ),
    "first statement changed": ("    x = a\n", "    x = a + 1  # more\n"),
    "docstring added above a comment": ("(a):\n", '(a):\n    """Doc\n\n    Long."""\n    # x\n'),
    "the only statement": ("    pass\n", '    """Doc."""\n    pass\n'),
    "statements added at the top": ("(a):\n", "(a):\n    y = 1; z = 2\n    w = 3\n"),
}


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("edit", sorted(BLOCK_EDITS))
def test_an_edit_of_a_blocks_head_parses_as_the_whole_text(edit: str, newline: str) -> None:
    before, after = BLOCK_EDITS[edit]
    source = MARGIN.replace("    return x\n", "    return x\n    # the block's\n    \n")
    old = ParsedFile((source * 3).replace("\n", newline))
    new_text = (source * 3).replace(before, after, 1).replace("\n", newline)
    assert new_text != old.text
    assert_same_as_whole_parse(old, new_text)


@pytest.mark.parametrize(
    "after",
    [
        "(a):\n  y = 1\n",  # another indentation than the block's
        "(a):\n    # a comment only\n",  # whose is up to the next lines
        "(a):\n    if a:\n        pass\n",  # a compound statement
    ],
)
def test_other_head_edits_of_a_block_are_left_to_other_parses(after: str) -> None:
    old = ParsedFile(MARGIN)
    tree = reparsed_spans(old, MARGIN.replace("(a):\n", after, 1).encode("utf-8"))
    if tree is not None:  # the whole function again, never the head alone
        assert_same_as_whole_parse(old, MARGIN.replace("(a):\n", after, 1))


def test_every_module_of_the_sample_project_given_a_docstring() -> None:
    for path in sorted(SAMPLE.rglob("*.py")):
        old = ParsedFile(path.read_text(encoding="utf-8"))
        node = locate(old, NodeRef("file", str(path)))
        for words in ("Added.", "Added, at length.\n\nOver three\nlines."):
            assert_same_as_whole_parse(old, with_docstring(node, words))


def test_threads_asking_for_one_new_text_parse_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    whole: list[str] = []

    class Counted(ParsedFile):
        def __init__(self, text: str, path: str = "<text>", **given: Any) -> None:
            if given.get("tree") is None:
                whole.append(path)
                time.sleep(0.05)  # both threads are past the small cache by now
            super().__init__(text, path, **given)

    monkeypatch.setattr(parse_cache, "ParsedFile", Counted)
    start = threading.Barrier(2)
    got: list[ParsedFile] = []

    def ask() -> None:
        start.wait()
        got.append(parse(SOURCE, "pkg/threads_case.py"))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert whole == ["pkg/threads_case.py"]
    assert got[0] is got[1]


def libcst_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts LibCST parses from now on."""
    texts: list[str] = []
    real = cst.parse_module

    def counted(text: str, *args: Any, **kwargs: Any) -> cst.Module:
        texts.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(cst, "parse_module", counted)
    return texts


def refused_without_libcst(
    monkeypatch: pytest.MonkeyPatch, path: str, broken: str, line: int
) -> list[str]:
    """``broken`` (a change of SOURCE, kept as ``path``'s base) refused at ``line`` with no
    LibCST parse; the texts LibCST parses from now on."""
    parse(SOURCE, path)  # the base: the interpreter reads it
    libcst_parses = libcst_texts(monkeypatch)
    with pytest.raises(ValueError, match=rf"^{re.escape(path)}:{line}: cannot parse the file \("):
        parse(broken, path)
    assert libcst_parses == []
    return libcst_parses


def test_a_text_the_interpreter_refuses_is_refused_without_libcst(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = "pkg/refused_case.py"
    broken = SOURCE.replace("X = top(1, 2)", "X = top(1, 2\nY = 3")
    libcst_parses = refused_without_libcst(monkeypatch, path, broken, 26)
    # a text it reads still gets LibCST's whole parse, and LibCST's verdict
    assert not parse(SOURCE.replace("top(1, 2)", "top(5)"), path).derived
    assert len(libcst_parses) == 1


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="PEP 695 is newer syntax on 3.11 only")
def test_newer_syntax_than_the_interpreters_is_left_to_libcst() -> None:
    path = "pkg/newer_case.py"
    generic = "def first[T](items: list[T]) -> T:\n    return items[0]\n\n\nX = 1\n"
    assert not parse(generic, path).python_reads  # PEP 695, read by LibCST on 3.11
    assert not parse(generic.replace("X = 1", "X = 2"), path).derived
    with pytest.raises(ValueError, match=r"newer_case\.py:5: cannot parse"):
        parse(generic.replace("X = 1", "X = (1"), path)


NESTED = """
import re
import sys


@decorator
async def first():
    class Local:
        def method(self): ...
    return Local


if sys.version_info >= (3, 12):
    def picked(): ...
elif sys.platform == "win32":
    def picked(): ...
else:
    class picked: ...

try:
    def attempt(): ...
except ImportError:
    def fallback(): ...
else:
    def otherwise(): ...
finally:
    def cleanup(): ...

for item in range(2):
    def looped(): ...
else:
    def after_loop(): ...

with open(__file__) as handle:
    def inside_with(): ...

while False:
    def in_while(): ...
else:
    def after_while(): ...

try:
    pass
except* ValueError:
    def star_handler(): ...

match sys.argv:
    case [_]:
        def matched(): ...
    case _:
        def unmatched(): ...

lambda: None
"""


class _Visited(cst.CSTVisitor):
    """The LibCST visit qualified_definitions replaced: the reference it must equal."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.found: list[tuple[str, cst.CSTNode]] = []

    def _enter(self, node: cst.FunctionDef | cst.ClassDef) -> None:
        self.stack.append(node.name.value)
        self.found.append((".".join(self.stack), node))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._enter(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._enter(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.stack.pop()


@pytest.mark.parametrize(
    "path", [None, *sorted(SAMPLE.rglob("*.py"))], ids=lambda p: p.name if p else "nested"
)
def test_definitions_by_field_walk_equal_a_libcst_visit(path: Path | None) -> None:
    module = cst.parse_module(path.read_text() if path else NESTED + SOURCE)
    visited = _Visited()
    module.visit(visited)
    walked = list(qualified_definitions(module))
    assert [(n, id(d)) for n, d in walked] == [(n, id(d)) for n, d in visited.found]
    assert path is not None or len(walked) == 23


STATEMENTS = '''"""Module."""
import os
import re  # for patterns
from typing import (
    Any,
    cast,
)

# constants
A = 1
B: int = 2


class C:
    """C."""

    x = 1
    # about y
    y = [
        1,
        2,
    ]
    z: int

    def m(self):
        return self.x

    w = 3
'''
STATEMENT_EDITS = {
    "unused import removed": ("import re  # for patterns\n", ""),
    "import changed": ("import os\n", "import os.path\n"),
    "multi-line import shortened": ("    Any,\n    cast,\n", "    Any,\n"),
    "constant changed": ("A = 1\n", "A = 10\n"),
    "constant added": ("A = 1\n", "A = 1\nA2 = 11; A3 = 12\n"),
    "comment before a constant": ("# constants\n", "# constants, two\n\n"),
    "class attribute changed": ("    x = 1\n", "    x = 2  # two\n"),
    "attribute joined on one line": (
        "    y = [\n        1,\n        2,\n    ]\n",
        "    y = [1, 2]\n",
    ),
    "attribute removed": ("    z: int\n", ""),
    "class docstring replaced": ('    """C."""\n', '    """C, longer ü."""\n'),
    # after a method: the lines between its block and the attribute stay whose they were
    "attribute after a method changed": ("    w = 3\n", "    w = 4\n"),
    "attribute after a method annotated": ("    w = 3\n", "    w: int = 3  # w\n"),
    "attribute added after a method's": (
        "    w = 3\n",
        "    w = 3\n    v = [\n        4,\n    ]\n",
    ),
}


@pytest.mark.parametrize(
    "lines",
    ["\n", "    # w\n", "\n\n", "        # the method's\n\n", "    \n  # odd\n", "", "    \n"],
)
@pytest.mark.parametrize(
    "attribute", ["    w = 4\n", "    \n    w = 4\n", "    w = 3\n    v = 5\n", ""]
)
def test_lines_between_a_method_and_an_attribute_edited(lines: str, attribute: str) -> None:
    old = ParsedFile(STATEMENTS)
    new_text = STATEMENTS.replace(
        "return self.x\n\n    w = 3\n", "return self.x\n" + lines + attribute
    )
    tree = reparsed_spans(old, new_text.encode("utf-8"))
    if lines == "\n" and attribute == "    w = 4\n":  # the lines between as they were
        assert tree is not None
    if tree is not None:
        assert_same_as_whole_parse(old, new_text)


def test_a_broken_definition_is_refused_by_the_interpreter_before_libcst(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # In a compound statement of a function: its definition is the snippet tried.
    broken = SOURCE.replace("    if a:\n", "    if a\n")
    refused_without_libcst(monkeypatch, "pkg/python_first.py", broken, 7)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("edit", sorted(STATEMENT_EDITS))
def test_an_edit_of_simple_statements_parses_them_alone(
    edit: str, newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, after = STATEMENT_EDITS[edit]
    old = ParsedFile(STATEMENTS.replace("\n", newline))
    new_text = STATEMENTS.replace(before, after, 1).replace("\n", newline)
    sources = snippet_sources(monkeypatch)
    assert_same_as_whole_parse(old, new_text)
    assert len(sources) == 1
    assert len(sources[0]) < 80 * len(newline)  # the statements' lines, never the class or the file


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("    z: int\n", "    z: int\n  # z\n"),  # a comment last: the next statement's
        ("    x = 1\n", "    def x(self):\n        pass\n"),  # a definition added
        ("    x = 1\n", "      x = 1\n"),  # another indentation than the block's
        ("    x = 1\n", "    if x:\n        x = 1\n"),  # a compound statement in a class
    ],
)
def test_other_statement_edits_are_left_to_larger_parses(
    before: str, after: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = ParsedFile(STATEMENTS)
    sources = snippet_sources(monkeypatch)
    new_text = STATEMENTS.replace(before, after, 1)
    if reparsed_spans(old, new_text.encode("utf-8")) is not None:
        class_c = len(STATEMENTS) - STATEMENTS.index("class C")
        assert max(map(len, sources)) >= class_c  # the class again
        assert_same_as_whole_parse(old, new_text)


def test_a_snippet_that_does_not_parse_stops_the_partial_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    old = ParsedFile(SOURCE)
    sources = snippet_sources(monkeypatch)
    broken = SOURCE.replace("return self.x\n", "return self.x +\n", 1)
    assert reparsed_spans(old, broken.encode("utf-8")) is None
    assert len(sources) == 1  # the method's lines; the class around them is not tried


@pytest.mark.parametrize("path", sorted(SAMPLE.rglob("*.py")), ids=lambda p: p.name)
def test_every_simple_statement_of_the_sample_project_edited(path: Path) -> None:
    old = ParsedFile(path.read_text(encoding="utf-8"))
    owners: list[Any] = [old.module, *(d for _, d in old.definitions)]
    edited = 0
    for owner in owners:
        block = owner.body if isinstance(owner, cst.Module) else owner.body.body
        for statement in block:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            span = old.spans[statement.body[-1]]
            at = span.start + span.length
            new = old.data[:at] + b"  # edited" + old.data[at:]
            assert_same_as_whole_parse(old, new.decode("utf-8"))
            edited += 1
    assert edited > 3
