"""``remora review``: list, show, accept (whole or by hunk) and reject (with a reason)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from remora import review
from remora.cli import export_cmd
from remora.cli.delivery_view import print_commits
from remora.cli.options import FormatOpt, OutputFormat, SharedOptions, shared_options
from remora.cli.output import console, err_console, print_json, print_table
from remora.delivery.commits import accept_as_commits
from remora.workspace import FileChange
from remora.workspace.diff import escape_controls, split_lines
from remora.workspace.hunks import change_hunks, parse_hunk_numbers

__all__ = ["register", "review_app"]

review_app = typer.Typer(
    name="review",
    help="Review the agents' changes: list, show, accept, reject.",
    invoke_without_command=True,
    no_args_is_help=False,
)

IdsArg = Annotated[
    list[str] | None,
    typer.Argument(help="Workspace ids (see `remora review`).", show_default=False),
]
AllOpt = Annotated[bool, typer.Option("--all", help="Every workspace.")]
HunksOpt = Annotated[
    str | None,
    typer.Option(
        "--hunks", help="Only these hunks, e.g. 1,3 or 2-4 (numbers from `remora review show`)."
    ),
]
ReasonOpt = Annotated[
    str | None,
    typer.Option("--reason", help="Why: stored with the node and told to its agent's next run."),
]
CommitOpt = Annotated[
    bool,
    typer.Option(
        "--commit",
        help="Commit each accepted change's files, and nothing else staged (git), with a "
        "message naming the operation, the node and what was checked.",
    ),
]
SquashOpt = Annotated[
    bool, typer.Option("--squash", help="With --commit: one commit for all the changes.")
]
IncludeEmptyOpt = Annotated[
    bool, typer.Option("--include-empty", help="Also list workspaces without changes.")
]


def _merged(ctx: typer.Context, opts: SharedOptions) -> SharedOptions:
    """Options given before the subcommand (``remora review --project X show ID``) count too."""
    parent = ctx.parent.obj if ctx.parent is not None else None
    if not isinstance(parent, SharedOptions):
        return opts
    for name in ("project", "config_path"):
        if getattr(opts, name) is None:
            setattr(opts, name, getattr(parent, name))
    return opts


def _root(opts: SharedOptions) -> Path:
    # The config file is only needed to find the project; a broken one must
    # not stop a review, so it is loaded only when it was named.
    if opts.config_path is not None and opts.project is None:
        return opts.load().project_root
    return opts.project_root()


def _list(opts: SharedOptions, output_format: OutputFormat, include_empty: bool) -> None:
    items = review.list_changes(_root(opts), include_empty=include_empty)
    if output_format is OutputFormat.json:
        print_json([item.to_dict() for item in items])
        return
    if not items:
        console.print("Nothing to review.")
        return
    # The id is what `review show/accept/reject` take: never wrapped. The change
    # column (node, file, summary) wraps to whatever width is left.
    table = Table(box=None, pad_edge=False)
    table.add_column("id", no_wrap=True)
    table.add_column("operation", no_wrap=True)
    table.add_column("state", no_wrap=True)
    table.add_column("+/-", justify="right", no_wrap=True)
    table.add_column("change", overflow="fold")
    for item in items:
        change = Text(item.node, style="bold")
        if item.file_path and item.file_path != item.node:
            change.append(f" {item.file_path}", style="dim")
        change.append(f"\n{item.summary}")
        lines = Text(f"+{item.additions}", style="green")
        lines.append(f" -{item.deletions}", style="red")
        table.add_row(item.id, item.operation, item.state, lines, change)
    print_table(table)


_STYLES = (
    ("diff --git", "bold"),
    ("+++", "bold"),
    ("---", "bold"),
    ("@@", "cyan"),
    ("+", "green"),
    ("-", "red"),
    ("Binary files", "yellow"),
)


def _coloured(changes: list[FileChange]) -> Text:
    """The diff, coloured by line prefix, each hunk labelled with its number for --hunks.

    A modified file's hunks are its ``@@`` lines in order; an added, deleted or
    binary file is one hunk, labelled on its ``diff --git`` line. Rich drops
    the colour off a terminal.
    """
    text = Text()
    hunks = change_hunks(changes)
    for change in changes:
        own = [h for h in hunks if h.path == change.path]
        labels = iter(own)
        for line in split_lines(change.diff()):
            style = next((s for prefix, s in _STYLES if line.startswith(prefix)), "")
            line = escape_controls(line)
            whole = own[0].whole_file and line.startswith("diff --git")
            if whole or (not own[0].whole_file and line.startswith("@@")):
                text.append(line.rstrip("\n"), style=style)
                text.append(f"  [hunk {next(labels).number}]\n", style="bold magenta")
                continue
            text.append(line, style=style)
    return text


@review_app.callback()
@shared_options
def review_callback(
    ctx: typer.Context,
    opts: SharedOptions,
    output_format: FormatOpt = OutputFormat.table,
    include_empty: IncludeEmptyOpt = False,
) -> None:
    """List the results waiting for review (the same as `remora review list`)."""
    ctx.obj = opts
    if ctx.invoked_subcommand is None:
        _list(opts, output_format, include_empty)


@review_app.command("list")
@shared_options
def list_command(
    ctx: typer.Context,
    opts: SharedOptions,
    output_format: FormatOpt = OutputFormat.table,
    include_empty: IncludeEmptyOpt = False,
) -> None:
    """List the results waiting for review: id, node, operation, summary, +/- lines."""
    _list(_merged(ctx, opts), output_format, include_empty)


@review_app.command("show")
@shared_options
def show_command(
    ctx: typer.Context,
    opts: SharedOptions,
    workspace_id: Annotated[str, typer.Argument(help="Workspace id.")],
    output_format: FormatOpt = OutputFormat.table,
) -> None:
    """Print the unified diff of one workspace (coloured on a terminal)."""
    view = review.show(workspace_id, project=_root(_merged(ctx, opts)), shared=True)
    if output_format is OutputFormat.json:
        print_json(view.to_dict())
        return
    changes, diff = view.files, view.diff
    if not diff:
        console.print(f"{workspace_id}: no changes.")
        return
    for change in changes:  # on stderr: a piped diff stays one `git apply` reads
        if change.conflict:
            where = escape_controls(change.path)
            err_console.print(
                f"[red]conflict[/] {escape(where)}: {escape(change.conflict)} (the diff shows "
                "the change as the agent made it; `remora analyze` runs the node again)",
                markup=True,
            )
    for path, others in view.shared.items():  # on stderr too: the piped diff stays whole
        listed = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
        err_console.print(
            f"{escape_controls(path)} is created by {len(others)} other pending change(s) "
            f"too ({listed}): accepting them writes one file with all their contents",
            markup=False,
        )
    if not console.is_terminal:  # piped: the plain diff, as `git apply` reads it
        console.print(escape_controls(diff), end="", markup=False, highlight=False)
        return
    console.print(_coloured(changes), end="")
    if view.coverage:
        console.print(
            f"[bold]coverage of the node[/bold] (before -> after): {escape(view.coverage)}"
        )
    if view.mutation:
        console.print(
            f"[bold]mutation score of the node[/bold] (before -> after): {escape(view.mutation)}"
        )


@review_app.command("accept")
@shared_options
def accept_command(
    ctx: typer.Context,
    opts: SharedOptions,
    ids: IdsArg = None,
    all_: AllOpt = False,
    hunks: HunksOpt = None,
    output_format: FormatOpt = OutputFormat.table,
    commit: CommitOpt = False,
    squash: SquashOpt = False,
) -> None:
    """Write workspaces' changes into the project (refused per file on conflicts).

    With --hunks only those hunks of one workspace are written (numbers as
    `remora review show ID` labels them); the other hunks are discarded with it.
    With --commit each change becomes a git commit of exactly its files
    (--squash: one commit); a file with edits of your own is refused, named.
    """
    chosen = None if hunks is None else parse_hunk_numbers(hunks)
    if commit or squash:
        root = _root(_merged(ctx, opts))
        commits = accept_as_commits(
            ids or [], project=root, every=all_, squash=squash, hunks=chosen
        )
        print_commits(commits, output_format)
        return
    outcomes = review.accept(ids or [], project=_root(_merged(ctx, opts)), every=all_, hunks=chosen)
    failures = {o.workspace_id: o.error for o in outcomes if o.error is not None}
    reports = [o.report for o in outcomes if o.report is not None]
    if output_format is OutputFormat.json:
        print_json(
            [o.to_dict() for o in outcomes if o.report is not None]
            + [o.to_dict() for o in outcomes if o.error is not None]
        )
    else:
        for workspace_id, failure in failures.items():
            err_console.print(f"[red]failed[/] {workspace_id}: {failure.message}", markup=True)
            if failure.hint:
                err_console.print(f"  hint: {failure.hint}", markup=False)
        for report in reports:
            if report.accepted:
                how = " (resumed an interrupted accept)" if report.resumed else ""
                console.print(
                    f"accepted {report.workspace_id}: {len(report.written)} written, "
                    f"{len(report.deleted)} deleted{how}"
                )
                for note in report.notes():
                    console.print(f"  {escape_controls(note)}", markup=False)
                continue
            done = len(report.written) + len(report.deleted)
            what = "nothing written" if not done else f"{done} file(s) written, these kept"
            err_console.print(f"[red]conflict[/] {report.workspace_id}: {what}", markup=True)
            for conflict in report.conflicts:
                shown = escape_controls(conflict.path)
                err_console.print(f"  {shown}: {conflict.reason}", markup=False)
            if done:
                err_console.print(
                    f"  the workspace keeps only these files: `remora review reject "
                    f"{report.workspace_id}` discards them",
                    markup=False,
                )
    if failures or any(not r.accepted for r in reports):
        raise typer.Exit(1)


@review_app.command("reject")
@shared_options
def reject_command(
    ctx: typer.Context,
    opts: SharedOptions,
    ids: IdsArg = None,
    all_: AllOpt = False,
    reason: ReasonOpt = None,
    output_format: FormatOpt = OutputFormat.table,
) -> None:
    """Discard workspaces; the project is not touched.

    With --reason the reason is stored with the node: the next run of its agent
    (`remora analyze`, or `remora analyze --retry-rejected`) is told it.
    """
    chosen = review.reject(ids or [], project=_root(_merged(ctx, opts)), every=all_, reason=reason)
    if output_format is OutputFormat.json:
        print_json({"rejected": chosen, "reason": (reason or "").strip() or None})
    else:
        for workspace_id in chosen:
            console.print(f"rejected {workspace_id}")


def register(app: typer.Typer) -> None:
    """Add ``remora review`` and its subcommands to the root app."""
    export_cmd.register(review_app)
    app.add_typer(review_app, name="review")
