"""What ``review accept --commit`` printed: one line per commit, errors with their hints."""

from __future__ import annotations

import typer

from remora.cli.options import OutputFormat
from remora.cli.output import console, err_console, print_json
from remora.delivery.commits import CommitOutcome

__all__ = ["print_commits"]


def print_commits(outcomes: list[CommitOutcome], output_format: OutputFormat) -> None:
    """Each commit (short sha, subject, files) or why a change was not committed; exit 1 if any."""
    if output_format is OutputFormat.json:
        print_json([o.to_dict() for o in outcomes])
    else:
        for outcome in outcomes:
            ids = ", ".join(outcome.workspace_ids)
            if outcome.commit is not None:
                subject = outcome.message.splitlines()[0]
                console.print(
                    f"committed {outcome.commit[:10]} {subject} ({ids}; "
                    f"{', '.join(outcome.files)})",
                    markup=False,
                    highlight=False,
                )
                continue
            error = outcome.error
            message = error.message if error is not None else "not committed"
            err_console.print(f"[red]not committed[/] {ids}: ", markup=True, end="")
            err_console.print(message, markup=False, highlight=False)
            if error is not None and error.hint:
                err_console.print(f"  hint: {error.hint}", markup=False, highlight=False)
    if any(o.commit is None for o in outcomes):
        raise typer.Exit(1)
