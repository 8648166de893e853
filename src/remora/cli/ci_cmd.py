"""``remora ci``: one CI step: the changed nodes, the agents, the review exported and posted.

The base is the pull request's: ``--base``, else the CI's variables
(GitHub Actions' ``GITHUB_BASE_REF``, GitLab's
``CI_MERGE_REQUEST_TARGET_BRANCH_NAME``, as ``origin/NAME``), else the default
branch; its merge base with HEAD is what the pull request's diff starts from.
With a token (``GITHUB_TOKEN``) and the format ``github`` the review is posted
to ``--api-url`` (``GITHUB_API_URL``, default https://api.github.com).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from remora import analysis
from remora.cli.analyze_cmd import OperationsOpt, PathsArg, _exit, _print_warning
from remora.cli.analyze_view import print_report
from remora.cli.changed_opts import print_picked
from remora.cli.export_cmd import ExportFormatOpt, write_export
from remora.cli.options import SharedOptions, shared_options
from remora.cli.output import console, err_console
from remora.coordinator import NullProgress
from remora.coordinator.main_loop import run_main
from remora.delivery.export import EXPORT_FORMATS, export_queue
from remora.delivery.github_api import post_review
from remora.discovery.changed_nodes import discover_changed
from remora.errors import UsageError
from remora.git import head_commit, repo_top, resolve_base

__all__ = ["check_head", "ci_base_ref", "pull_number", "register"]

_SUFFIX = {"github": "json", "gitlab": "json", "patch": "patch", "sarif": "sarif"}


def ci_base_ref(env: dict[str, str]) -> str | None:
    """The pull request's base branch as the CI names it, as a remote-tracking ref."""
    for key in ("GITHUB_BASE_REF", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME"):
        if env.get(key):
            return f"origin/{env[key]}"
    return None


def pull_number(env: dict[str, str]) -> int | None:
    """The pull request's number from GitHub Actions' event file or ref, else None."""
    event = _event(env)
    pull = event.get("pull_request")
    number = pull.get("number") if isinstance(pull, dict) else event.get("number")
    if isinstance(number, int):
        return number
    parts = env.get("GITHUB_REF", "").split("/")  # refs/pull/N/merge
    if len(parts) == 4 and parts[1] == "pull" and parts[2].isdigit():
        return int(parts[2])
    return None


def _event(env: dict[str, str]) -> dict[str, object]:
    event_path = env.get("GITHUB_EVENT_PATH")
    if event_path and Path(event_path).is_file():
        data = json.loads(Path(event_path).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    return {}


def check_head(env: dict[str, str], head: str | None) -> None:
    """HEAD must be the pull request's head: suggestions name its lines and its commit.

    GitHub Actions checks out a merge of the pull request into its base by default,
    a commit GitHub does not take review comments on.
    """
    pull = _event(env).get("pull_request")
    wanted = pull.get("head", {}).get("sha") if isinstance(pull, dict) else None
    if isinstance(wanted, str) and head is not None and wanted != head:
        raise UsageError(
            f"HEAD ({head[:10]}) is not the pull request's head ({wanted[:10]}): GitHub "
            "takes review comments on the head's lines only",
            "check out the head: actions/checkout with "
            "`ref: ${{ github.event.pull_request.head.sha }}` (docs/ci.md)",
        )


def _post(text: str, api_url: str | None, repository: str | None, number: int | None) -> None:
    env = dict(os.environ)
    token = env.get("REMORA_GITHUB_TOKEN") or env.get("GITHUB_TOKEN")
    if not token:
        err_console.print("not posted: no GITHUB_TOKEN in the environment", markup=False)
        return
    repository = repository or env.get("GITHUB_REPOSITORY")
    number = number or pull_number(env)
    if not repository or number is None:
        raise UsageError(
            "a token is set but the pull request is unknown",
            "give --repository OWNER/NAME and --pr N (GitHub Actions sets GITHUB_REPOSITORY "
            "and the event file on pull_request events)",
        )
    url = api_url or env.get("GITHUB_API_URL") or "https://api.github.com"
    answer = post_review(
        json.loads(text), api_url=url, repository=repository, pull_number=number, token=token
    )
    where = answer.get("html_url") or f"{repository}#{number}"
    console.print(f"posted review {answer.get('id', '')} to {where}", markup=False)


def register(app: typer.Typer) -> None:
    @app.command("ci")
    @shared_options
    def ci_command(
        opts: SharedOptions,
        paths: PathsArg = None,
        operations: OperationsOpt = None,
        base: Annotated[
            str | None,
            typer.Option(
                "--base",
                help="The pull request's base branch (default: GITHUB_BASE_REF or "
                "CI_MERGE_REQUEST_TARGET_BRANCH_NAME as origin/NAME, else the default branch).",
                show_default=False,
            ),
        ] = None,
        export_format: ExportFormatOpt = "github",
        output: Annotated[
            Path | None,
            typer.Option("--output", help="The export's file (default: remora-review.json)."),
        ] = None,
        post: Annotated[
            bool,
            typer.Option("--post/--no-post", help="Post a github review when a token is set."),
        ] = True,
        api_url: Annotated[
            str | None,
            typer.Option("--api-url", help="GitHub's API (default: GITHUB_API_URL or github's)."),
        ] = None,
        repository: Annotated[
            str | None, typer.Option("--repository", help="OWNER/NAME (GITHUB_REPOSITORY).")
        ] = None,
        pr: Annotated[
            int | None, typer.Option("--pr", help="The pull request's number (from the event).")
        ] = None,
    ) -> None:
        """Run the agents on the nodes a pull request changed and export (and post) the review."""
        if export_format not in EXPORT_FORMATS:
            raise typer.BadParameter(
                f"{export_format!r} is not one of {', '.join(EXPORT_FORMATS)}",
                param_hint="--format",
            )
        targets = list(paths) if paths else [Path.cwd()]
        plan = analysis.prepare(
            targets,
            operations,
            config_path=opts.config_path,
            overrides=opts.to_overrides(),
            project=opts.project_root(targets),
        )
        try:
            root = plan.project_root
            check_head(dict(os.environ), head_commit(repo_top(root)))
            chosen = resolve_base(
                repo_top(root), base or ci_base_ref(dict(os.environ)), merge_base=True
            )
            found = discover_changed(
                plan.targets,
                project_root=root,
                config=plan.loaded.config.discovery,
                base=chosen.sha,
                emitter=plan.emitter,
            )
            for warning in found.result.warnings:
                _print_warning(warning)
            print_picked(found, err_console)
            report, faulted = run_main(
                analysis.run(plan, found.result, progress=NullProgress(), details=False)
            )
        finally:
            plan.emitter.close()
        print_report(report, err_console)
        exported = export_queue(root, export_format, base=chosen.sha)
        write_export(exported, output or Path(f"remora-review.{_SUFFIX[export_format]}"))
        if post and export_format == "github":
            _post(exported.text, api_url, repository, pr)
        _exit(report.exit_code, faulted)
