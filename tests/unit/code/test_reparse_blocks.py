"""A module-level change that spans compound statements holding no definition (imports under
``if TYPE_CHECKING:`` or ``try``, as ruff's import sorting changes them) parses those
statements alone, and equals the whole parse node by node; with a definition in them, or
lines after the last block that the block may own, a larger parse is left to do it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest
from reparse_support import assert_same_as_whole_parse, snippet_sources

from remora.code.parsing import ParsedFile
from remora.code.parsing.reparse import reparsed_spans
from remora.code.parsing.reparse_steps import edits_of, reparsed_in_steps
from remora.code.parsing.reparse_tree import Unreadable
from remora.sandbox.commands import resolve_executable

MODULE = '''"""Module."""
from __future__ import annotations

import typing
from typing import Any
from typing import Optional

if typing.TYPE_CHECKING:
    from .base import Connection
    from .base import Engine

try:
    import ujson as json
except ImportError:  # pragma: no cover
    import json

VERSION = 1


class Big:
    """A class after the imports, whose size a partial parse never pays."""

    def one(self) -> int:
        return 1

    def two(self) -> int:
        return 2

    def three(self) -> int:
        return 3
'''

BLOCK_EDITS = {
    "imports joined across a block": (
        "from typing import Any\nfrom typing import Optional\n\nif typing.TYPE_CHECKING:\n"
        "    from .base import Connection\n    from .base import Engine\n",
        "from typing import Any, Optional\n\n"
        "if typing.TYPE_CHECKING:\n    from .base import Connection, Engine\n",
    ),
    "an import inside the block removed": ("    from .base import Engine\n", ""),
    "a block's import changed": ("    import ujson as json\n", "    import orjson as json\n"),
    "an import put before a block": (
        "if typing.TYPE_CHECKING:\n",
        "import weakref\n\nif typing.TYPE_CHECKING:\n",
    ),
    "a block and the constant after it": (
        "except ImportError:  # pragma: no cover\n    import json\n\nVERSION = 1\n",
        "except ImportError:\n    import json\n\nVERSION = 2\n",
    ),
    "a block made": ("VERSION = 1\n", "if typing.TYPE_CHECKING:\n    VERSION = 1\n"),
    # the lines after a block are the next statement's when none is indented into the block
    "a comment put after a block": ("\nVERSION = 1\n", "\n# the version\nVERSION = 1\n"),
}


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("edit", sorted(BLOCK_EDITS))
def test_a_change_across_blocks_of_imports_parses_them_alone(
    edit: str, newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    snippet = _the_one_snippet(MODULE, BLOCK_EDITS[edit], newline, monkeypatch)
    assert len(snippet) < MODULE.index("class Big")  # never the class after them


def _the_one_snippet(
    source: str, edit: tuple[str, str], newline: str, monkeypatch: pytest.MonkeyPatch
) -> bytes:
    """The one snippet parsed for ``edit`` of ``source``, whose tree equals the whole parse."""
    before, after = edit
    assert before in source
    old = ParsedFile(source.replace("\n", newline))
    sources = snippet_sources(monkeypatch)
    assert_same_as_whole_parse(old, source.replace(before, after, 1).replace("\n", newline))
    assert len(sources) == 1
    return sources[0]


FUNCTION = MODULE.replace("VERSION = 1\n", "def version() -> int:\n    return 1\n")
OWNED = MODULE.replace("    import json\n", "    import json\n    # the stdlib's\n", 1)


@pytest.mark.parametrize(
    ("base", "before", "after"),
    [
        # a function put in a block: the file's definitions change
        (MODULE, "    from .base import Engine\n", "    def engine() -> None: ...\n"),
        # a comment the last block may own follows the change
        (MODULE, "    import json\n\nVERSION", "    import json\n    # the stdlib's\nVERSION"),
        # the block before the change may own the lines before its first statement
        (OWNED, "VERSION = 1\n", "VERSION = 2\n"),
        # the block changed may own the lines after it
        (OWNED, "    import ujson as json\n", "    import orjson as json\n"),
        # a blank line put right before a class (ruff's two after the imports): its leading
        # lines, which a parse from its first line on lost (copy.py of the stdlib)
        (MODULE, "\nclass Big:", "\n\nclass Big:"),
        (FUNCTION, "\ndef version", "\n\ndef version"),  # its header parsed alone lost it too
    ],
)
def test_other_changes_around_blocks_are_left_to_the_whole_parse(
    base: str, before: str, after: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = ParsedFile(base)
    sources = snippet_sources(monkeypatch)
    new_text = base.replace(before, after, 1)
    assert new_text != base
    if reparsed_spans(old, new_text.encode("utf-8")) is not None:
        assert max(map(len, sources)) >= len(base) - base.index("class Big")
        assert_same_as_whole_parse(old, new_text)


def _sorted_by_ruff(text: str, path: Path) -> str:
    """``text`` with ruff's safe fixes of import sorting and unused imports applied."""
    fixed = subprocess.run(
        [
            *(resolve_executable("ruff"), "check", "--isolated", "--select", "I,F401", "--fix"),
            *("--exit-zero", "--quiet", "--stdin-filename", str(path), "-"),
        ],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    return fixed.stdout


STDLIB = Path(sys.modules["subprocess"].__file__ or "").parent
# Modules with imports under module-level `if`/`try` blocks (on 3.11 ruff's fixes of the first
# seven parse partially, the others as a whole).
REAL = ["subprocess", "shutil", "inspect", "platform", "locale", "mimetypes", "socket"]
REAL += ["tempfile", "ssl", "uuid"]


def _fixed(name: str) -> tuple[ParsedFile, str] | None:
    path = STDLIB / f"{name}.py"
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    new_text = _sorted_by_ruff(text, path)
    return (ParsedFile(text), new_text) if new_text != text else None


@pytest.mark.parametrize("name", REAL)
def test_ruffs_import_fixes_of_real_modules_equal_the_whole_parse(name: str) -> None:
    fixed = _fixed(name)
    if fixed is None:
        pytest.skip(f"ruff leaves {name}'s imports as they are, or it is not a file here")
    old, new_text = fixed
    if reparsed_spans(old, new_text.encode("utf-8")) is not None:
        assert_same_as_whole_parse(old, new_text)


def test_ruffs_import_fixes_of_real_modules_are_parsed_partially() -> None:
    partial = [
        name
        for name in REAL
        if (fixed := _fixed(name)) is not None
        and reparsed_spans(fixed[0], fixed[1].encode("utf-8")) is not None
    ]
    assert partial  # else the test above compares nothing


METHODS = (
    '''class Worker:
    def run(self, items, retries=3):
        """Run each item."""
        total = 0
        for item in items:
            if item is None:
                continue
            elif item < 0:
                total -= item
            else:
                total += item  # the usual case
        while retries:
            retries -= 1
        else:
            retries = 0
        with open("log") as log:
            log.write(str(total))
        try:
            value = int(total)
        except ValueError:
            value = 0
        finally:
            self.done = True
        return value
'''
    + "\n\n# the rest of the file, never parsed again\n"
    + "X = 1\n" * 40
)

NESTED_EDITS = {
    "in an if in a for": ("                continue\n", "                pass\n"),
    "in an elif": ("                total -= item\n", "                total = total - item\n"),
    "in an else, its comment": ("  # the usual case\n", "  # most items\n"),
    "in a while's else": ("            retries = 0\n", "            retries = -1\n"),
    "in a with": ("            log.write(str(total))\n", "            log.write(f'{total}')\n"),
    "in a try": ("            value = int(total)\n", "            value = int(total, 10)\n"),
    "in a handler, a line added": (
        "            value = 0\n",
        "            value = 0\n            self.failed = True\n",
    ),
    "in a finally": ("            self.done = True\n", "            self.done = 1\n"),
}


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("edit", sorted(NESTED_EDITS))
def test_a_change_in_a_nested_block_parses_that_blocks_statements_alone(
    edit: str, newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    snippet = _the_one_snippet(METHODS, NESTED_EDITS[edit], newline, monkeypatch)
    assert len(snippet) < 80 * len(newline)  # the block's lines, never the method's


SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"


@pytest.mark.parametrize("path", sorted(SAMPLE.rglob("*.py")), ids=lambda p: p.name)
def test_every_statement_in_a_nested_block_of_the_sample_project_edited(path: Path) -> None:
    old = ParsedFile(path.read_text(encoding="utf-8"))
    nested = [
        statement
        for _, definition in old.definitions
        for clause in _all_clauses(definition)
        if isinstance(clause.body, cst.IndentedBlock)
        for statement in clause.body.body
        if isinstance(statement, cst.SimpleStatementLine)
    ]
    for statement in nested:
        span = old.spans[statement.body[-1]]
        at = span.start + span.length
        new = old.data[:at] + b"  # edited" + old.data[at:]
        assert reparsed_spans(old, new) is not None
        assert_same_as_whole_parse(old, new.decode("utf-8"))


def _all_clauses(definition: cst.CSTNode) -> list[cst.CSTNode]:
    """The parts with a block of the compound statements directly in ``definition``'s block."""
    kinds = (
        cst.If,
        cst.Else,
        cst.For,
        cst.While,
        cst.With,
        cst.Try,
        cst.ExceptHandler,
        cst.Finally,
    )
    found: list[cst.CSTNode] = []
    body = getattr(definition, "body", None)
    for statement in body.body if isinstance(body, cst.IndentedBlock) else []:
        stack = [statement]
        while stack:
            node = stack.pop()
            if isinstance(node, kinds):
                found.append(node)
                stack.extend(c for c in node.children if isinstance(c, kinds))
    return found


TYPED = (
    '''from typing import Optional


def convert(value: Optional[int], *, base: int = 10) -> Optional[str]:
    """Convert."""
    result: Optional[str] = None
    if value is not None:
        result = str(value)
    return result
'''
    + "\n\n# the rest of the file, never parsed again\n"
    + "X = 1\n" * 40
)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize(
    "source",
    [TYPED, TYPED.replace('    """Convert."""\n', "")],  # the header's line and the body's next
    ids=["apart", "adjacent"],
)
def test_separate_edits_of_a_header_and_a_body_parse_one_at_a_time(
    source: str, newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ruff's typing upgrade: the signature and an annotation in the body at once
    new_text = source.replace("Optional[int]", "int | None").replace("Optional[str]", "str | None")
    old = ParsedFile(source.replace("\n", newline))
    sources = snippet_sources(monkeypatch)
    assert_same_as_whole_parse(old, new_text.replace("\n", newline))
    assert len(sources) == 2  # the header, then the body's statement: never the function
    assert all(len(source) < 80 * len(newline) for source in sources)


def test_a_step_whose_text_alone_does_not_parse_ends_the_steps() -> None:
    # (An edit that opens a bracket another closes: that step's text is no verdict on the
    # whole change, which is then parsed as one.)
    old = ParsedFile(TYPED)
    edits = [(0, 4, b"from"), (5, 11, b"typing")]
    asked: list[bytes] = []

    def unreadable(_old: ParsedFile, data: bytes) -> None:
        asked.append(data)
        raise Unreadable

    assert reparsed_in_steps(old, edits, unreadable) is None
    assert asked == [old.data]  # the first step's text, then no other


def test_edits_of_one_change_are_its_separate_lines() -> None:
    old = TYPED.encode()
    new = (
        TYPED.replace("Optional[int]", "int | None").replace("    return", "    return  ").encode()
    )
    prefix = old.index(b"def convert")
    edits = edits_of(old, new, (prefix, old.index(b"    return") + 10))
    assert [old[start:stop] for start, stop, _ in edits] == [
        b"def convert(value: Optional[int], *, base: int = 10) -> Optional[str]:\n",
        b"    return result\n",
    ]
    assert [content for _, _, content in edits] == [
        b"def convert(value: int | None, *, base: int = 10) -> Optional[str]:\n",
        b"    return   result\n",
    ]
