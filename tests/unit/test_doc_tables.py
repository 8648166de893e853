"""The reference docs' tables read in one go (issue 53): a row a reader takes in at once."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A table cell is read in one go; beyond this the details belong in the prose under the
# table (docs/agents.md, docs/commands.md) or in a doc of their own (docs/testgen.md).
MAX_ROW_CHARS = 650


@pytest.mark.parametrize("doc", ["README.md", "docs/agents.md", "docs/commands.md"])
def test_every_table_row_of_the_docs_reads_in_one_go(doc: str) -> None:
    long_rows = [
        f"line {number}: {len(line)} characters ({line[:60]}…)"
        for number, line in enumerate((ROOT / doc).read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("|") and len(line) > MAX_ROW_CHARS
    ]
    assert long_rows == [], f"{doc}: move the details into the prose under the table: {long_rows}"
