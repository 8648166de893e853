"""No kept test shows a value the search made up (issue 56).

Blind reviewers rejected or rewrote every test they saw that passed a placeholder the
code reads (``separator="sample separator"``, ``encoding="sample encoding"``): what it
pins is the code's handling of a nonsense value; and merged one in nineteen of those that
showed one at all. An invented ``framed(text, marker)`` reads its marker: with nothing
in the project saying what a marker is, no test is kept and ``dropped`` says why; where
the project's own call passes one (``framed("Hi", "**")``), its test is kept with that
value. The sandbox, the probe and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

FRAMED = """\
def framed(text, marker):
    if not text:
        return ""
    return marker + text + marker
"""


async def test_a_made_up_value_the_call_reads_gives_no_test(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, {"marks.py": FRAMED}, "marks.py", "framed", "tests/test_marks.py"
    )
    assert "sample marker" not in (written or b"").decode(), written
    assert any("shows made-up marker" in d for d in found["dropped"]), found


async def test_the_projects_own_value_keeps_its_test(tmp_path: Path) -> None:
    source = FRAMED + '\n\ndef banner():\n    return framed("Hi", "**")\n'
    found, data = await search_tests_on(
        tmp_path, {"marks.py": source}, "marks.py", "framed", "tests/test_marks.py"
    )
    written = (data or b"").decode()
    assert found["kept"], found
    assert "'**'" in written or '"**"' in written, written
    assert "sample marker" not in written, written


STACKS = """\
def stacked(lower: list, upper: list) -> list:
    return upper + lower


def ordered(entries: list) -> list:
    return sorted(entries)
"""


async def test_a_list_of_made_up_items_the_call_only_holds_gives_no_test(
    tmp_path: Path,
) -> None:
    # deepmerge's strategy_prepend: `nxt + base` puts the items in order, reading none;
    # the test would still show ["sample upper", ...] to its reader.
    found, written = await search_tests_on(
        tmp_path, {"stacks.py": STACKS}, "stacks.py", "stacked", "tests/test_stacks.py"
    )
    assert written is None, written
    assert any("shows made-up" in d and "upper" in d for d in found["dropped"]), found


async def test_a_list_of_made_up_items_the_call_sorts_gives_no_test(tmp_path: Path) -> None:
    # natsort's natsorted(["sample seq", "other seq"]): the order of placeholders says
    # nothing of the sort (blind reviewers: "the same result as sorted()").
    found, written = await search_tests_on(
        tmp_path, {"stacks.py": STACKS}, "stacks.py", "ordered", "tests/test_stacks.py"
    )
    assert written is None, written
    assert any("shows made-up entries" in d for d in found["dropped"]), found


LINES = """\
import os


def first_line(path):
    if not os.path.exists(path):
        return None
    with open(path) as handle:
        return handle.readline()
"""


async def test_a_made_up_path_the_code_opens_gives_no_test(tmp_path: Path) -> None:
    # python-dotenv's get_key(dotenv_path="data/example.txt"): the name table's path names
    # no file, so the test pinned the missing-file branch under "returns_none".
    found, written = await search_tests_on(
        tmp_path, {"lines.py": LINES}, "lines.py", "first_line", "tests/test_lines.py"
    )
    assert "data/example.txt" not in (written or b"").decode(), written
    assert any("shows made-up path" in d for d in found["dropped"]), found


KEYED = """\
def by_text(items: list) -> list:
    return sorted(items, key=str)
"""


async def test_made_up_items_turned_into_text_and_sorted_give_no_test(tmp_path: Path) -> None:
    # natsort's os_sorted: the sort key works on each item's text, a placeholder's here.
    found, written = await search_tests_on(
        tmp_path, {"keyed.py": KEYED}, "keyed.py", "by_text", "tests/test_keyed.py"
    )
    assert written is None, written
    assert any("shows made-up items" in d for d in found["dropped"]), found


BANNER = """\
class Banner:
    def __init__(self, marker):
        self.marker = marker

    def width(self, padding: int) -> int:
        if padding < 0:
            raise ValueError("negative padding")
        return len(self.marker) + padding
