"""Run one of :mod:`remora.code.probes.programs` on the project's code, in the command sandbox.

The program's text and its request go to ``python -`` on standard input
through :func:`remora.sandbox.commands.run_command`: the workspace copy is the
only place it sees, bubblewrap contains it, and what it changes there is
discarded (an observation leaves no side effects in the run's changes). The
project's code is only ever run this way, never in Remora's process.

Running the project's code is what ``python -m pytest`` does, so these programs
run only where ``sandbox.commands`` allows that prefix.
"""

from __future__ import annotations

import ast
import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from remora.code.context import CodeContext
from remora.python_ast import parse
from remora.sandbox.commands import run_command
from remora.sandbox.envelope import ExternalRefused
from remora.sandbox.fork_server import run_read_only_python

__all__ = ["PROGRAM_PARTS", "ProgramRun", "program_source", "run_program"]

MARKER = "REMORA_REPORT "
COVERAGE_MARKER = "REMORA_COVERAGE "
PERMISSION = ("python", "-m", "pytest")
MAX_OUTPUT_TAIL = 1500
# A program's report is one JSON line: 48 candidate calls with their reprs and
# per-call coverage came to more than a command's usual 64k characters (inflection).
REPORT_CHARS = 4_000_000

# A program sent as more than one module of programs/, in this order (else its own module
# alone): one idea a module, one text for ``python -``.
PROGRAM_PARTS: dict[str, tuple[str, ...]] = {
    "call_probe": (
        "unread_argument",
        "constructed_values",
        "returned_values",
        "recorded_calls",
        "call_arguments",
        "generator_items",
        "returned_calls",
        "own_contents",
        "raised_frames",
        "made_files",
        "call_probe",
    ),
    "pytest_report": ("other_machine", "pytest_report"),
}
_PACKAGE = "remora.code.probes.programs"


@dataclass(frozen=True)
class ProgramRun:
    """The program's report (None when it printed none) and why, from its own output."""

    report: dict[str, Any] | None
    problem: str
    output: str
    # Per context, when the run measured coverage (programs/coverage_support.py).
    coverage: dict[str, Any] | None = None


def _allowed(context: CodeContext) -> bool:
    return any(tuple(prefix) == PERMISSION[: len(prefix)] for prefix in context.sandbox.commands)


def _part_text(part: str, *, first: bool) -> str:
    """The module's text, less its imports of the other parts (the parts are one text in
    the sandbox, where Remora cannot be imported) and, after the first part, its
    ``from __future__`` import (allowed only at a text's start; the first part's applies
    to the whole text)."""
    text = resources.files(_PACKAGE).joinpath(f"{part}.py").read_text("utf-8")
    dropped: set[int] = set()
    for statement in parse(text).body:
        if isinstance(statement, ast.ImportFrom) and (
            (statement.module or "").startswith(f"{_PACKAGE}.")
            or (statement.module == "__future__" and not first)
        ):
            dropped.update(range(statement.lineno, (statement.end_lineno or 0) + 1))
    lines = text.splitlines(keepends=True)
    return "".join(line for number, line in enumerate(lines, 1) if number not in dropped)


@functools.cache
def program_source(parts: tuple[str, ...]) -> str:
    """The modules of programs/ named by ``parts``, as one program's text, in order."""
    return "\n\n".join(_part_text(part, first=index == 0) for index, part in enumerate(parts))


@functools.cache
def _prelude(program: str) -> str:
    """The program's own text, before the call of its ``main``: the same in every run."""
    return f"{program_source(PROGRAM_PARTS.get(program, (program,)))}\n\n"


def _program_text(program: str, request: dict[str, Any], coverage: dict[str, Any] | None) -> str:
    """The program, then the call of its ``main``; with ``coverage`` measured around it.

    A program names its units of work through a module-level ``switch_context``
    (a no-op of its own); measured, that name is rebound to coverage's before
    ``main`` runs, and the coverage report is printed even when ``main`` fails.
    """
    request_text = f"json.loads({json.dumps(json.dumps(request))})"
    if coverage is None:
        return f"{_prelude(program)}main({request_text})\n"
    text = program_source((*PROGRAM_PARTS.get(program, (program,)), "coverage_support"))
    spec = f"json.loads({json.dumps(json.dumps(coverage))})"
    return (
        f"{text}\n\n_spec = {spec}\n_measured = start_coverage(_spec)\n"
        "switch_context = _measured.switch_context\n"
        f"try:\n    main({request_text})\nfinally:\n"
        "    print(COVERAGE_MARKER + json.dumps(finish_coverage(_measured, _spec)))\n"
    )


async def run_program(
    context: CodeContext,
    program: str,
    request: dict[str, Any],
    timeout_s: float | None = None,
    coverage: dict[str, Any] | None = None,
    *,
    read_only: bool = False,
    preload: tuple[str, Sequence[str]] | None = None,
) -> ProgramRun:
    """Run ``remora.code.probes.programs.<program>`` with ``request``; never raises for its
    failures.

    With ``coverage`` (``{file, first, last}``: the node's file and body lines) the
    run also measures line and branch coverage of that span per unit of work. With
    ``read_only`` the program sees the project read-only while the run has no change
    (no copy is made; see :func:`remora.sandbox.commands.run_command`), and runs in a
    child forked by a fork server (:mod:`remora.sandbox.fork_server`) unless it measures
    coverage. ``preload``: the module the program imports and the ``sys.path`` entries
    it puts first, which that server imports once for all the programs naming them.
    """
    if not _allowed(context):
        raise ExternalRefused(
            "running the project's code needs ['python', '-m', 'pytest'] in sandbox.commands"
        )
    limit = timeout_s if timeout_s is not None else context.sandbox.command_timeout
    text = _program_text(program, request, coverage).encode("utf-8")
    allow_unsandboxed = context.sandbox.allow_unsandboxed_commands
    if read_only and coverage is None:
        module, paths = preload or (None, ())
        prelude = _prelude(program).encode("utf-8")  # compiled once per fork server
        result = await run_read_only_python(
            context.workspace,
            text[len(prelude) :],
            min(limit, context.sandbox.command_timeout),
            allow_unsandboxed=allow_unsandboxed,
            stdout_chars=REPORT_CHARS,
            module=module,
            paths=paths,
            prelude=prelude,
        )
    else:
        result = await run_command(
            context.workspace,
            ["python", "-"],
            min(limit, context.sandbox.command_timeout),
            allow_unsandboxed=allow_unsandboxed,
            input_data=text,
            absorb=False,
            read_only=read_only,
            stdout_chars=REPORT_CHARS,
        )
    output = (result["stdout"] + "\n" + result["stderr"]).strip()[-MAX_OUTPUT_TAIL:]
    measured = None
    for line in reversed(str(result["stdout"]).splitlines()):
        if line.startswith(COVERAGE_MARKER) and measured is None:
            measured = json.loads(line[len(COVERAGE_MARKER) :])
        if line.startswith(MARKER):
            return ProgramRun(json.loads(line[len(MARKER) :]), "", output, measured)
    if result["timed_out"]:
        problem = f"it did not finish within {limit:g}s"
    else:
        problem = f"it stopped with exit status {result['exit_code']} before reporting"
    return ProgramRun(None, problem, output, measured)
