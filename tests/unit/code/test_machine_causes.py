"""An exception the code raises because the machine answered with an OSError is the
machine's answer too, not a behaviour a test may pin (issue 56).

A blind reviewer rejected a web service's test pinning its ``ISBNLibURLError``: the
library raises it ``except URLError``, and the sandbox has no network, so the test
"only passes when there is no network". The probe's real program runs the invented
snippets on a Python subprocess (``probe_support``); a missing file stands in for the
missing network (both an ``OSError`` no ``raise`` of the code stated).
"""

from __future__ import annotations

from pathlib import Path

from probe_support import probe_outcome

from remora.code.probes.calls import pins_behaviour

SNIPPETS = """\
import os


class ConfigError(Exception):
    pass


def settings(path):
    try:
        return os.stat(path).st_size
    except OSError as exc:
        raise ConfigError("no settings at " + path) from exc


def checked(size):
    if size < 0:
        raise ConfigError("a size is never negative")
    return size
"""


def test_a_stated_error_that_came_of_the_machine_s_oserror_is_the_machine_s(
    tmp_path: Path,
) -> None:
    (tmp_path / "snippets.py").write_text(SNIPPETS)
    missing = probe_outcome(tmp_path, "snippets", "settings", {"path": "/no/such/file"})
    assert missing["raised"]["type"] == "ConfigError" and missing["raised"]["stated"]
    assert missing["raised"]["environment"] is True
    assert not pins_behaviour({**missing, "ok": True, "reason": ""})
    # The code's own check, with no OSError behind it, stays a behaviour.
    own = probe_outcome(tmp_path, "snippets", "checked", {"size": -1})
    assert own["raised"]["stated"] and "environment" not in own["raised"]
