"""A written test calls an override of a builtin base's method as the base's callers do.

An invented read-only mapping overrides ``dict.pop``; code that holds a dict writes
``d.pop(key)``, so the test passes the key by position, not as ``pop(k=...)``, which ties
it to a parameter name a refactor may change (issue 56). The sandbox, the probe and
pytest are real; no model.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

SEALED = """\
class Sealed(dict):
    def pop(self, k, d=None):
        raise TypeError("a sealed mapping cannot change")
"""


async def test_an_override_of_dict_pop_is_called_by_position(tmp_path: Path) -> None:
    found, data = await search_tests_on(
        tmp_path, {"sealed.py": SEALED}, "sealed.py", "Sealed.pop", "tests/test_sealed.py"
    )
    written = (data or b"").decode()
    assert found["kept"], found
    calls = [
        n
        for n in ast.walk(ast.parse(written))
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "pop"
    ]
    assert calls and all(c.args and not c.keywords for c in calls), written
