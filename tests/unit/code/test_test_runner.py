"""How a project runs its tests, read from its configuration and test files (test_runner)."""

from __future__ import annotations

import ast

import pytest

from remora.code.probes import test_runner
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
    assert not style.classes and not style.stated
    plain = {"tests/test_parse.py": "def test_one():\n    assert 1\n", "pyproject.toml": "["}
    assert style_of_files(plain).runner == "pytest"


_SETUP_PY = """
from setuptools import setup

tests_require = ["coverage", "nose"]

setup(name="lilcache", tests_require=tests_require, extras_require={"tests": tests_require})
"""


def test_nose_among_setup_py_s_test_requirements_makes_unittest_classes() -> None:
    style = style_of_files({"setup.py": _SETUP_PY})
    assert style.runner == "nose" and style.classes and style.stated
    assert style.evidence == "setup.py lists nose among its requirements"
    assert style_of_files({"Makefile": "test:\n\tnosetests -v\n"}).runner == "nose"
    nose_tools = "from nose.tools import eq_\n\n\ndef test_get():\n    eq_(1, 1)\n"
    assert style_of_files({"tests/test_cache.py": nose_tools}).runner == "nose"
    # pytest anywhere still wins: nose is only a dependency left over.
    assert style_of_files({"setup.py": _SETUP_PY, "tests/conftest.py": ""}).runner == "pytest"


def test_a_lower_case_makefile_and_python_s_joined_m_are_read() -> None:
    make = "test:\n\tpython3 -munittest\n\ncoverage:\n\tcoverage run -m unittest\n"
    style = style_of_files({"makefile": make})
    assert style.runner == "unittest" and style.evidence == "makefile: a command"


def test_pytest_among_the_requirements_files_is_pytest_stated() -> None:
    style = style_of_files({"requirements-dev.txt": "coverage\npytest>=7\n"})
    assert style.runner == "pytest" and style.stated
    assert style.evidence == "requirements-dev.txt lists pytest among its requirements"
    tox = "[testenv]\ndeps =\n    pytest\ncommands = {posargs}\n"
    assert style_of_files({"tox.ini": tox}).stated
    # Nothing said: pytest for the test agent (as before), but not stated.
    assert not style_of_files({"setup.py": "from setuptools import setup\nsetup()\n"}).stated


def test_test_files_after_the_first_pytest_evidence_are_not_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each sample_data and test run asks; SQLAlchemy's forty test files took ~1 s a run.
    parsed: list[str] = []
    real_parse = test_runner.python_ast.parse

    def parse(text: str) -> ast.Module:
        parsed.append(text)
        return real_parse(text)

    monkeypatch.setattr(test_runner.python_ast, "parse", parse)
    cases = {f"tests/test_case_{i}.py": _CASE_FILE + f"# parse once {i}\n" for i in range(3)}
    cfg = "[metadata]\nname = lilparser\n\n[tool:pytest]\naddopts = -q\n"
    style = style_of_files({"setup.cfg": cfg, **cases})
    assert (style.runner, style.evidence) == ("pytest", "setup.cfg has pytest's section")
    assert parsed == []
    # Without pytest evidence every test file is read, each once for the process.
    for _ in range(2):
        style = style_of_files(cases)
        assert (style.runner, style.evidence) == (
            "unittest",
            "tests/test_case_0.py subclasses unittest.TestCase",
        )
    assert len(parsed) == 3
