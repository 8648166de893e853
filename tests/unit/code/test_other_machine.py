"""The pytest program's second run shows the code another machine's locale and time zone.

The sandbox's environment (``C.UTF-8``, no ``TZ``) is Python's ``en_US`` and UTC; only
C, C.utf8 and POSIX need be installed. The program part runs in a fresh interpreter with
that environment, as the sandbox runs it.
"""

from __future__ import annotations

import json
import subprocess
import sys

from remora.code.probes.machine_settings import OTHER_MACHINE
from remora.code.probes.sandboxed import program_source

SEEN = """
import datetime, gettext, locale, platform, time
seen = {"system": platform.system(), "getlocale": locale.getlocale(),
        "hour": time.localtime(0).tm_hour,
        "minute": time.localtime(0).tm_min,
        "now_offset": datetime.datetime.now().astimezone().utcoffset().total_seconds(),
        "gettext_languages": gettext._expand_lang(gettext.os.environ.get("LANGUAGE", "C"))[:1]}
seen["set_all"] = locale.setlocale(locale.LC_ALL, "")
seen["time_after"] = locale.getlocale(locale.LC_TIME)
locale.setlocale(locale.LC_ALL, "C")
seen["after_c"] = locale.getlocale()
print(json.dumps(seen))
"""


def _seen(present: bool) -> dict[str, object]:
    call = f"present_machine({json.dumps(OTHER_MACHINE)})\n" if present else ""
    text = f"{program_source(('other_machine',))}\nimport json\n{call}{SEEN}"
    env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-"], input=text, text=True, capture_output=True, env=env, check=True
    )
    seen: dict[str, object] = json.loads(done.stdout)
    return seen


def test_the_sandbox_alone_shows_english_and_utc() -> None:
    seen = _seen(present=False)
    assert seen["getlocale"] == ["en_US", "UTF-8"]
    assert seen["system"] == "Linux"
    assert (seen["hour"], seen["minute"], seen["now_offset"]) == (0, 0, 0)


def test_the_other_machine_shows_german_and_a_quarter_hour_zone() -> None:
    seen = _seen(present=True)
    assert seen["getlocale"] == ["de_DE", "UTF-8"]  # not (None, None): de_DE is not installed
    assert (seen["hour"], seen["minute"], seen["now_offset"]) == (5, 45, 5 * 3600 + 45 * 60)
    assert seen["gettext_languages"] == ["de_DE.UTF-8"]
    assert seen["set_all"] == "de_DE.UTF-8"  # the code's setlocale(LC_ALL, "") does not fail
    assert seen["time_after"] == ["de_DE", "UTF-8"]
    assert seen["after_c"] == [None, None]  # a locale the code sets itself is its own
    assert seen["system"] == "Darwin"  # what code picks by the system differs there
