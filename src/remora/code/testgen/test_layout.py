"""A written test file laid out by the project's formatter: ruff format, on the lines written.

The tests a run writes are formatted as the project formats its code: ``ruff
format`` with the project's own settings (its ``pyproject.toml`` or
``ruff.toml``, found from the test file's path; ruff's default line length, 88,
without one), never wrapped by hand. Only the lines the run wrote or changed
(its imports and its functions, found by comparing the lines with the file it
started from) are formatted, with ruff's ``--range``, so a maintainer's own
tests in the same file keep every byte; a new file's imports are sorted as ruff's
isort rules sort them, under the project's settings (stdlib, third-party, the project's
own). Where ruff cannot run the text is left as it was written.

A project whose tests run with ``python -m unittest`` finds a test folder only
as a package: a run that creates the folder also writes its empty
``__init__.py`` (:func:`new_test_folder`, :func:`add_package_marker`).
"""

from __future__ import annotations

from typing import Any

from remora.code.context import CodeContext
from remora.code.formatter import format_ranges, formatter_settings, run_ruff
from remora.code.import_paths import module_name
from remora.code.probes import shared_futures, with_pieces, written_class
from remora.code.testgen.visible_strings import visible_escapes

__all__ = [
    "add_package_marker",
    "formatted_test_file",
    "new_test_folder",
    "write_pieces",
]


async def formatted_test_file(context: CodeContext, path: str, original: str, text: str) -> str:
    """``text`` (``original`` with the run's tests added) with the lines the run wrote
    formatted by ruff under the project's settings; the other lines unchanged."""
    settings = formatter_settings(context) or []  # black's line length and quotes, if any
    if not original.strip():  # a new file: its imports in isort's order too, as ruff sorts them
        text = await run_ruff(context, path, text, "check", "--select", "I", "--fix", "--exit-zero")
        return await run_ruff(context, path, text, "format", *settings)
    return await format_ranges(context, path, original, text, settings)


async def write_pieces(
    context: CodeContext, path: str, original: str | None, pieces: list[dict[str, Any]]
) -> None:
    """Write ``original`` (the test file as it was; None: none) with the pieces' tests
    added, their strings' unseen characters escaped
    (:func:`~remora.code.testgen.visible_strings.visible_escapes`), laid out by
    :func:`formatted_test_file`."""
    module = module_name(context, context.bound_node().file_path)
    test_class, futures = written_class(context), shared_futures(context)
    pieces = [{**piece, "source": visible_escapes(str(piece["source"]))} for piece in pieces]
    text = with_pieces(original or "", path, module, pieces, test_class, futures)
    context.write_text(path, await formatted_test_file(context, path, original or "", text))


def new_test_folder(context: CodeContext, path: str) -> str:
    """The folder of the test file ``path`` when the workspace has no such folder yet
    (writing the file creates it), else '' (the project's root included)."""
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    return "" if not folder or context.workspace.exists(folder) else folder


def add_package_marker(context: CodeContext, folder: str) -> None:
    """An empty ``__init__.py`` in ``folder`` unless it has one: ``python -m unittest``
    discovers tests only in folders it can import as packages."""
    marker = f"{folder}/__init__.py"
    if not context.workspace.exists(marker):
        context.write_text(marker, "")
