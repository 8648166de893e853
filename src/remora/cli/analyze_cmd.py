"""Commands of this group are registered here (filled in by the issue that owns them)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this group's commands to the root app."""
    return None
