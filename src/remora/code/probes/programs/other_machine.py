"""Show the project's code another machine's locale and time zone, before it is imported.

The sandbox runs every command under ``C.UTF-8``, a locale Python reads as ``en_US``: a
test pinning English text or a local time passes here and fails for a maintainer in
Germany or Nepal. The environment reaches gettext (``LANGUAGE``, ``LC_ALL``, ``LANG``)
and the C library's local time (``TZ`` as a POSIX rule, which needs no tz database), but
``locale.getlocale()`` reads the C library, which has only the locales installed here
(``locale -a``: C, C.utf8, POSIX): for a locale it lacks, it says ``(None, None)``. So
``locale.getlocale``/``setlocale`` are wrapped to answer as a machine with that locale
installed would: ``LC_CTYPE`` holds it from the start (as Python's startup sets it from
the environment), and a category the code sets to ``""`` or to that locale holds it too
(the C library gets ``C.UTF-8`` in its place). What the C library formats itself
(``time.strftime("%A")``, ``locale.currency``) stays as ``C.UTF-8`` formats it.
``platform.system()`` gives ``machine["system"]``; ``sys.platform`` and ``os.name`` stay
(the standard library and pytest read them to pick how files and processes work). The
clock runs ``machine["clock_ahead_s"]`` ahead: ``time-machine`` moves what the C library
and ``datetime`` tell Python code (``time.time``, ``time.localtime``, ``datetime.now``,
``date.today``) and lets it tick on; the monotonic clocks that time limits use stay.
``sys.argv`` is ``machine["argv"]``, the command line a maintainer typed.

The environment gets ``machine["environment"]``, loses ``machine["unset"]``, finds
``machine["path_first"]`` first on its ``PATH`` and has its ``HOME`` in a new folder
below the sandbox's. :func:`at_terminal` makes standard input, output and error one
pseudo-terminal of ``machine["terminal"]`` (rows, columns) while the tests run: what is
written there goes on to standard error, and whoever types answers every read with end
of input (a prompt the code shows gets ``EOFError``, not a wait to the time limit).
"""

from __future__ import annotations

import contextlib
import fcntl
import locale
import os
import platform
import pty
import struct
import sys
import termios
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

STAND_IN = "C.UTF-8"  # what the C library holds while the code is told the other locale
END_OF_INPUT = b"\x04" * 256  # typed ahead: each read of the terminal ends at one


def present_machine(machine: dict[str, Any]) -> None:
    """From now on, this process's code sees ``machine["locale"]``, ``machine["tz"]``,
    the machine's environment and its clock."""
    _present_environment(machine)
    if ahead := machine.get("clock_ahead_s"):
        import time_machine  # a dependency of Remora's: the interpreter running this

        time_machine.travel(time.time() + float(ahead), tick=True).start()
    name = str(machine["locale"])
    for variable in ("LANGUAGE", "LC_ALL", "LANG"):
        os.environ[variable] = name
    os.environ["TZ"] = machine["tz"]
    time.tzset()
    code, _, encoding = name.partition(".")
    parsed = (code, encoding or None)  # ("de_DE", "UTF-8"), as getlocale gives it
    held = {locale.LC_CTYPE}  # the categories that hold the other locale
    real_setlocale = locale.setlocale
    real_getlocale = locale.getlocale
    every = [getattr(locale, c) for c in dir(locale) if c.startswith("LC_") and c != "LC_ALL"]

    def setlocale(category: int, value: Any = None) -> str:
        if value is None:
            held_all = category == locale.LC_ALL and held >= set(every)
            return name if category in held or held_all else real_setlocale(category)
        categories = every if category == locale.LC_ALL else [category]
        if value == "" or locale.normalize(str(value)) == locale.normalize(name):
            real_setlocale(category, STAND_IN)
            held.update(categories)
            return name
        answer = real_setlocale(category, value)
        held.difference_update(categories)
        return answer

    def getlocale(category: int = locale.LC_CTYPE) -> tuple[str | None, str | None]:
        if category in held:
            return parsed
        code_here, encoding_here = real_getlocale(category)
        return code_here, encoding_here

    locale.setlocale = setlocale  # type: ignore[assignment]
    locale.getlocale = getlocale
    if system := machine.get("system"):
        platform.system = lambda: system


def _present_environment(machine: dict[str, Any]) -> None:
    os.environ.update(machine.get("environment", {}))
    for variable in machine.get("unset", []):
        os.environ.pop(variable, None)
    if first := machine.get("path_first"):
        os.environ["PATH"] = os.pathsep.join([first, os.environ.get("PATH", "")])
    if below := machine.get("home_below"):
        home = os.path.join(os.environ.get("HOME") or os.getcwd(), below)
        os.makedirs(home, exist_ok=True)
        os.environ["HOME"] = home
    if argv := machine.get("argv"):  # pytest was given its arguments, not sys.argv
        sys.argv[:] = list(argv)


@contextlib.contextmanager
def at_terminal(size: Sequence[int]) -> Iterator[None]:
    """Standard input, output and error are one terminal of ``size`` (rows, columns)
    inside; the pipes they were again after."""
    rows, columns = size
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    os.write(controller, END_OF_INPUT)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(fd) for fd in (0, 1, 2)]
    shown = threading.Thread(target=_pass_on, args=(controller, saved[2]), daemon=True)
    shown.start()
    for fd in (0, 1, 2):
        os.dup2(terminal, fd)
    os.close(terminal)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, pipe in enumerate(saved):
            os.dup2(pipe, fd)
            os.close(pipe)
        shown.join(timeout=1.0)


def _pass_on(controller: int, stderr: int) -> None:
    """Copy what is written on the terminal to ``stderr`` until nothing holds it open."""
    out = os.dup(stderr)
    try:
        while chunk := os.read(controller, 65536):
            os.write(out, chunk)
    except OSError:  # EIO: the last descriptor of the terminal was closed
        pass
    finally:
        os.close(out)
        os.close(controller)
