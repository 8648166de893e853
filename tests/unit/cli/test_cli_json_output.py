"""The analysis's JSON is written a result at a time, as the same text as the whole document."""

from __future__ import annotations

from typing import Any

import pytest

from remora.cli.output import print_json, print_json_items

HEAD = {"run_id": "r1", "counts": {"success": 2, "failed": 0}, "interrupted": False}
ITEMS: list[Any] = [
    {"node": "f", "details": {"tools": [{"name": "submit", "ok": True}], "empty": []}},
    {"node": "Straße.é", "summary": 'a "quoted"\nline', "error": None, "nested": [[1, 2], {}]},
    {"summary": "line separators kept as they are: \u2028 \u2029 \x85 \x0c"},
    3.5,
]


@pytest.mark.parametrize("items", [[], ITEMS[:1], ITEMS], ids=["none", "one", "several"])
def test_items_written_one_at_a_time_are_the_whole_documents_text(
    items: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    print_json({**HEAD, "results": items})
    whole = capsys.readouterr().out
    print_json_items(HEAD, "results", iter(items))
    assert capsys.readouterr().out == whole
