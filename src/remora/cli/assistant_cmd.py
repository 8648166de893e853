"""``remora repl`` and ``remora ask``: the live-Python assistant."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any

import click
import typer

from remora.assistant.repl import AssistantConsole
from remora.assistant.script import ScriptRun, new_namespace, run_script
from remora.assistant.service import AssistantService
from remora.cli.options import FormatOpt, OutputFormat, SharedOptions, shared_options
from remora.cli.output import err_console, print_json
from remora.config import LoadedConfig, load_config
from remora.project import state_dir

__all__ = ["register"]

ExecOpt = Annotated[
    Path | None,
    typer.Option(
        "--exec",
        "-e",
        help="Run this Python script first; questions are about its session.",
        dir_okay=False,
    ),
]
MaxStepsOpt = Annotated[
    int | None, typer.Option("--max-steps", min=1, help="Model steps per question (default 6).")
]
StepTimeoutOpt = Annotated[
    float | None,
    typer.Option("--step-timeout", min=0.001, help="Seconds per model step (default 8)."),
]
TotalTimeoutOpt = Annotated[
    float | None,
    typer.Option("--total-timeout", min=0.001, help="Seconds per question (default 20)."),
]


def _load(
    opts: SharedOptions,
    max_steps: int | None,
    step_timeout: float | None,
    total_timeout: float | None,
    history: Path | None = None,
) -> LoadedConfig:
    assistant: dict[str, Any] = {
        key: value
        for key, value in (
            ("max_steps", max_steps),
            ("step_timeout", step_timeout),
            ("total_timeout", total_timeout),
            ("history_file", str(history) if history else None),
        )
        if value is not None
    }
    overrides = opts.to_overrides()
    if assistant:
        overrides["assistant"] = assistant
    return load_config(opts.config_path, overrides, project_root=opts.project_root())


def _show_call(text: str) -> None:
    err_console.print(f"  · {text}", style="dim", markup=False, highlight=False)


def _run_exec(script: Path, namespace: dict[str, Any] | None = None) -> ScriptRun:
    run = run_script(script, namespace)
    if run.error is not None:
        # As Python would show it; the assistant can read it with get_last_exception.
        sys.stderr.write(run.traceback_text())
        err_console.print(
            f"[yellow]{script} raised {type(run.error).__name__}; "
            "its session is kept for the assistant[/]"
        )
    elif run.exit_code:
        err_console.print(f"[yellow]{script} exited with status {run.exit_code}[/]")
    return run


def _debug() -> bool:
    """``remora --debug`` (the root command's flag) or REMORA_DEBUG."""
    root = click.get_current_context(silent=True)
    flag = bool(root.find_root().params.get("debug")) if root is not None else False
    return flag or os.environ.get("REMORA_DEBUG", "") not in ("", "0")


def _ask(
    question: str,
    script: Path | None,
    output_format: OutputFormat,
    opts: SharedOptions,
    max_steps: int | None,
    step_timeout: float | None,
    total_timeout: float | None,
) -> None:
    from remora.assistant.capabilities import Capabilities

    loaded = _load(opts, max_steps, step_timeout, total_timeout)
    show = _show_call if output_format is OutputFormat.table else None
    service = AssistantService.from_config(loaded.config, show_call=show)
    try:
        service.check()
        run = _run_exec(script) if script is not None else ScriptRun(new_namespace())
        error = run.error
        capabilities = Capabilities(run.namespace, last_exception=lambda: error)
        answer = service.ask(question, capabilities)
    finally:
        service.close()
    if output_format is OutputFormat.json:
        print_json(answer.to_dict())
    else:
        print(answer.text)
        if answer.model_answer is not None and _debug():
            # Why the model's answer was not printed, and what it was.
            err_console.print(
                f"remora: {answer.error}; the model answered: {answer.model_answer!r}",
                markup=False,
                highlight=False,
            )
    # 1: an answer came back, but a limit cut it short (the README's exit codes).
    if answer.degraded:
        raise typer.Exit(1)


def _repl(
    script: Path | None,
    history: Path | None,
    opts: SharedOptions,
    max_steps: int | None,
    step_timeout: float | None,
    total_timeout: float | None,
) -> None:
    loaded = _load(opts, max_steps, step_timeout, total_timeout, history)
    service = AssistantService.from_config(
        loaded.config, show_call=lambda text: print(f"  · {text}", flush=True)
    )
    try:
        service.check()
        namespace = new_namespace("__console__")
        console = AssistantConsole(namespace, service.ask_text)
        if script is not None:
            run = _run_exec(script, namespace)
            console.last_error = run.error
        history_file = loaded.config.assistant.history_file or (
            state_dir(loaded.project_root) / "repl_history"
        )
        console.interact_with_history(history_file)
    finally:
        service.close()


def register(app: typer.Typer) -> None:
    """Add ``repl`` and ``ask`` to the root app."""

    @app.command("ask")
    @shared_options
    def ask_command(
        question: Annotated[str, typer.Argument(help='The question, e.g. "why did it fail?"')],
        script: ExecOpt = None,
        output_format: FormatOpt = OutputFormat.table,
        max_steps: MaxStepsOpt = None,
        step_timeout: StepTimeoutOpt = None,
        total_timeout: TotalTimeoutOpt = None,
        *,
        opts: SharedOptions,
    ) -> None:
        """Ask the assistant one question about a Python session (--exec runs a script first).

        Exit status 1 when a limit cut the answer short.
        """
        _ask(question, script, output_format, opts, max_steps, step_timeout, total_timeout)

    @app.command("repl")
    @shared_options
    def repl_command(
        script: ExecOpt = None,
        history: Annotated[
            Path | None,
            typer.Option(
                "--history", help="History file (default .remora/repl_history).", dir_okay=False
            ),
        ] = None,
        max_steps: MaxStepsOpt = None,
        step_timeout: StepTimeoutOpt = None,
        total_timeout: TotalTimeoutOpt = None,
        *,
        opts: SharedOptions,
    ) -> None:
        """A Python console; a line starting with ?? asks the assistant about the session."""
        _repl(script, history, opts, max_steps, step_timeout, total_timeout)
