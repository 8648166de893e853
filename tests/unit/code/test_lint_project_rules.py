"""Ruff's findings on checks a project leaves to other tools are not the lint agent's to fix.

Real ruff on made-up projects: a flake8 ``# noqa: C901`` that ruff does not check,
and imports a project sorts with its own isort settings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from remora.code import CodeContext
from remora.code.lint.project_rules import not_the_projects
from remora.code.lint.ruff_runs import ruff_json
from remora.config import SandboxConfig
from remora.workspace import WorkspaceStore

# Unsorted imports (by ruff's isort: `from` after `import`, whatever the module), a noqa
# for a code ruff does not enable by default here, and one for a code ruff checks and
# finds nothing for.
SOURCE = (
    "from collections.abc import Iterable\n"
    "import string\n"
    "\n"
    "\n"
    "def f(x: Iterable[str]) -> str:  # noqa: C901\n"
    "    return string.ascii_letters + str(x)  # noqa: F401\n"
)


async def _codes(root: Path, settings: dict[str, str], source: str = SOURCE) -> list[str]:
    for name, text in settings.items():
        (root / name).write_text(text)
    (root / "pkg").mkdir()
    (root / "pkg/m.py").write_text(source)
    with WorkspaceStore(root).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        records = await ruff_json(context, "pkg/m.py", source)
    return sorted(r["code"] for r in records)


RUFF_RULES = '[tool.ruff.lint]\nselect = ["I", "RUF100", "F"]\n'


async def test_a_noqa_ruff_does_not_check_stays_and_an_unused_one_is_found(
    tmp_path: Path,
) -> None:
    codes = await _codes(tmp_path, {"pyproject.toml": RUFF_RULES})
    # C901 is not enabled: its noqa is flake8's, not unused. F401's is unused.
    assert codes.count("RUF100") == 1, codes
    assert "I001" in codes  # no isort settings of the project's own: ruff's isort decides


@pytest.mark.parametrize(
    "settings",
    [
        {"pyproject.toml": RUFF_RULES + "\n[tool.isort]\nforce_sort_within_sections = true\n"},
        {"pyproject.toml": RUFF_RULES, "setup.cfg": "[isort]\nprofile = black\n"},
        {"pyproject.toml": RUFF_RULES, "tox.ini": "[tool:isort]\nline_length = 88\n"},
        {"pyproject.toml": RUFF_RULES, ".isort.cfg": "[settings]\nprofile = black\n"},
    ],
)
async def test_imports_a_project_sorts_with_its_own_isort_are_left_to_it(
    tmp_path: Path, settings: dict[str, str]
) -> None:
    assert "I001" not in await _codes(tmp_path, settings)


async def test_ruffs_isort_configured_by_the_project_is_the_projects(tmp_path: Path) -> None:
    both = RUFF_RULES + "\n[tool.ruff.lint.isort]\ncombine-as-imports = true\n"
    both += "\n[tool.isort]\nprofile = 'black'\n"
    assert "I001" in await _codes(tmp_path, {"pyproject.toml": both})


@pytest.mark.parametrize(
    ("message", "left_out"),
    [
        ("Unused `noqa` directive (non-enabled: `C901`)", True),
        ("Unused `noqa` directive (unknown: `XYZ1`)", True),
        ("Unused `noqa` directive (unused: `F401`; non-enabled: `A003`)", True),
        ("Unused `noqa` directive (unused: `F401`)", False),
    ],
)
def test_a_noqa_is_unused_only_for_codes_ruff_checks(
    tmp_path: Path, message: str, left_out: bool
) -> None:
    (tmp_path / "ruff.toml").write_text("line-length = 100\n")
    record: dict[str, Any] = {"code": "RUF100", "message": message}
    assert not_the_projects(record, tmp_path) is left_out


def test_a_noqa_is_left_to_the_tools_a_project_without_ruff_settings_runs(
    tmp_path: Path,
) -> None:
    # natsort's noqa comment for F811 after a conditional import: pyflakes (its flake8 env)
    # reports the redefinition, ruff does not; both reviewers rejected the removal.
    (tmp_path / "tox.ini").write_text("[testenv:flake8]\ncommands = flake8\n")
    record: dict[str, Any] = {
        "code": "RUF100",
        "message": "Unused `noqa` directive (unused: `F811`)",
    }
    assert not_the_projects(record, tmp_path) is True


def test_an_e501_noqa_stays_where_flake8_would_find_the_line_too_long(tmp_path: Path) -> None:
    # pluggy: ruff's E and flake8's max-line-length=99; ruff lets a line ending in a URL
    # pass, flake8 does not, and both reviewers rejected the removal.
    (tmp_path / "pyproject.toml").write_text("[tool.ruff.lint]\nextend-select = ['E']\n")
    (tmp_path / "tox.ini").write_text("[flake8]\nmax-line-length=99\n")
    url = "# see https://example.org/" + "a" * 100
    text = f"x = 1\n{url}  # noqa: E501\nshort = 2  # noqa: E501\n"
    record: dict[str, Any] = {
        "code": "RUF100",
        "message": "Unused `noqa` directive (unused: `E501`)",
        "location": {"row": 2, "column": 130},
    }
    assert not_the_projects(record, tmp_path, text) is True
    # A line flake8 allows needs it no more than ruff does.
    short = {**record, "location": {"row": 3, "column": 12}}
    assert not_the_projects(short, tmp_path, text) is False


@pytest.mark.parametrize(
    ("settings", "left_out"),
    [
        ({}, True),  # flake8's line length, say: ruff's defaults cannot tell
        ({"setup.cfg": "[flake8]\nmax-line-length = 79\n"}, True),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 100\n"}, False),
        ({"ruff.toml": "line-length = 100\n"}, False),
    ],
)
def test_a_blanket_noqa_is_unused_only_where_the_project_configures_ruff(
    tmp_path: Path, settings: dict[str, str], left_out: bool
) -> None:
    for name, text in settings.items():
        (tmp_path / name).write_text(text)
    record: dict[str, Any] = {"code": "RUF100", "message": "Unused blanket `noqa` directive"}
    assert not_the_projects(record, tmp_path) is left_out


SLOTS = "class Node:\n    __slots__ = ('value', 'next', 'prev')\n"


@pytest.mark.parametrize(
    ("settings", "reported"),
    [
        ({}, False),  # no ruff settings: ruff's defaults sort it, the project never asked
        ({"pyproject.toml": "[project]\nname = 'p'\n"}, False),
        ({"pyproject.toml": '[tool.ruff.lint]\nextend-select = ["RUF023"]\n'}, True),
        ({"ruff.toml": '[lint]\nselect = ["RUF"]\n'}, True),
    ],
)
async def test_sorting_slots_is_the_projects_only_where_it_configures_ruff(
    tmp_path: Path, settings: dict[str, str], reported: bool
) -> None:
    codes = await _codes(tmp_path, settings, SLOTS)
    assert ("RUF023" in codes) is reported, codes


SPACED = "import re\n\nfrom collections.abc import Mapping\n\nx = re, Mapping\n"


@pytest.mark.parametrize(
    ("settings", "reported"),
    [
        ({}, False),  # nothing chose ruff's layout: a blank line removed is churn
        ({"pyproject.toml": '[tool.ruff.lint]\nselect = ["I"]\n'}, True),
    ],
)
async def test_a_layout_only_import_fix_is_the_projects_only_where_it_chose_ruffs(
    tmp_path: Path, settings: dict[str, str], reported: bool
) -> None:
    codes = await _codes(tmp_path, settings, SPACED)
    assert ("I001" in codes) is reported, codes


PRE_COMMIT = """\
repos:
- repo: https://github.com/astral-sh/ruff-pre-commit
  rev: "{rev}"
  hooks:
    - id: ruff
