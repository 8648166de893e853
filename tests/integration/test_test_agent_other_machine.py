"""A kept test passes on another machine too: one pinning the locale's text, a local
time, the sandbox's ``$PATH`` or what the code does without a terminal is dropped, and
says why (issue 56).

An invented kit: ``greeting`` picks its words by ``locale.getlocale()`` (cron-descriptor's
``Options()`` does, and blind reviewers got German text from its tests under de_DE);
``clock`` formats ``time.localtime``; ``config_dir`` picks by ``platform.system()``
(pathvalidate's ``normalize_platform("auto")``); ``search_path``, ``width`` and
``interactive`` read ``$PATH``, the terminal's size and whether output is a terminal
(humanfriendly's ``CustomSearchPath``, ``find_terminal_size`` and ``Spinner``, whose
tests blind reviewers rejected for it); ``due`` counts from a today it reads in another
module (parsedatetime's ``parse("tomorrow")``, whose pinned date its reviewer rejected);
``main`` reads ``sys.argv``, the sandbox program's ``['-c']`` (pyfiglet's ``main() == 1``
passed only under a bare ``pytest``); ``double`` depends on none of them. The sandbox
runs under ``C.UTF-8``, UTC and Linux, with its own ``PATH`` and no terminal, where they
give English, ``00:00``, ``~/.config``, the sandbox's folders, 80 columns and ``False``:
their tests passed here and failed elsewhere. The sandbox,
the probe, pytest and the mutation check are real; no model.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

KIT = '''\
import datetime
import locale
import os
import platform
import shutil
import sys
import time

from kit.calendar import current_date

WORDS = {"en": "hello", "de": "hallo", "fr": "bonjour"}


def greeting(name):
    """A greeting for ``name`` in the system's language."""
    code = (locale.getlocale()[0] or "en")[:2]
    return f"{WORDS.get(code, WORDS['en'])}, {name}"


def clock(seconds):
    """``seconds`` since the epoch as the local hour and minute."""
    if seconds < 0:
        raise ValueError("seconds must not be negative")
    return time.strftime("%H:%M", time.localtime(seconds))


def config_dir(app):
    """Where ``app`` keeps its settings on this system."""
    if platform.system() == "Darwin":
        return f"~/Library/Application Support/{app}"
    return f"~/.config/{app}"


def settings_file():
    """The kit's own settings file."""
    return config_dir("kit") + "/settings.ini"


def search_path():
    """The folders searched for programs, in order."""
    return os.environ.get("PATH", os.defpath).split(os.pathsep)


def width():
    """How many columns the output has."""
    return shutil.get_terminal_size((80, 25)).columns


def interactive():
    """Whether a person watches the output."""
    return sys.stdout.isatty()


def due(days):
    """The date ``days`` from today."""
    if days < 0:
        raise ValueError("days must not be negative")
    return current_date() + datetime.timedelta(days=days)


def main():
    """The command: the text to greet from the command line, 1 without one."""
    if len(sys.argv) < 2:
        return 1
    print(greeting(" ".join(sys.argv[1:])))
    return 0


def double(n):
    """Twice ``n``."""
    if n < 0:
        return -2 * n
    return 2 * n
'''

# Read in another module, the clock is out of sight of the search's own check (a node that
# returns ``date.today()`` itself gets no test), as parsedatetime's is, three calls down.
CALENDAR = """\
import datetime


def current_date():
    return datetime.date.today()
"""

FILES = {"kit/__init__.py": "", "kit/talk.py": KIT, "kit/calendar.py": CALENDAR}


@pytest.mark.parametrize(
    "node", ["greeting", "clock", "config_dir", "search_path", "width", "interactive"]
)
async def test_a_test_that_passes_only_under_our_locale_time_zone_system_or_environment_is_dropped(
    tmp_path: Path, node: str
) -> None:
    found, data = await search_tests_on(tmp_path, FILES, "kit/talk.py", node, "tests/test_talk.py")
    written = (data or b"").decode()
    assert "hello" not in written and "00:00" not in written and ".config" not in written, written
    assert "/usr/bin" not in written and "80" not in written and "False" not in written, written
    why = [d for d in found["dropped"] if "depends on the machine's locale, time zone," in d]
    assert why and "under de_DE.UTF-8, UTC+05:45, macOS's" in why[0], found
    assert "\x1b" not in why[0], why  # pytest's message, not its terminal colours


async def test_a_test_of_code_that_reads_neither_is_kept(tmp_path: Path) -> None:
    found, data = await search_tests_on(
        tmp_path, FILES, "kit/talk.py", "double", "tests/test_talk.py"
    )
    assert found["kept"] and data is not None, found
    assert not [d for d in found["dropped"] if "locale" in d], found


async def test_a_test_that_passes_only_today_is_dropped(tmp_path: Path) -> None:
    found, data = await search_tests_on(tmp_path, FILES, "kit/talk.py", "due", "tests/test_talk.py")
    written = (data or b"").decode()
    today = datetime.date.today()
    assert f"datetime.date({today.year}, {today.month}" not in written, written
    why = [d for d in found["dropped"] if "depends on the machine's locale, time zone," in d]
    assert why and "a clock 400 days ahead" in why[0], found


async def test_a_test_of_a_command_that_reads_its_command_line_is_dropped(tmp_path: Path) -> None:
    found, data = await search_tests_on(
        tmp_path, FILES, "kit/talk.py", "main", "tests/test_talk.py"
    )
    assert "main()" not in (data or b"").decode(), data
    why = [d for d in found["dropped"] if "depends on the machine's locale, time zone," in d]
    assert why and "`pytest -q tests` as its command line" in why[0], found
