"""Written tests laid out by ruff format under the project's settings, on their own lines only."""

from __future__ import annotations

from pathlib import Path

from remora.code import CodeContext
from remora.code.formatter import written_ranges
from remora.code.testgen.test_layout import formatted_test_file
from remora.config import SandboxConfig
from remora.workspace import WorkspaceStore

THEIRS = "from shop import total\n\n\ndef test_theirs( ):\n    assert total( [1] )==1\n"
OURS = (
    "\n\ndef test_total_of_two_prices_returns_3():\n"
    "    result = total(prices=[1, 2], currency_symbol='EUR', rounding_mode='half_even')\n"
    "    assert result == 3\n"
)


def test_the_lines_written_are_the_ranges_the_original_lacks() -> None:
    original = "a\nb\nc\n"
    assert written_ranges(original, "a\nB\nc\nd\ne\n") == [(2, 2), (4, 5)]
    assert written_ranges(original, original) == []


async def test_only_the_run_s_lines_are_formatted_with_the_project_s_line_length(
    tmp_path: Path,
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 60\n")
    with WorkspaceStore(tmp_path).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        text = await formatted_test_file(context, "tests/test_shop.py", THEIRS, THEIRS + OURS)
    assert text.startswith(THEIRS)  # the maintainer's own test keeps every byte
    assert text.removeprefix(THEIRS) == (
        "\n\ndef test_total_of_two_prices_returns_3():\n"
        "    result = total(\n"
        "        prices=[1, 2],\n"
        '        currency_symbol="EUR",\n'
        '        rounding_mode="half_even",\n'
        "    )\n"
        "    assert result == 3\n"
    )


async def test_a_new_file_is_formatted_whole_with_ruff_s_default_length(tmp_path: Path) -> None:
    with WorkspaceStore(tmp_path).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        body = "from shop import total" + OURS.replace("[1, 2]", "[1, 2, 3, 4, 5]")
        text = await formatted_test_file(context, "tests/test_shop.py", "", body)
    # 88 columns: ruff's default, where the project sets none.
    assert "    result = total(\n        prices=[1, 2, 3, 4, 5]," in text
    assert max(len(line) for line in text.splitlines()) <= 88


async def test_a_new_file_s_imports_are_sorted_as_ruff_s_isort_sorts_them(tmp_path: Path) -> None:
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    written = (
        '"""Tests for shop."""\n\nimport pytest\n\nfrom shop import total\n'
        "from fractions import Fraction\n\n\ndef test_total():\n"
        "    assert total() == Fraction(1, 2)\n"
    )
    with WorkspaceStore(tmp_path).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        text = await formatted_test_file(context, "tests/test_shop.py", "", written)
    # The standard library first, then third-party, then the project's own.
    assert text.startswith(
        '"""Tests for shop."""\n\nfrom fractions import Fraction\n\n'
        "import pytest\n\nfrom shop import total\n"
    )
