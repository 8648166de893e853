"""A project the test run itself loads (pytest's own requirements, coverage.py) gets no
test: its tests would import the installed copy, already loaded, and cover none of the
workspace's lines. The sandbox and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration


async def test_a_project_pytest_itself_loads_gets_no_test(tmp_path: Path) -> None:
    # A project named iniconfig: pytest has imported the installed one before the tests
    # start, so a test would cover none of this copy's lines. Nothing is searched.
    source = "def section_names(text):\n    return [line.strip('[]') for line in text.split()]\n"
    found, data = await search_tests_on(
        tmp_path,
        {"iniconfig/__init__.py": "", "iniconfig/sections.py": source},
        "iniconfig/sections.py",
        "section_names",
        "tests/test_sections.py",
    )
    assert not found["kept"] and data is None
    assert found["reason"].startswith("the test run loads the installed iniconfig ")
