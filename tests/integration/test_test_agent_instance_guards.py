"""The host's search offers no test of a shared helper's refusal of a bare instance.

An invented selector class: each query method hands its check to one private helper
that refuses a selector with no steps. The search builds the instance bare, every call
of ``equals`` raises that helper's ``ValueError``, and none of them is a test of
``equals``: the result's ``dropped`` says why (issue 56 item 3). The sandbox, the
probe and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, find_node, write_project

pytestmark = pytest.mark.integration

PICKERS = """\
class Selector:
    def __init__(self):
        self._steps = ()

    def step(self, name):
        chosen = Selector()
        chosen._steps = self._steps + (name,)
        return chosen

    def _check(self, test):
        if not self._steps:
            raise ValueError("the selector has no steps")
        return test

    def equals(self, value):
        return self._check(lambda v: v == value)

    def below(self, limit):
        return self._check(lambda v: v < limit)
"""


async def test_a_bare_instance_refused_by_a_shared_helper_gives_no_test(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"pickers.py": PICKERS})
    node = find_node(root, "pickers.py", "Selector.equals")
    async with bench(root) as b:
        found = await b.run("test", "search_tests", node)
        written = b.workspace("test", node).read("tests/test_pickers.py")
    assert found["kept"] == [] and written is None, found
    assert any("Selector._check" in d and "unusable" in d for d in found["dropped"]), found
