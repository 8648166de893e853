"""The NotImplementedError of an abstract base's stub is no behaviour of the node (issue 56).

``Shape.describe`` calls ``self._area_text()``, a stub every subclass defines: on a
``Shape()`` the call ends in the stub's ``NotImplementedError``, which a test would pin as
what ``describe`` does (parsimonious's ``Expression().as_rule()``: "only checks that the
abstract base class raises NotImplementedError", a blind reviewer's reject). The search
keeps no such call. The sandbox, the probe and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

SHAPES = """\
class Shape:
    def describe(self):
        return "a shape of area " + self._area_text()

    def _area_text(self):
        raise NotImplementedError


class Square(Shape):
    def __init__(self, side=2):
        self.side = side

    def _area_text(self):
        return str(self.side * self.side)
"""


async def test_a_base_s_stub_raising_gives_the_base_s_caller_no_test(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, {"shapes.py": SHAPES}, "shapes.py", "Shape.describe", "tests/test_shapes.py"
    )
    assert found["kept"] == [] and written is None, found
    assert any("an abstract base's stub" in d for d in found["dropped"]), found
