"""The host's search offers no test whose outcome any body would give (issue 56).

An invented tally: its ``total`` read on a tally built with nothing is 0, and its
``label`` procedure only keeps the text it is given. Neither call pins what the node is
for (blind reviewers rejected "an empty cache has length 0" and "only checks that
write() assigns an attribute"), so no test is kept and ``dropped`` says why; a method
whose stored argument passed its own check keeps its test. A board's ``render`` on a
board without rows returns its header alone, never running the loop that renders rows
(reviewers rejected "the degenerate output for an empty table"): no test of that, while
the error it raises before the loop stays a test. The sandbox, the probe and pytest are
real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

TALLY = """\
class Tally:
    def __init__(self, limit=None):
        self.limit = limit
        self.counts = {}

    @property
    def total(self):
        return sum(self.counts.values())

    def label(self, text):
        self.text = text

    def rename(self, name):
        if not name.strip():
            raise ValueError("a tally needs a name")
        self.name = name


class Board:
    def __init__(self, title="Scores"):
        self.title = title
        self.rows = []

    def render(self, width: int) -> str:
        if width < len(self.title):
            raise ValueError("the board is narrower than its title")
        lines = [self.title.center(width)]
        for name, score in self.rows:
            lines.append(f"{name:<{width - 6}}{score:>6}")
        return "\\n".join(lines)
"""


@pytest.mark.parametrize(
    ("node_name", "reason"),
    [("Tally.total", "empty value of its type"), ("Tally.label", "assignment restated")],
)
async def test_a_trivial_outcome_gives_no_test(tmp_path: Path, node_name: str, reason: str) -> None:
    found, written = await search_tests_on(
        tmp_path, {"tally.py": TALLY}, "tally.py", node_name, "tests/test_tally.py"
    )
    assert found["kept"] == [] and written is None, found
    assert any(reason in d for d in found["dropped"]), found


async def test_a_stored_argument_the_node_checked_keeps_its_test(tmp_path: Path) -> None:
    found, data = await search_tests_on(
        tmp_path, {"tally.py": TALLY}, "tally.py", "Tally.rename", "tests/test_tally.py"
    )
    written = (data or b"").decode()
    assert found["kept"], found
    assert ".name ==" in written, written


async def test_a_call_returning_without_running_the_node_s_loop_gives_no_test(
    tmp_path: Path,
) -> None:
    found, data = await search_tests_on(
        tmp_path, {"tally.py": TALLY}, "tally.py", "Board.render", "tests/test_tally.py"
    )
    written = (data or b"").decode()
    assert any("without running the loop at line" in d for d in found["dropped"]), found
    assert "pytest.raises(ValueError" in written, written
    assert "== " not in written.split("pytest.raises")[0].split("def test_")[-1], written
