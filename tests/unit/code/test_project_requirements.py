"""The distributions a project lists among its requirements, each file by its own parser."""

from __future__ import annotations

from remora.code.probes.project_requirements import declared_requirements
from remora.code.probes.setup_script import setup_keywords

_PYPROJECT = """
[project]
name = "lilparser"
dependencies = ["Requests>=2; python_version > '3.8'"]
[project.optional-dependencies]
test = ["pytest_asyncio>=0.24", "coverage[toml]"]
[dependency-groups]
dev = ["ruff", {include-group = "test"}]
[tool.poetry.group.lint.dependencies]
"Mypy.Ext" = "^1"
"""
_SETUP_CFG = """
[options]
install_requires =
    attrs>=22
[options.extras_require]
docs = sphinx
[testenv]
deps =
    pytest-xdist
"""


def test_each_kind_of_file_names_its_requirements_by_their_pep_503_names() -> None:
    requirements = "# pinned\n-r base.txt\nHypothesis==6.0  # the property tests\n-e .\n"
    files = {
        "pyproject.toml": _PYPROJECT,
        "setup.cfg": _SETUP_CFG,
        "requirements.txt": requirements,
    }
    assert declared_requirements(files) == {
        "requests",
        "pytest-asyncio",
        "coverage",
        "ruff",
        "test",  # an include-group's name reads as one; no distribution is called that
        "mypy-ext",
        "attrs",
        "sphinx",
        "pytest-xdist",
        "hypothesis",
    }
    assert declared_requirements({"pyproject.toml": "[broken"}) == set()


# One list shared by two keywords through a name: how setuptools projects write it.
_SETUP_PY = """
from setuptools import setup

tests_require = ["mock", "Nose>=1.3"]
docs = ["sphinx"]
docs = docs + ["furo"]

setup(
    name="lilparser",
    install_requires=["attrs"],
    tests_require=tests_require,
    extras_require={"tests": tests_require, "docs": docs},
    python_requires=">=3.8",
)
"""


def test_setup_py_names_bound_to_a_literal_read_as_that_literal() -> None:
    keywords = setup_keywords(_SETUP_PY)
    assert keywords["tests_require"] == ["mock", "Nose>=1.3"]
    # A name bound twice holds what a run makes of it: not read, and its keyword left out.
    assert "extras_require" not in keywords
    assert keywords["python_requires"] == ">=3.8"
    assert declared_requirements({"setup.py": _SETUP_PY}) == {"attrs", "mock", "nose"}
    assert setup_keywords("setup(") == {} and setup_keywords("print(1)\n") == {}