"""


async def test_an_instance_built_with_a_made_up_value_gives_no_test(tmp_path: Path) -> None:
    # colorama's AnsiToWin32(wrapped="sample wrapped").should_wrap(): True only because a
    # string has no ``.closed``. The width reads the made-up marker: no test of it. The
    # check on padding reads none, and its test builds the banner with an empty one
    # (unread_arguments: an instance's made-up arguments the call never uses are emptied).
    found, data = await search_tests_on(
        tmp_path, {"banner.py": BANNER}, "banner.py", "Banner.width", "tests/test_banner.py"
    )
    written = (data or b"").decode()
    assert any("shows made-up marker" in d for d in found["dropped"]), found
    assert 'Banner(marker="")' in written, (found, written)
    assert "pytest.raises(ValueError)" in written, written
    assert "sample marker" not in written, written

    # Built as the project builds one, the padding check is tested.
    source = BANNER + '\n\ndef ruler(padding):\n    return Banner("==").width(padding)\n'
    own = tmp_path / "own"
    own.mkdir()
    found, data = await search_tests_on(
        own, {"banner.py": source}, "banner.py", "Banner.width", "tests/test_banner.py"
    )
    written = (data or b"").decode()
    assert "pytest.raises(ValueError)" in written, (found, written)
    assert "sample marker" not in written, written


OPTIONS = """\
def _kind(options):
    return options.get("kind", "plain")


def describe(options):
    if not isinstance(options, dict):
        raise TypeError("options must be a dict")
    return "kind: " + _kind(options)
"""


async def test_the_dict_kinds_sample_read_by_key_gives_no_test(tmp_path: Path) -> None:
    # pyjwt's from_jwk({"a": 1, "b": 0}), ply's get_rules: "an arbitrary value", "junk".
    found, written = await search_tests_on(
        tmp_path, {"styles.py": OPTIONS}, "styles.py", "describe", "tests/test_styles.py"
    )
    assert not _shows_dict_sample((written or b"").decode()), written
    assert "typical_arguments: shows made-up options" in "\n".join(found["dropped"]), found


async def test_the_projects_own_mapping_keeps_its_test(tmp_path: Path) -> None:
    source = OPTIONS + '\n\ndef bold():\n    return describe({"kind": "bold"})\n'
    found, data = await search_tests_on(
        tmp_path, {"styles.py": source}, "styles.py", "describe", "tests/test_styles.py"
    )
    written = (data or b"").decode()
    assert found["kept"] and "bold" in written and not _shows_dict_sample(written), written


def _shows_dict_sample(text: str) -> bool:
    return "'a': 1" in text or '"a": 1' in text


WIRES = """\
class Anything:
    pass


def connect(receiver, signal=Anything, sender=Anything, weak=True):
    if signal is None:
        raise TypeError("Signal cannot be None (receiver=%r sender=%r)" % (receiver, sender))
    table = {}
    table.setdefault(id(sender), []).append((signal, receiver, weak))
    return table
"""


async def test_an_argument_only_formatted_into_words_the_test_does_not_match_is_left_out(
    tmp_path: Path,
) -> None:
    # pydispatcher's ``connect(None, signal=None, sender=None)``: sender shows only in the
    # aside "(receiver=None sender=None)", which ``match="Signal cannot be None"`` never
    # reads; a blind reviewer: "drop the redundant sender=None".
    _found, data = await search_tests_on(
        tmp_path, {"wires.py": WIRES}, "wires.py", "connect", "tests/test_wires.py"
    )
    written = (data or b"").decode()
    assert 'match="Signal cannot be None"' in written, written
    assert "signal=None)" in written and "sender" not in written, written


SHIFTS = """\
def shift_expect_ascii(text):
    try:
        text.encode("ascii")
    except UnicodeEncodeError:
        return "".join(c if ord(c) < 128 else "o" for c in text)
    return text


shift = shift_expect_ascii
"""
SHIFTS_README = (
    "# shifts\n\n```python\n>>> from shifts import shift\n>>> shift('k\u00f6ln')\n'koln'\n```\n"
)


async def test_the_docs_calls_of_a_name_the_module_binds_to_the_node_are_its_calls(
    tmp_path: Path,
) -> None:
    # The module's ``shift = shift_expect_ascii``: its README's ``shift('köln')`` is the
    # project's own value for the node; without it only made-up text was left.
    found, data = await search_tests_on(
        tmp_path,
        {"shifts.py": SHIFTS, "README.md": SHIFTS_README},
        "shifts.py",
        "shift_expect_ascii",
        "tests/test_shifts.py",
    )
    written = (data or b"").decode()
    assert 'shift_expect_ascii("k\u00f6ln")' in written and '"koln"' in written, found
