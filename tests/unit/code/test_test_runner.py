"""How a project runs its tests, read from its configuration and test files (test_runner)."""

from __future__ import annotations

from remora.code.probes.test_runner import style_of_files

_TOX_TOML = """
[project]
name = "lilparser"

[tool.tox.env_run_base]
commands = [["python", "-m", "unittest", { replace = "posargs", extend = true }]]
"""
_CASE_FILE = "import unittest\n\n\nclass TestParse(unittest.TestCase):\n    pass\n"


def test_a_tox_command_of_unittest_in_pyproject_makes_unittest_tests() -> None:
    style = style_of_files({"pyproject.toml": _TOX_TOML})
    assert style.runner == "unittest"
    assert style.classes
    assert "python -m unittest" in style.evidence


def test_test_case_subclasses_alone_make_unittest_tests() -> None:
    files = {"tests/test_parse.py": _CASE_FILE.replace("import unittest", "import unittest  # x")}
    assert style_of_files(files).runner == "unittest"
    named = "from unittest import TestCase as Case\n\n\nclass TestParse(Case):\n    pass\n"
    assert style_of_files({"tests/test_parse.py": named}).runner == "unittest"


def test_tox_ini_and_a_makefile_are_read_for_the_command_name() -> None:
    tox = "[testenv]\ncommands =\n    python -m unittest discover -s tests\n"
    assert style_of_files({"tox.ini": tox}).runner == "unittest"
    make = "test:\n\tpython -m unittest -v\n"
    assert style_of_files({"Makefile": make}).runner == "unittest"


def test_any_use_of_pytest_keeps_pytest_tests() -> None:
    assert style_of_files({"tests/test_parse.py": _CASE_FILE, "tests/conftest.py": ""}).runner == (
        "pytest"
    )
    cfg = "[metadata]\nname = lilparser\n\n[tool:pytest]\naddopts = -q\n"
    assert style_of_files({"setup.cfg": cfg, "tests/test_parse.py": _CASE_FILE}).runner == "pytest"
    workflow = "jobs:\n  test:\n    steps:\n      - run: python -m pytest -q\n"
    files = {".github/workflows/ci.yml": workflow, "tests/test_parse.py": _CASE_FILE}
    assert style_of_files(files).runner == "pytest"
    mixed = {"tests/test_parse.py": _CASE_FILE, "tests/test_more.py": "import pytest\n"}
    assert style_of_files(mixed).runner == "pytest"


def test_nothing_said_keeps_pytest() -> None:
    style = style_of_files({})
    assert style.runner == "pytest"
    assert not style.classes
    plain = {"tests/test_parse.py": "def test_one():\n    assert 1\n", "pyproject.toml": "["}
    assert style_of_files(plain).runner == "pytest"
