"""A model's lint rewrite is kept only when the calls that compared it ran all it replaces.

Issue 57's reviewers rejected two rewrites that passed every check: a ``__str__``
formatting three numbers and then appending two optional parts, each under its
own ``if``, rewritten as one f-string of the three numbers, and a ``__repr__``
that lost ``%r``'s quotes: the one derived instance reached neither ``if`` and
held no string. Everything here is real but the model (ruff, the ``.pym`` tools,
Monty, the workspace, the sandboxed calls under coverage.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import run_scripted_on_file, write_project

from remora.providers.scripted import tool_turn
from remora.sandbox import SandboxRuntime

pytestmark = pytest.mark.integration

RUFF = 'line-length = 120\n[lint]\nselect = ["E", "F", "UP"]\n'

VERSION = """\
class Version:
    def __init__(self, major: int, minor: int, patch: int, pre: str | None = None,
                 build: str | None = None):
        self.major = major
        self.minor = minor
        self.patch = patch
        self.pre = pre
        self.build = build

    def __str__(self):
        text = "%d.%d.%d" % (self.major, self.minor, self.patch)
        if self.pre:
            text += "-" + self.pre
        if self.build:
            text += "+" + self.build
        return text

    def __repr__(self):
        return "Version(%r, %r, %r, %r, %r)" % (
            self.major, self.minor, self.patch, self.pre, self.build
        )
"""
# One method's format at a time: the file's other one already converted (a rewrite that
# leaves a sibling unconverted is refused for that alone: node_rewrite.ALL_OR_NONE).
VERSION_STR = VERSION.replace(
    '"Version(%r, %r, %r, %r, %r)" % (\n            self.major, self.minor, self.patch, '
    "self.pre, self.build\n        )",
    'f"Version({self.major!r}, {self.minor!r}, {self.patch!r}, {self.pre!r}, {self.build!r})"',
)
VERSION_REPR = VERSION.replace(
    '"%d.%d.%d" % (self.major, self.minor, self.patch)',
    'f"{self.major:d}.{self.minor:d}.{self.patch:d}"',
)


async def _edit(
    runtime: SandboxRuntime,
    tmp_path: Path,
    source: str,
    qualname: str,
    replacement: str,
    issue: str = "UP031",
    ruff: str = RUFF,
) -> tuple[str, str]:
    """(the file after the run, the reason edit_node gave) for the model's one rewrite."""
    root = write_project(tmp_path, {"m.py": source, "ruff.toml": ruff})
    turns = [
        tool_turn(("edit_node", {"issue_code": issue, "replacement": replacement})),
        tool_turn(("submit_result", {})),
    ]
    result, provider, written = await run_scripted_on_file(
        runtime, root, "lint", qualname, turns, completions=["", "", ""]
    )
    assert result.status == "success", result.to_dict()
    payloads = [
        m.results[0].payload["result"]
        for r in provider.requests
        for m in r.messages
        if m.role == "tool" and isinstance(m.results[0].payload.get("result"), dict)
    ]
    edits = [p for p in payloads if "written" in p and "next" in p]
    return written.decode(), str(edits[-1]["reason"]) if edits else ""


async def test_a_str_that_drops_its_optional_parts_is_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    wrong = '    def __str__(self):\n        return f"{self.major}.{self.minor}.{self.patch}"\n'
    written, reason = await _edit(runtime, tmp_path, VERSION_STR, "Version.__str__", wrong)
    assert written == VERSION_STR
    assert reason.startswith("the rewrite changes what the code does"), reason


async def test_a_repr_that_loses_its_quotes_is_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    wrong = (
        '        return f"Version({self.major}, {self.minor}, {self.patch}, '
        '{self.pre}, {self.build})"'
    )
    written, reason = await _edit(runtime, tmp_path, VERSION_REPR, "Version.__repr__", wrong)
    assert written == VERSION_REPR
    # Refused before any call: each %r became a plain field (its calls would differ too).
    assert reason.startswith("the replacement formats 5 value(s) with str()"), reason


SHAPES = """\
from __future__ import annotations

from typing import Optional


class Shape:
    def __init__(self, name: Optional[str] = None, sides: Optional[int] = None) -> None:
        self.name = name
        self.sides = sides

    def label(self) -> Optional[str]:
        return self.name if self.name is not None else None
"""


async def test_one_annotation_respelled_among_unfixed_others_is_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # unidiff's `_file_mode`: its UP045 rewritten alone, the constructor's two kept
    # `Optional[...]` (no safe fix under a 3.9 floor): the module in two spellings.
    ruff = 'target-version = "py39"\n[lint]\nselect = ["UP"]\n'
    respelled = "    def label(self) -> str | None:"
    written, reason = await _edit(
        runtime, tmp_path, SHAPES, "Shape.label", respelled, issue="UP045", ruff=ruff
    )
    assert written == SHAPES
    assert "UP045 is still reported on other lines of the file" in reason, reason


TABLE = """\
_EMPTY = {}


def table(initial={}, pre_size=0):
    if not initial and pre_size == 0:
        return _EMPTY
    return dict(initial, size=pre_size)
"""


async def test_a_default_rewritten_without_its_replacement_is_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # pyrsistent's pmap(initial={}, pre_size=0) given initial=None with no ``if initial is
    # None``: only a call that leaves initial out beside pre_size tells them apart.
    wrong = (
        "def table(initial=None, pre_size=0):\n"
        "    if not initial and pre_size == 0:\n"
        "        return _EMPTY\n"
        "    return dict(initial, size=pre_size)\n"
    )
    ruff = 'line-length = 120\n[lint]\nselect = ["B006"]\n'
    written, reason = await _edit(runtime, tmp_path, TABLE, "table", wrong, "B006", ruff)
    assert written == TABLE, written
    assert reason.startswith("the rewrite changes what the code does"), reason


