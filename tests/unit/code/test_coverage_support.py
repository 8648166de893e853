"""The per-context coverage of a span is in the parser's terms (each statement's first line)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from remora.code.probes.programs.coverage_support import finish_coverage, start_coverage

SOURCE = """def ordinal(number):
    if number % 100 in (11, 12, 13):
        return "th"
    else:
        return {
            1: "st",
            2: "nd",
        }.get(number % 10, "th")
"""


def measured_ordinals(path: Path) -> dict[str, Any]:
    """The report of ``ordinal(1)`` (context "first") and ``ordinal(11)`` ("eleventh"),
    SOURCE written at ``path`` and measured as the sandbox measures it."""
    path.write_text(SOURCE, encoding="utf-8")
    spec = {"file": str(path), "first": 2, "last": 8}
    measured = start_coverage(spec)
    loaded = importlib.util.spec_from_file_location(path.stem, path)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    measured.switch_context("first")
    assert module.ordinal(1) == "st"
    measured.switch_context("eleventh")
    assert module.ordinal(11) == "th"
    measured.switch_context("")
    return finish_coverage(measured, spec)


def test_a_branch_into_a_multi_line_statement_counts_as_taken(tmp_path: Path) -> None:
    report = measured_ordinals(tmp_path / "ordinal_module.py")
    assert report["branches"] == [[2, 3], [2, 5]]
    # Python runs the dict from its first key's line (6); the arc is to the statement at 5.
    assert report["contexts"]["first"]["arcs"] == [[2, 5]]
    assert report["contexts"]["eleventh"]["arcs"] == [[2, 3]]
    assert report["contexts"]["first"]["lines"] == [2, 5]
    assert set(report["statements"]) == {2, 3, 5}


# The sandbox runs the programs in the project's root, where coverage.py would read the
# project's own settings: a ``source`` overrides the ``include`` that names the node's file
# (a stale one, naming the module a package replaced, measured nothing at all), an
# ``omit`` leaves the file out.
@pytest.mark.parametrize(
    ("name", "settings"),
    [
        pytest.param(".coveragerc", "[run]\nsource = ordinals.py\n", id="stale-source"),
        pytest.param("setup.cfg", "[coverage:run]\nomit = */ordinals/*\n", id="omit"),
        pytest.param(
            "pyproject.toml", '[tool.coverage.run]\nsource = ["elsewhere"]\n', id="pyproject"
        ),
    ],
)
def test_the_projects_coverage_settings_leave_the_span_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, settings: str
) -> None:
    (tmp_path / name).write_text(settings, encoding="utf-8")
    (tmp_path / "ordinals").mkdir()
    monkeypatch.chdir(tmp_path)
    report = measured_ordinals(tmp_path / "ordinals" / "__init__.py")
    assert report["contexts"]["first"]["lines"] == [2, 5]
    assert report["contexts"]["eleventh"]["lines"] == [2, 3]
