"""The test agent offers no test of a node that only hands its arguments on (issue 56).

An invented tree builder: ``shapes.nodes.leaf`` returns a dict display of its argument,
and ``Reader.token_leaf`` hands a read of its token to it (through ``from shapes import
nodes``, a module of the project). A test of either restates the one-line body; blind
reviewers rejected such tests as tautologies. The search writes nothing and says why;
``Reader.token_size``, which computes, still gets its test. Nor does a method the
constructor runs as a step (``self.parse()``). The sandbox, the probe and pytest are real;
no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, find_node, search_tests_on, write_project

pytestmark = pytest.mark.integration

NODES = """\
def leaf(label):
    return {"kind": "leaf", "parts": [], "label": label}
"""

READER = """\
from shapes import nodes


class Reader:
    def token_leaf(self, token):
        return nodes.leaf(token["value"])

    def token_size(self, token):
        return len(token["value"]) * 2
"""

FILES = {"shapes/__init__.py": "", "shapes/nodes.py": NODES, "shapes/reader.py": READER}


async def test_a_node_handing_a_read_of_its_argument_to_the_project_gets_no_test(
    tmp_path: Path,
) -> None:
    found, written = await search_tests_on(
        tmp_path, FILES, "shapes/reader.py", "Reader.token_leaf", "tests/test_reader.py"
    )
    assert found["kept"] == [] and written is None, found
    assert "a test could only restate it" in found["reason"], found


async def test_the_agent_says_why_a_builder_of_a_display_gets_no_test(tmp_path: Path) -> None:
    root = write_project(tmp_path, FILES)
    node = find_node(root, "shapes/nodes.py", "leaf")
    async with bench(root) as b:
        written = await b.run("test", "write_tests", node)
        changed = b.workspace("test", node).changed_files()
    assert written["written"] is False and changed == [], written
    assert "returns its arguments as given" in written["reason"], written


async def test_a_node_that_computes_keeps_its_test(tmp_path: Path) -> None:
    # Given a token as the project gives one: {"value": "sample value"} shows a placeholder.
    usage = 'from shapes.reader import Reader\n\nSIZE = Reader().token_size({"value": "oak"})\n'
    found, written = await search_tests_on(
        tmp_path,
        FILES | {"shapes/use.py": usage},
        "shapes/reader.py",
        "Reader.token_size",
        "tests/test_reader.py",
    )
    assert found["kept"] and "reason" not in found, found
    assert written is not None and b"token_size" in written


SPEC = """\
class Spec:
    def __init__(self, text):
        self.text = text
        self.parts = []
        self.parse()

    def parse(self):
        for part in self.text.split(","):
            self.parts.append(part.strip())
"""


async def test_a_step_of_the_constructor_gets_no_test_of_its_own(tmp_path: Path) -> None:
    # A second parse() on a built Spec appends the parts twice: a test would pin that.
    files = {"spec/__init__.py": "", "spec/core.py": SPEC}
    found, written = await search_tests_on(
        tmp_path, files, "spec/core.py", "Spec.parse", "tests/test_core.py"
    )
    assert found["kept"] == [] and written is None, found
    assert "Spec.__init__ calls it to build every instance" in found["reason"], found


async def test_a_type_check_of_the_argument_gets_no_test(tmp_path: Path) -> None:
    files = {"kinds.py": "def listish(value):\n    return isinstance(value, (list, tuple))\n"}
    found, written = await search_tests_on(
        tmp_path, files, "kinds.py", "listish", "tests/test_kinds.py"
    )
    assert found["kept"] == [] and written is None, found
    assert "only returns a type check of its arguments" in found["reason"], found


async def test_a_value_from_the_clock_gets_no_test(tmp_path: Path) -> None:
    # A test would pin this week's number, and fail the next.
    files = {
        "weeks.py": (
            "import datetime\n\n\ndef this_week():\n"
            "    return datetime.date.today().isocalendar()[1]\n"
        )
    }
    found, written = await search_tests_on(
        tmp_path, files, "weeks.py", "this_week", "tests/test_weeks.py"
    )
    assert found["kept"] == [] and written is None, found
    assert "from a clock or a random source" in found["reason"], found
