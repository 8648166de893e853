"""Console output shared by the commands."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

__all__ = ["console", "err_console", "print_json", "print_json_items", "print_table"]

console = Console(highlight=False, soft_wrap=True, emoji=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


_UNBOUNDED = 10_000


def print_table(table: Table, target: Console | None = None) -> None:
    """Print ``table`` to fit the terminal; its ``no_wrap`` columns (ids) are never cut.

    Text columns wrap to fit the width; piped, no column wraps. When the ids
    alone need more than the terminal has, the table is printed as wide as they
    need and the terminal wraps the lines: an id stays whole for copy and paste.
    """
    out = target or console
    # Measured without the terminal's limit, which would clamp every width to it.
    unbounded = out.options.update_width(_UNBOUNDED)
    for column in table.columns:
        # Piped (a log, a file, a pager) there is no terminal to fit: nothing wraps.
        if column.no_wrap or not out.is_terminal:
            # Rich measures a cell's minimum as its longest word; an id needs all of it.
            cells = [column.header, *column.cells]  # a header is not cut to "docst…" either
            widths = [Measurement.get(out, unbounded, cell).maximum for cell in cells]
            column.min_width = max([column.min_width or 0, *widths])
    needed = Measurement.get(out, unbounded, table).minimum
    out.print(table, width=max(out.width, needed), crop=False)


def _dumps(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)


def print_json(data: Any) -> None:
    """Plain JSON on stdout (no colour codes, so it pipes into jq)."""
    print(_dumps(data))


def print_json_items(head: dict[str, Any], key: str, items: Iterable[Any]) -> None:
    """What ``print_json({**head, key: list(items)})`` prints, each item written as it is
    serialised: the whole document of a 20,000-node analysis as one string (and its
    dicts) took hundreds of MB."""
    opening = _dumps({**head, key: []})
    cut = opening.rindex("[]")  # the last key's empty list: the items go in there
    write = sys.stdout.write
    write(opening[: cut + 1])
    first = True
    for item in items:
        # By "\n" alone: a string may hold U+2028 or U+0085, where str.splitlines cuts too.
        lines = _dumps(item).split("\n")
        write(("\n" if first else ",\n") + "\n".join("    " + line for line in lines))
        first = False
    write(opening[cut + 1 :] if first else "\n  " + opening[cut + 1 :])
    write("\n")
