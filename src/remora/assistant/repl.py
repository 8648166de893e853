"""``remora repl``: a Python console where a line starting with ``??`` asks the assistant.

A :class:`code.InteractiveConsole` keeps Python's own semantics (continuation
lines, tracebacks, ``sys.last_value``); readline adds history and tab
completion when the terminal has it. Questions run on one event loop that
lives as long as the console, so a provider's async clients stay bound to it.
"""

from __future__ import annotations

import code
import contextlib
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from remora.assistant.capabilities import Capabilities

__all__ = ["QUESTION_PREFIX", "AssistantConsole", "enable_readline"]

QUESTION_PREFIX = "??"
HISTORY_LENGTH = 2000

BANNER = (
    "Remora assistant console (Python {version}).\n"
    "Start a line with ?? to ask about this session, e.g. ?? why did my last call fail?\n"
    "Ctrl-D exits."
)


def enable_readline(namespace: dict[str, Any], history: Path | None) -> Callable[[], None]:
    """History and tab completion over ``namespace``; returns the function that saves history.

    Without readline (Windows, some embedded builds) the console still works,
    just without them.
    """
    try:
        import readline
        import rlcompleter
    except ImportError:
        return lambda: None
    readline.set_completer(rlcompleter.Completer(namespace).complete)
    # macOS's libedit speaks another binding syntax than GNU readline.
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    readline.set_history_length(HISTORY_LENGTH)
    if history is not None and history.is_file():
        # An unreadable history is not worth refusing to start.
        with contextlib.suppress(OSError):
            readline.read_history_file(str(history))

    def save() -> None:
        if history is None:
            return
        try:
            history.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(str(history))
        except OSError as exc:
            print(f"remora: could not save history to {history}: {exc}", file=sys.stderr)

    return save


class AssistantConsole(code.InteractiveConsole):
    """The interactive console. ``ask(question, capabilities)`` prints nothing;
    it returns the text to show, so the console decides where it goes."""

    def __init__(self, namespace: dict[str, Any], ask: Callable[[str, Capabilities], str]) -> None:
        super().__init__(locals=namespace, filename="<console>")
        self.namespace = namespace
        self._ask = ask
        self.last_error: BaseException | None = None
        self.capabilities = Capabilities(namespace, last_exception=lambda: self.last_error)

    # Shown and remembered with the console's own frame cut off, as Python's REPL
    # shows it (the base class hands the full traceback to any sys.excepthook a
    # library installed); the assistant reads it through get_last_exception.
    def showtraceback(self) -> None:
        kind, value, tb = sys.exc_info()
        if value is None:
            return
        sys.last_type, sys.last_value, sys.last_traceback = kind, value, tb
        self._remember(value, tb)
        self.write("".join(traceback.format_exception(value)))

    def showsyntaxerror(self, filename: str | None = None, **kwargs: Any) -> None:
        kind, value, _ = sys.exc_info()
        if value is None:
            return
        # Only the error itself: the compiler's frames are noise to the user.
        value = value.with_traceback(None)
        sys.last_type, sys.last_value, sys.last_traceback = kind, value, None
        self._remember(value, None)
        self.write("".join(traceback.format_exception_only(value)))

    def _remember(self, exc: BaseException | None, tb: TracebackType | None) -> None:
        if exc is None:
            return
        if tb is not None and tb.tb_frame.f_code is code.InteractiveInterpreter.runcode.__code__:
            exc = exc.with_traceback(tb.tb_next)
        self.last_error = exc

    def push(self, line: str, *args: Any, **kwargs: Any) -> bool:
        if not self.buffer and line.lstrip().startswith(QUESTION_PREFIX):
            self.ask(line.lstrip()[len(QUESTION_PREFIX) :].strip())
            return False
        more: bool = super().push(line, *args, **kwargs)
        return more

    def ask(self, question: str) -> None:
        if not question:
            self.write(f"usage: {QUESTION_PREFIX} QUESTION  (asks about this session)\n")
            return
        try:
            answer = self._ask(question, self.capabilities)
        except KeyboardInterrupt:
            self.write("\nquestion interrupted\n")
            return
        print(answer, flush=True)

    def interact_with_history(self, history: Path | None, banner: str | None = None) -> None:
        save = enable_readline(self.namespace, history)
        try:
            self.interact(
                banner=banner
                if banner is not None
                else BANNER.format(version=sys.version.split()[0]),
                exitmsg="",
            )
        finally:
            save()
