"""The test search on a namedtuple subclass whose constructor is its own ``__new__``.

Made-up project: ``Segment(namedtuple("SegmentBase", ["start", "stop", "label"]))`` with
``__new__(cls, start, stop, label=None)``. Before: the constructor was read as the base's
"of another module" with no parameters, every instance was built as ``Segment()``, which
raised, and no method got a test ("no passing test that adds coverage could be written").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, find_node, write_project

pytestmark = pytest.mark.integration

SEGMENT = """\
from collections import namedtuple


class Segment(namedtuple("SegmentBase", ["start", "stop", "label"])):
    __slots__ = ()

    def __new__(cls, start, stop, label=None):
        return super(Segment, cls).__new__(cls, start, stop, label)

    def width(self):
        if self.stop <= self.start:
            return 0
        return self.stop - self.start

    def covers(self, point):
        return self.start <= point < self.stop
"""

# The project's own construction, where the search takes its instance's numbers from.
EXAMPLES = """\
from segment import Segment

GAP = Segment(2, 5, "gap")
"""


@pytest.mark.parametrize("qualname", ["Segment.width", "Segment.covers"])
async def test_a_method_of_a_namedtuple_subclass_gets_a_test_built_through_new(
    tmp_path: Path, qualname: str
) -> None:
    root = write_project(tmp_path, {"segment.py": SEGMENT, "examples.py": EXAMPLES})
    node = find_node(root, "segment.py", qualname)
    async with bench(root) as b:
        found = await b.run("test", "search_tests", node)
        assert found["kept"], {k: found[k] for k in found if k != "model"}
        text = b.text("test", node, "tests/test_segment.py")
    assert "Segment(start=2, stop=5" in text and "Segment()" not in text, text