TREE = """\
class Leaf:
    def __repr__(self):
        return "Leaf[]"


class Wrap:
    def __init__(self, inner: Leaf, tag: str):
        self.inner = inner
        self.tag = tag

    def __repr__(self):
        return "%s[%r.%s]" % (type(self).__name__, self.inner, self.tag)
"""


async def test_a_repr_turned_into_str_is_refused_where_the_calls_agree(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # A Leaf has no __str__: str and repr give one text, so no call tells the two apart;
    # a later __str__ (or a string inside) would.
    wrong = '        return f"{type(self).__name__}[{self.inner}.{self.tag}]"'
    written, reason = await _edit(runtime, tmp_path, TREE, "Wrap.__repr__", wrong)
    assert written == TREE
    assert reason.startswith("the replacement formats 1 value(s) with str()"), reason


async def test_a_correct_rewrite_of_code_every_call_ran_is_kept(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    right = (
        '        return f"Version({self.major!r}, {self.minor!r}, {self.patch!r}, '
        '{self.pre!r}, {self.build!r})"'
    )
    written, reason = await _edit(runtime, tmp_path, VERSION_REPR, "Version.__repr__", right)
    assert reason == ""
    assert 'return f"Version({self.major!r}' in written


# The calls cannot reach the second `if`: `_cache` is filled only by a private method, and
# the check fills an instance only through public ones, so every instance it builds has it
# empty. The rewrite is right, and still refused: nothing ran the lines it replaces.
CACHED = """\
class Names:
    def __init__(self, prefix: str):
        self.prefix = prefix
        self._cache = {}

    def _remember(self, key, value):
        self._cache[key] = value

    def show(self, key):
        found = self._cache.get(key)
        if found is None:
            return "%s: none" % self.prefix
        return "%s: %s" % (self.prefix, found)
"""


async def test_a_right_rewrite_of_lines_no_call_ran_is_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    root = write_project(tmp_path, {"m.py": CACHED, "ruff.toml": RUFF})
    turns = [tool_turn(("submit_result", {}))]
    # The first UP031 (line 12, reached) drafted right, and refused: line 13's stays, and
    # one of the method's two formats converted reads worse than neither. The whole method
    # drafted right is refused too: no call ran line 13.
    whole = (
        "def show(self, key):\n    found = self._cache.get(key)\n    if found is None:\n"
        '        return f"{self.prefix}: none"\n    return f"{self.prefix}: {found}"\n'
    )
    drafts = ['return f"{self.prefix}: none"\n'] + [whole] * 3
    result, _, written = await run_scripted_on_file(
        runtime, root, "lint", "Names.show", turns, completions=drafts
    )
    assert result.status == "success", result.to_dict()
    assert written.decode() == CACHED
    refused = result.details["refused"]
    assert [r["line"] for r in refused][:1] == [12], refused
    assert "still reported on other lines of the file" in refused[0]["reason"], refused
    assert {r["code"] for r in refused} == {"UP031"}
    assert any("never ran line 13" in r["reason"] for r in refused), refused


async def test_a_format_that_stops_converting_is_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # What the 0.5B model drafted for the __str__ above (kept before the check called it
    # with numbers that have a fraction): `%d` and `{}` agree on whole numbers only.
    wrong = '        text = f"{self.major}.{self.minor}.{self.patch}"'
    written, reason = await _edit(runtime, tmp_path, VERSION_STR, "Version.__str__", wrong)
    assert written == VERSION_STR
    assert reason.startswith("the rewrite changes what the code does"), reason
    assert "'1.7.1' before and returned '1.5.7.5.1.5' after" in reason, reason


async def test_no_f_string_does_what_percent_d_does_so_none_is_kept(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # Ruff's own (unsafe) UP031 fix keeps the conversion as `:d`, which raises for a float
    # where `%d` truncated it: that is why ruff calls it unsafe, and it is refused too.
    ruffs = '        text = f"{self.major:d}.{self.minor:d}.{self.patch:d}"'
    written, reason = await _edit(runtime, tmp_path, VERSION_STR, "Version.__str__", ruffs)
    assert written == VERSION_STR
    assert "raised ValueError: Unknown format code 'd'" in reason, reason


# multipledispatch's `source` (held out at 15327ff): every call the check could make handed
# it a value `inspect` refuses, so each raised inside the `%` line, before the format ran, on
# the file as it was and as rewritten alike. coverage.py counts a line run once it starts:
# the rewrite that lost the two newlines was kept.
SOURCE = """\
import inspect


def source(func):
    s = "File: %s\\n\\n" % inspect.getsourcefile(func)
    s = s + inspect.getsource(func)
    return s
"""


async def test_a_line_every_call_raised_inside_was_not_run(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    wrong = '    s = f"File: {inspect.getsourcefile(func)}"'
    written, reason = await _edit(runtime, tmp_path, SOURCE, "source", wrong)
    assert written == SOURCE
    assert "never ran line 5 of the replaced lines 5-5" in reason, reason


SIBLINGS = """\
def greet(name):
    return "hello %s" % name


def part(name):
    return "bye %s" % name
"""


async def test_one_format_converted_among_the_files_others_is_refused(
    tmp_path: Path, runtime: SandboxRuntime
) -> None:
    # Right, and every line ran: refused all the same, as `part` keeps its `%` (zxcvbn's,
    # sqlitedict's and pygtrie's reviewers: one f-string among `%` formats reads worse).
    right = 'def greet(name):\n    return f"hello {name}"\n'
    written, reason = await _edit(runtime, tmp_path, SIBLINGS, "greet", right)
    assert written == SIBLINGS
    assert "still reported on other lines of the file" in reason, reason
