"""What a probed call left in the working directory, taken away again.

``SqliteDict(filename="example.sqlite")`` (the project's README's own example) makes
the file where it runs: the project's root for the probe, and for a test the folder
pytest runs in. A test of such a call leaves the file in the project, and the next
test finds it: sqlitedict's reviewer saw a read-only test pass only because an earlier
one made the table, and a key listing hold the rows another test left. So each probed
set's new entries of the working directory (bytecode and coverage's files aside) are
reported (``made_files``) and removed, so no later set sees them.
"""

from __future__ import annotations

import os
import shutil

_OWN = ("__pycache__", ".coverage", ".pytest_cache", ".remora")


def listed() -> frozenset[str]:
    """The working directory's entries now (empty where it cannot be read)."""
    try:
        return frozenset(os.listdir("."))
    except OSError:
        return frozenset()


def made_files(before: frozenset[str]) -> dict[str, list[str]]:
    """``{"made_files": [...]}`` for the entries made since ``before``, each removed;
    ``{}`` when none was made."""
    made = sorted(n for n in listed() - before if not n.startswith(_OWN))
    for name in made:
        if os.path.isdir(name) and not os.path.islink(name):
            shutil.rmtree(name, ignore_errors=True)
        else:
            try:
                os.remove(name)
            except OSError:
                continue
    return {"made_files": made} if made else {}
