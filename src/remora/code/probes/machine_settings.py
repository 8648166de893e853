"""The other machine a written test's second run stands on: its locale, time zone and system.

Remora's sandbox runs everything under ``C.UTF-8`` and UTC, where Python reads the
locale as ``en_US``; a maintainer's machine may differ in both. A test that passed once
here is run again as on a machine set to German, in a time zone 5 hours 45 minutes east
of UTC (a POSIX rule: no tz database needed; a quarter-hour offset, so code assuming
whole hours differs too): a test pinning English text from the system's locale, or a
local time, fails there and is dropped (:mod:`remora.code.testgen.kept_tests`). Its
``platform.system()`` says macOS: a test pinning what the code picks for this machine's
system (pathvalidate's ``normalize_platform("auto") == Platform.LINUX``) fails there too.
The sandbox program presents them (:mod:`remora.code.probes.programs.other_machine`).
"""

from __future__ import annotations

__all__ = ["OTHER_MACHINE", "OTHER_MACHINE_WORDS"]

OTHER_MACHINE: dict[str, str] = {
    "locale": "de_DE.UTF-8",
    "tz": "<+0545>-05:45",
    "system": "Darwin",
}
OTHER_MACHINE_WORDS = "de_DE.UTF-8, UTC+05:45 and macOS's platform.system()"
