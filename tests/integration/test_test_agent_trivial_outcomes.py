"""The host's search offers no test whose outcome any body would give (issue 56).

An invented tally: its ``total`` read on a tally built with nothing is 0, and its
``label`` procedure only keeps the text it is given. Neither call pins what the node is
for (blind reviewers rejected "an empty cache has length 0" and "only checks that
write() assigns an attribute"), so no test is kept and ``dropped`` says why; a method
whose stored argument passed its own check keeps its test. The sandbox, the probe and
pytest are real; no model.
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