"""


@pytest.mark.parametrize(
    ("rev", "settings", "code", "left_out"),
    [
        # pluggy: ruff 0.11.9, extend-select I F E W UP ANN; RUF023 is 0.16's default only.
        ("v0.11.9", "[tool.ruff.lint]\nextend-select = ['I', 'UP']\n", "RUF023", True),
        ("v0.11.9", "[tool.ruff.lint]\nextend-select = ['I', 'UP']\n", "UP035", False),
        ("v0.11.9", "[tool.ruff.lint]\nextend-select = ['I', 'UP']\n", "F401", False),
        ("v0.11.9", "", "B006", True),  # no settings: the old default alone
        ("v0.11.9", "[tool.ruff]\nselect = ['B']\n", "B006", False),  # its own select
        ("v0.11.9", "[tool.ruff]\nselect = ['ALL']\n", "RUF023", False),
        # The wide default is the project's own (with ruff settings: RUF022/023 above).
        ("v0.16.0", "[tool.ruff]\nline-length = 100\n", "RUF023", False),
    ],
)
def test_a_pinned_older_ruff_checks_its_own_default_and_the_projects_selection(
    tmp_path: Path, rev: str, settings: str, code: str, left_out: bool
) -> None:
    (tmp_path / ".pre-commit-config.yaml").write_text(PRE_COMMIT.format(rev=rev))
    (tmp_path / "pyproject.toml").write_text(settings)
    record: dict[str, Any] = {"code": code, "message": "..."}
    assert not_the_projects(record, tmp_path) is left_out


@pytest.mark.parametrize(
    ("settings", "code", "left_out"),
    [
        # tenacity 9.1.2: ruff settings without a selection, and an unpinned ruff. The
        # sorts only the wide default asks for are not the project's; other rules stand.
        ("[tool.ruff]\nline-length = 88\n", "I001", True),
        ("[tool.ruff]\nline-length = 88\n", "RUF022", True),
        ("[tool.ruff]\nline-length = 88\n", "B006", False),
        ("[tool.ruff]\nline-length = 88\n", "RUF100", False),
        ("[tool.ruff.lint]\nextend-select = ['I']\n", "I001", False),
        ("[tool.ruff.lint.isort]\nforce-single-line = true\n", "I001", False),
        ("[tool.ruff.lint]\nselect = ['ALL']\n", "RUF022", False),
        # isbnlib 3.10.14 (no ruff settings): re.I spelled re.IGNORECASE, rejected twice;
        # colorama's dict() spelled {}.
        ("", "FURB167", True),
        ("", "C408", True),
        ("[tool.ruff.lint]\nextend-select = ['FURB']\n", "FURB167", False),
        ("[tool.ruff.lint]\nselect = ['C4']\n", "C408", False),
        # more-itertools 10.7.0: range(0, 0) spelled range(0), "does nothing".
        ("", "PIE808", True),
        ("[tool.ruff.lint]\nextend-select = ['PIE']\n", "PIE808", False),
        # pygtrie 2.6.2 and jsonmerge 1.9.2: `return None` as a bare `return` where None
        # means "not handled", rejected both times.
        ("", "RET501", True),
        ("[tool.ruff.lint]\nextend-select = ['RET']\n", "RET501", False),
    ],
)
def test_without_a_pinned_ruff_a_sort_or_respelling_stands_only_where_the_project_selects_it(
    tmp_path: Path, settings: str, code: str, left_out: bool
) -> None:
    (tmp_path / "pyproject.toml").write_text(settings)
    record: dict[str, Any] = {"code": code, "message": "..."}
    assert not_the_projects(record, tmp_path) is left_out
