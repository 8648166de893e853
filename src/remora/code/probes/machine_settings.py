"""The other machine a written test's second run stands on: its locale, time zone, system,
environment and terminal.

Remora's sandbox runs everything under ``C.UTF-8`` and UTC, where Python reads the
locale as ``en_US``, with a bare environment (its own ``PATH`` and ``HOME``, no pager,
``NO_COLOR``) and no terminal; a maintainer's machine differs in all of them. A test that
passed once here is run again as on a machine set to German, in a time zone 5 hours 45
minutes east of UTC (a POSIX rule: no tz database needed; a quarter-hour offset, so code
assuming whole hours differs too): a test pinning English text from the system's locale,
or a local time, fails there and is dropped (:mod:`remora.code.testgen.kept_tests`). Its
``platform.system()`` says macOS: a test pinning what the code picks for this machine's
system (pathvalidate's ``normalize_platform("auto") == Platform.LINUX``) fails there too.
Its ``PATH`` starts with a folder of the maintainer's, ``HOME`` is another folder, the
user has a name and a pager, colour is allowed, and standard input, output and error
are a terminal of 43 rows and 132 columns (pytest then runs with ``--capture=no``, as
``pytest -s`` in a terminal does): a test pinning this sandbox's ``$PATH``, the
fallback terminal size, a default pager or what the code does without a terminal fails
there. Its clock runs 400 days, 7 hours and 13 minutes ahead (another year, month,
weekday and hour): a test pinning what the code made of today (parsedatetime's
``Calendar().parse("tomorrow") == (2026, 12, 4, ...)``, rejected by its blind reviewer
as passing on one day only) fails there, as it would for a maintainer tomorrow. Its
command line is ``pytest -q tests``, where the sandbox's program has ``sys.argv`` of
``['-c']``: a test of a command's ``main()`` that reads ``sys.argv`` (pyfiglet's
``main() == 1``, "passes only under a bare pytest" for its blind reviewer) fails there.
The sandbox program presents them
(:mod:`remora.code.probes.programs.other_machine`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["OTHER_MACHINE", "OTHER_MACHINE_WORDS"]

OTHER_MACHINE: dict[str, Any] = {
    "locale": "de_DE.UTF-8",
    "tz": "<+0545>-05:45",
    "system": "Darwin",
    "environment": {
        "USER": "maintainer",
        "LOGNAME": "maintainer",
        "PAGER": "more",
        "TERM": "xterm-256color",
        "COLUMNS": "132",
        "LINES": "43",
    },
    "unset": ["NO_COLOR"],
    "path_first": "/opt/maintainer/bin",
    "home_below": "maintainer",
    "terminal": [43, 132],
    "clock_ahead_s": ((400 * 24 + 7) * 60 + 13) * 60,
    "argv": ["pytest", "-q", "tests"],
}
OTHER_MACHINE_WORDS = (
    "de_DE.UTF-8, UTC+05:45, macOS's platform.system() and a maintainer's environment "
    "($PATH, $HOME, $PAGER, a 43x132 terminal), a clock 400 days ahead and "
    "`pytest -q tests` as its command line"
)
