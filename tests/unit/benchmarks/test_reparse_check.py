"""benchmarks/reparse_check.py: a partial parse is compared with the whole parse, and a
tree whose partial parses all agree reports no mismatch."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from reparse_check import check, same_as_whole  # noqa: E402  (a script folder, not a package)

import remora.code.parsing.reparse as reparse  # noqa: E402
from remora.code.parsing import ParsedFile  # noqa: E402

SOURCE = """from typing import Optional
import os


def size(path: Optional[str]) -> Optional[int]:
    if path is not None:
        return os.path.getsize(path)
    return None
"""


def test_a_partial_parse_equal_to_the_whole_is_same_and_a_whole_one_is_none() -> None:
    old = ParsedFile(SOURCE)
    nested = SOURCE.replace("getsize(path)\n", "getsize(path)  # bytes\n")
    assert same_as_whole(old, nested) is True
    assert same_as_whole(old, SOURCE.replace("return None", "return (")) is None  # unreadable


def test_a_partial_parse_that_differs_is_a_mismatch(monkeypatch: pytest.MonkeyPatch) -> None:
    old = ParsedFile(SOURCE)
    other = ParsedFile(SOURCE.replace("return None", "return 0"))
    wrong = reparse.reparsed_spans(other, other.data)  # a tree of another text
    monkeypatch.setattr("reparse_check.reparsed_spans", lambda _old, _new: wrong)
    assert same_as_whole(old, SOURCE) is False


def test_a_tree_of_files_is_checked_with_ruffs_fixes_and_nested_edits(tmp_path: Path) -> None:
    (tmp_path / "size.py").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "broken.py").write_text("def (:\n", encoding="utf-8")  # LibCST refuses it
    figures = check(tmp_path, "I,UP", edits=2)
    assert figures["files"] == 1
    assert figures["texts"] == 1 + 3  # ruff's fixes, then three edits of the one nested line
    assert figures["partial"] >= 3
    assert figures["mismatches"] == []
