"""The project's formatter on the lines a change wrote: ``ruff format --range``, black's style.

A project whose CI runs ``black --check`` or ``ruff format --check`` fails a change its
formatter lays out otherwise: blind reviewers sent back 10 of 54 lint fixes on one project
(``black --check`` in its tox), fixes that made a call fit on one line without joining it
(``super().__init__(`` left over three lines) or dropped a trailing comma black keeps.
So where the project declares a formatter (:func:`formatter_settings`: a ``[tool.black]``
or ``[tool.ruff.format]`` table, a black or ruff-format pre-commit hook, black among its
requirements), the lines a change wrote (:func:`written_ranges`) are laid out by ``ruff
format --range`` (black's style), under the project's ruff settings (found from the file's
path) and black's own ``line-length``, ``skip-string-normalization`` (quotes kept) and
``skip-magic-trailing-comma`` passed as ruff's; every other byte stays (a range whose
formatting reaches past it is left as written). A project that declares none keeps
its own layout: nothing is formatted. Either way the short strings a change wrote
first take the file's quote (:mod:`remora.code.quote_style`). Where ruff cannot run
the text is left as it was written. A new test file is formatted whole either way
(:mod:`remora.code.testgen.test_layout`).
"""

from __future__ import annotations

import ast
import asyncio
import difflib
from typing import Any

from remora.code.context import CodeContext
from remora.code.parsing import ast_tree
from remora.code.project_tools import declared_tools, pyproject_tool
from remora.code.quote_style import requoted
from remora.sandbox.commands import resolve_executable

__all__ = ["format_ranges", "format_written", "formatter_settings", "run_ruff", "written_ranges"]

_FORMAT_TIMEOUT_S = 20.0
_FORMATTERS = frozenset({"black", "ruff-format", "black-jupyter"})


def written_ranges(original: str, text: str) -> list[tuple[int, int]]:
    """The 1-based line ranges (first, last) of ``text`` that ``original`` lacks, in order."""
    before, after = original.splitlines(), text.splitlines()
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    return [
        (j1 + 1, j2)
        for tag, _i1, _i2, j1, j2 in matcher.get_opcodes()
        if tag in ("replace", "insert") and j2 > j1
    ]


async def run_ruff(context: CodeContext, path: str, text: str, *arguments: str) -> str:
    """``text`` as ``ruff ARGUMENTS`` leaves it, read from stdin as the file ``path`` under
    the project's settings; unchanged where ruff cannot run or fails."""
    try:
        process = await asyncio.create_subprocess_exec(
            resolve_executable("ruff"),
            *arguments,
            "--no-cache",
            "--stdin-filename",
            path,
            "-",
            cwd=context.workspace.project_root,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError:
        return text
    try:
        out, _ = await asyncio.wait_for(process.communicate(text.encode()), _FORMAT_TIMEOUT_S)
    except TimeoutError:
        process.kill()
        await process.wait()
        return text
    return out.decode("utf-8") if process.returncode == 0 and out else text


def formatter_settings(context: CodeContext) -> list[str] | None:
    """``ruff format``'s arguments for the project's declared formatter (black's settings
    as ruff's ``--config``); None where the project declares no formatter. Read once per
    workspace revision: a lint rewrite lays out each of its candidates."""
    return context.kept("formatter settings", lambda: _settings(context))


def _settings(context: CodeContext) -> list[str] | None:
    tool = pyproject_tool(context)
    ruff_format = isinstance(tool.get("ruff"), dict) and "format" in tool["ruff"]
    if not (ruff_format or declared_tools(context) & _FORMATTERS):
        return None
    found = tool.get("black")
    black: dict[str, Any] = found if isinstance(found, dict) else {}
    settings: list[str] = []
    length = black.get("line-length")
    if isinstance(length, int) and not isinstance(length, bool):
        settings += ["--config", f"line-length={length}"]
    if black.get("skip-string-normalization") is True:
        settings += ["--config", "format.quote-style='preserve'"]
    if black.get("skip-magic-trailing-comma") is True:
        settings += ["--config", "format.skip-magic-trailing-comma=true"]
    return settings


async def format_written(context: CodeContext, path: str, original: str, text: str) -> str:
    """``text`` (``original`` changed) with the strings the change wrote quoted as the
    file quotes them (:func:`remora.code.quote_style.requoted`), then its lines laid out
    by the project's formatter, where it declares one."""
    text = requoted(original, text, written_ranges(original, text))
    settings = formatter_settings(context)
    if settings is None:
        return text
    return await format_ranges(context, path, original, text, settings)


async def format_ranges(
    context: CodeContext, path: str, original: str, text: str, settings: list[str]
) -> str:
    """``text`` with each range of lines ``original`` lacks formatted by ``ruff format
    --range`` under ``settings``; a range whose formatting reaches lines outside it is
    left as written (ruff widened one inside a nested function to an ``assert`` 150
    lines away)."""
    # The last range first: formatting it leaves the earlier ranges' line numbers as they are.
    for first, last in reversed(written_ranges(original, text)):
        formatted = await run_ruff(
            context, path, text, "format", *settings, f"--range={first}:{last}"
        )
        if _inside(text, formatted, *_logical_lines(text, first, last)):
            text = formatted
    return text


def _logical_lines(text: str, first: int, last: int) -> tuple[int, int]:
    """Lines first..last grown to the whole statements they touch (a compound statement's
    header only: a signature, not its body), as ruff formats a range."""
    tree = ast_tree(text)
    if tree is None:
        return first, last
    low, high = first, last
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        start, end = node.lineno, node.end_lineno or node.lineno
        body = getattr(node, "body", None)
        if isinstance(body, list) and body:  # a def, class, if, with...: its header
            end = body[0].lineno - 1
        if start <= last and end >= first:
            low, high = min(low, start), max(high, end)
    return low, high


def _inside(text: str, formatted: str, first: int, last: int) -> bool:
    """Whether every line ``formatted`` changed of ``text`` lies in lines first..last."""
    matcher = difflib.SequenceMatcher(a=text.splitlines(), b=formatted.splitlines(), autojunk=False)
    return all(
        first - 1 <= i1 and i2 <= last
        for tag, i1, i2, _j1, _j2 in matcher.get_opcodes()
        if tag != "equal"
    )
