"""``--changed``, ``--base``, ``--staged``: the options that narrow a command to changed nodes."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from remora.discovery.changed_nodes import ChangedNodes

__all__ = ["BaseOpt", "ChangedOpt", "StagedOpt", "print_picked", "wants_changed"]

ChangedOpt = Annotated[
    bool,
    typer.Option(
        "--changed",
        help="Only the nodes whose lines differ from the base (git): new and untracked "
        "files included, deleted nodes left out.",
    ),
]
BaseOpt = Annotated[
    str | None,
    typer.Option(
        "--base",
        help="The git ref --changed compares with (default: the merge base of HEAD and the "
        "default branch, origin/HEAD else main or master; HEAD with --staged). Implies --changed.",
        show_default=False,
    ),
]
StagedOpt = Annotated[
    bool,
    typer.Option(
        "--staged",
        help="Compare the index (what the next commit holds) instead of the work tree. "
        "Implies --changed.",
    ),
]


def wants_changed(changed: bool, base: str | None, staged: bool) -> bool:
    return changed or base is not None or staged


def print_picked(found: ChangedNodes, console: Console, *, each: bool = True) -> None:
    """The base, then (``each``) each picked node on its own line, then the deleted ones."""
    for line in found.listing(each=each):
        console.print(line, markup=False, highlight=False)
