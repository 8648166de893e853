"""``%load_ext remora.assistant``: the ``%ask`` magic in IPython and Jupyter.

The configuration is read from the working directory's project (remora.yaml,
REMORA_* variables) when the extension loads, and the startup check runs then:
a model that cannot serve is reported at ``%load_ext``, not at the first question.
IPython keeps the last error in ``sys.last_value``; its own names (``In``,
``Out``, ``get_ipython``...) are hidden from list_globals.
"""

from __future__ import annotations

import atexit
import sys
from pathlib import Path
from typing import Any

from remora.assistant.capabilities import Capabilities, default_last_exception
from remora.assistant.service import AssistantService
from remora.config import load_config
from remora.errors import RemoraError
from remora.project import find_project_root

__all__ = ["load", "protect_question_marks", "unload"]

_SERVICE_KEY = "_remora_assistant_service"


def _service(ipython: Any) -> AssistantService | None:
    service = getattr(ipython, _SERVICE_KEY, None)
    return service if isinstance(service, AssistantService) else None


def load(ipython: Any) -> None:
    if _service(ipython) is not None:
        return
    try:
        loaded = load_config(project_root=find_project_root(Path.cwd()))
        service = AssistantService.from_config(
            loaded.config, show_call=lambda text: print(f"  · {text}", flush=True)
        )
        service.check()
    except RemoraError as exc:
        # A clear line and the hint, as the CLI prints them; no traceback.
        print(f"error[{exc.code}]: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"  hint: {exc.hint}", file=sys.stderr)
        print("remora.assistant: %ask is not available", file=sys.stderr)
        return
    setattr(ipython, _SERVICE_KEY, service)
    # Close the provider (and free an in-process model) when the shell exits.
    atexit.register(service.close)
    capabilities = Capabilities(
        ipython.user_ns, last_exception=default_last_exception, hidden=ipython.user_ns_hidden
    )

    def ask_magic(line: str, cell: str | None = None) -> None:
        """%ask QUESTION: ask the assistant about this session (%%ask for a long one)."""
        question = "\n".join(part for part in (line.strip(), (cell or "").strip()) if part)
        if not question:
            print("usage: %ask QUESTION")
            return
        try:
            print(service.ask_text(question, capabilities))
        except KeyboardInterrupt:
            print("question interrupted")

    ipython.register_magic_function(ask_magic, "line_cell", "ask")
    ipython.input_transformers_cleanup.insert(0, protect_question_marks)


def protect_question_marks(lines: list[str]) -> list[str]:
    """Run ``%ask ...`` lines before IPython reads a trailing ``?`` as a help request.

    Questions end in ``?``; IPython would turn ``%ask why did it fail?`` into
    ``pinfo fail``. Cleanup transformers run first, so the line becomes an explicit
    magic call carrying the question verbatim.
    """
    if not lines:
        return lines
    first = lines[0]
    stripped = first.lstrip()
    # "%ask" alone or "%ask QUESTION"; never "%asking" or "%%ask" (a cell magic).
    if not stripped.startswith("%ask") or (len(stripped) > 4 and not stripped[4].isspace()):
        return lines
    indent = first[: len(first) - len(stripped)]
    question = stripped[4:].strip()
    return [f"{indent}get_ipython().run_line_magic('ask', {question!r})\n", *lines[1:]]


def unload(ipython: Any) -> None:
    service = _service(ipython)
    if service is None:
        return
    service.close()
    atexit.unregister(service.close)
    delattr(ipython, _SERVICE_KEY)
    ipython.magics_manager.magics["line"].pop("ask", None)
    ipython.magics_manager.magics["cell"].pop("ask", None)
    if protect_question_marks in ipython.input_transformers_cleanup:
        ipython.input_transformers_cleanup.remove(protect_question_marks)
