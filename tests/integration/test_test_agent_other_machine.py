"""A kept test passes on another machine too: one pinning the locale's text or a local
time is dropped, and says why (issue 56).

An invented kit: ``greeting`` picks its words by ``locale.getlocale()`` (cron-descriptor's
``Options()`` does, and blind reviewers got German text from its tests under de_DE);
``clock`` formats ``time.localtime``; ``config_dir`` picks by ``platform.system()``
(pathvalidate's ``normalize_platform("auto")``); ``double`` depends on none of them. The
sandbox runs under ``C.UTF-8``, UTC and Linux, where the first three give English,
``00:00`` and ``~/.config``: their tests passed here and failed elsewhere. The sandbox,
the probe, pytest and the mutation check are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

KIT = '''\
import locale
import platform
import time

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


def double(n):
    """Twice ``n``."""
    if n < 0:
        return -2 * n
    return 2 * n
'''

FILES = {"kit/__init__.py": "", "kit/talk.py": KIT}


@pytest.mark.parametrize("node", ["greeting", "clock", "config_dir"])
async def test_a_test_that_passes_only_under_our_locale_time_zone_or_system_is_dropped(
    tmp_path: Path, node: str
) -> None:
    found, data = await search_tests_on(tmp_path, FILES, "kit/talk.py", node, "tests/test_talk.py")
    written = (data or b"").decode()
    assert "hello" not in written and "00:00" not in written and ".config" not in written, written
    why = [d for d in found["dropped"] if "depends on the machine's locale, time zone or" in d]
    assert why and "under de_DE.UTF-8, UTC+05:45 and macOS's" in why[0], found


async def test_a_test_of_code_that_reads_neither_is_kept(tmp_path: Path) -> None:
    found, data = await search_tests_on(
        tmp_path, FILES, "kit/talk.py", "double", "tests/test_talk.py"
    )
    assert found["kept"] and data is not None, found
    assert not [d for d in found["dropped"] if "locale" in d], found
