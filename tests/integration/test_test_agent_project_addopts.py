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


# Its ``filterwarnings`` are the project's, kept: blinker's are ``["error"]``, and a test of
# code that warns, not expecting its warning, fails the project's own suite. (A deprecated
# alias gets no test at all: testgen/shadowed_builtins.py.)
WARNED = '[project]\nname = "kit"\n\n[tool.pytest.ini_options]\nfilterwarnings = ["error"]\n'
OLD_KIT = """\
import warnings


def loud_clamp(value: int, low: int, high: int) -> int:
    warnings.warn("loud_clamp clamps", UserWarning, stacklevel=2)
    return max(low, min(value, high))
"""


async def test_a_test_the_projects_warning_filters_fail_is_not_kept(tmp_path: Path) -> None:
    files = {"pyproject.toml": WARNED, "kit.py": OLD_KIT}
    found, written = await search_tests_on(
        tmp_path, files, "kit.py", "loud_clamp", "tests/test_kit.py"
    )
    assert not found["kept"], found
    assert written is None or b"def test_loud_clamp" not in written
    # The same code with no such filter is tested: the warning alone stops nothing.
    plain = {"pyproject.toml": '[project]\nname = "kit"\n', "kit.py": OLD_KIT}
    (tmp_path / "plain").mkdir()
    found, written = await search_tests_on(
        tmp_path / "plain", plain, "kit.py", "loud_clamp", "tests/test_kit.py"
    )
    assert found["kept"], found
