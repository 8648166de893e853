"""The project's own pytest ``addopts`` do not stop Remora's runs (issue 56).

pyee's ``pyproject.toml`` has ``[tool.pytest] addopts = "--verbose -s"``, which pytest 9
reads as its native table and refuses ("expects a list"): every run stopped before a test,
and no test of the project could be kept. Remora's runs leave the project's ``addopts``
out. The sandbox, the probe and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

PYPROJECT = '[project]\nname = "kit"\n\n[tool.pytest]\naddopts = "--verbose -s"\n'
KIT = """\
def clamp(value: int, low: int, high: int) -> int:
    if value < low:
        return low
    if value > high:
        return high
    return value
"""


async def test_a_project_whose_addopts_this_pytest_refuses_still_gets_tests(tmp_path: Path) -> None:
    files = {"pyproject.toml": PYPROJECT, "kit.py": KIT}
    found, written = await search_tests_on(tmp_path, files, "kit.py", "clamp", "tests/test_kit.py")
    assert found["kept"], found
    assert written is not None and b"def test_clamp" in written
