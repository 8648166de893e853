"""Console output shared by the commands."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console

__all__ = ["console", "err_console", "print_json"]

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """Plain JSON on stdout (no colour codes, so it pipes into jq)."""
    print(json.dumps(data, indent=2, ensure_ascii=False, default=str))
