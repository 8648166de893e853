"""A method that compares its instance's state with a constant of another module is tested
on each side of it, on an instance whose other arguments are empty, not made up (issue 56).

unidiff 1.0.1 (blind review, session 61): ``Line.is_added`` is ``self.line_type ==
LINE_TYPE_ADDED``, the constant imported from its ``constants`` module; the search never
resolved it, and the one instance it built, ``Line(value="sample value", line_type="sample
line type")``, showed placeholders, so none of the module's predicates got a test. An
invented diff-line module here: the constant lies in ``marks.py``, the text the
predicate never reads is given ``""``. The sandbox, the probe and pytest are real; no
model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

MARKS = """\
MARK_INSERTED = ">"
MARK_DELETED = "<"
"""

ROWS = """\
from delta.marks import MARK_INSERTED


class Row:
    def __init__(self, content, mark):
        self.content = content
        self.mark = mark

    @property
    def inserted(self):
        return self.mark == MARK_INSERTED

    @property
    def textual(self):
        return self.mark == MARK_INSERTED and isinstance(self.content, str)

    @property
    def shout(self):
        return self.content.upper() if self.mark == MARK_INSERTED else self.content
"""


async def _search(tmp_path: Path, name: str) -> tuple[dict[str, object], str]:
    files = {"delta/__init__.py": "", "delta/marks.py": MARKS, "delta/rows.py": ROWS}
    found, data = await search_tests_on(
        tmp_path, files, "delta/rows.py", name, "tests/test_rows.py"
    )
    return found, (data or b"").decode()


async def test_an_imported_constant_and_an_unread_argument(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "Row.inserted")
    assert 'Row(content="", mark=">")' in written, (found, written)
    assert "assert result is True" in written, written
    assert "sample" not in written, written


@pytest.mark.parametrize("name", ["Row.shout", "Row.textual"])
async def test_an_argument_the_method_reads_stays_made_up_and_gives_no_test(
    tmp_path: Path, name: str
) -> None:
    # ``shout`` gives the content back; ``textual`` reads its class, the same for "": the
    # stand-in tells the read apart where the outcome does not.
    _found, written = await _search(tmp_path, name)
    assert 'content=""' not in written, written
    assert "sample" not in written, written
