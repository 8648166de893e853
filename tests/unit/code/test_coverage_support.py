"""The per-context coverage of a span is in the parser's terms (each statement's first line)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

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


def test_a_branch_into_a_multi_line_statement_counts_as_taken(tmp_path: Path) -> None:
    path = tmp_path / "ordinal_module.py"
    path.write_text(SOURCE, encoding="utf-8")
    spec = {"file": str(path), "first": 2, "last": 8}
    measured = start_coverage(spec)
    loaded = importlib.util.spec_from_file_location("ordinal_module", path)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    measured.switch_context("first")
    assert module.ordinal(1) == "st"
    measured.switch_context("eleventh")
    assert module.ordinal(11) == "th"
    measured.switch_context("")
    report = finish_coverage(measured, spec)
    assert report["branches"] == [[2, 3], [2, 5]]
    # Python runs the dict from its first key's line (6); the arc is to the statement at 5.
    assert report["contexts"]["first"]["arcs"] == [[2, 5]]
    assert report["contexts"]["eleventh"]["arcs"] == [[2, 3]]
    assert report["contexts"]["first"]["lines"] == [2, 5]
    assert set(report["statements"]) == {2, 3, 5}
