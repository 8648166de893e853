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


def _program(
    body: str, present: bool, env: dict[str, str] | None = None
) -> tuple[dict[str, object], str]:
    """What ``body`` prints (JSON) in a fresh interpreter with the program part, and its
    standard error; ``present``: the other machine presented first."""
    call = f"present_machine({json.dumps(OTHER_MACHINE)})\n" if present else ""
    text = f"{program_source(('other_machine',))}\nimport json\n{call}{body}"
    env = env or {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-"],
        input=text,
        text=True,
        capture_output=True,
        env=env,
        check=True,
        timeout=30,
    )
    seen: dict[str, object] = json.loads(done.stdout)
    return seen, done.stderr


def _seen(present: bool) -> dict[str, object]:
    return _program(SEEN, present)[0]


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


ENVIRONMENT = """
import getpass, os, shutil, subprocess, sys
seen = {"path": os.environ["PATH"], "home": os.path.expanduser("~"), "user": getpass.getuser(),
        "pager": os.environ.get("PAGER"), "no_color": os.environ.get("NO_COLOR"),
        "argv": sys.argv}
with at_terminal([43, 132]):
    print("written on the terminal")
    seen["ttys"] = [stream.isatty() for stream in (sys.stdin, sys.stdout, sys.stderr)]
    seen["size"] = list(os.get_terminal_size(1))
    seen["stty"] = subprocess.run(["stty", "size"], capture_output=True, text=True).stdout
    try:
        input("answer? ")
    except EOFError:
        seen["answer"] = "end of input"
seen["ttys_after"] = [stream.isatty() for stream in (sys.stdin, sys.stdout, sys.stderr)]
print(json.dumps(seen))
"""


def _environment(present: bool) -> tuple[dict[str, object], str]:
    env = {"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "HOME": "/tmp", "NO_COLOR": "1"}
    return _program(ENVIRONMENT, present, env)


def test_the_other_machine_has_a_maintainers_environment() -> None:
    here, _ = _environment(present=False)
    seen, _ = _environment(present=True)
    assert (here["path"], here["home"], here["pager"], here["no_color"]) == (
        "/usr/bin:/bin",
        "/tmp",
        None,
        "1",
    )
    assert seen["path"] == "/opt/maintainer/bin:/usr/bin:/bin"
    assert seen["home"] == "/tmp/maintainer"
    assert (seen["user"], seen["pager"], seen["no_color"]) == ("maintainer", "more", None)
    assert here["argv"] == ["-"] and seen["argv"] == ["pytest", "-q", "tests"]


def test_the_tests_see_a_terminal_that_answers_with_end_of_input() -> None:
    seen, shown = _environment(present=True)
    assert seen["ttys"] == [True, True, True]
    assert seen["size"] == [132, 43]
    assert seen["stty"].split() == ["43", "132"]  # type: ignore[attr-defined]
    assert seen["answer"] == "end of input"  # a prompt does not wait for a person
    assert seen["ttys_after"] == [False, False, False]  # the report goes to the pipe
    assert "written on the terminal" in shown


CLOCK = """
import datetime, time
before = time.monotonic()
seen = {"time": time.time(), "today": datetime.date.today().isoformat(),
        "now": datetime.datetime.now().timestamp(), "local_year": time.localtime().tm_year}
seen["monotonic_s"] = time.monotonic() - before
print(json.dumps(seen))
"""


def test_the_other_machines_clock_runs_400_days_ahead_and_ticks() -> None:
    here = _program(CLOCK, present=False)[0]
    seen = _program(CLOCK, present=True)[0]
    ahead = float(seen["time"]) - float(here["time"])  # type: ignore[arg-type]
    assert 400 * 86400 < ahead < 401 * 86400
    assert seen["today"] != here["today"] and seen["local_year"] != here["local_year"]
    assert abs(float(seen["now"]) - float(seen["time"])) < 60  # type: ignore[arg-type]
    assert float(seen["monotonic_s"]) < 10  # type: ignore[arg-type]  # time limits unmoved
