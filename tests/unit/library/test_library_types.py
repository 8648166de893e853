"""A user's script type-checked with ``mypy --strict`` sees the library's types, not ``Any``.

The script is checked as a user's would be: from its own folder, with a plain strict
configuration (no pydantic plugin), against the installed package and its
``py.typed``. It runs mypy (a few seconds of CPU, the package's modules read once).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

USER_SCRIPT = """\
import asyncio
from pathlib import Path

import remora


def run(root: Path) -> None:
    model = remora.ModelConfig(provider="scripted", id="scripted", path=root / "turns.yaml")
    analysis = remora.analyze(root, model=model, config={"sandbox": {"host_processes": 1}})
    reveal_type(analysis)
    reveal_type(analysis.changes[0])
    reveal_type(analysis.outcomes[0])
    reveal_type(analysis.outcomes[0].result)
    reveal_type(analysis.outcomes[0].node)
    reveal_type(analysis.report)
    reveal_type(asyncio.run(remora.analyze_async(root, config=remora.RemoraConfig())))
    reveal_type(remora.review.list_changes(root))
    remora.ModelConfig(provder="scripted")
    size: int = analysis.changes[0].diff
    remora.analyze(root, force="yes")
"""

REVEALED = [
    "Analysis",
    "Change",
    "TaskOutcome",
    "AgentResult",
    "CSTNode",
    "AnalyzeReport",
    "Analysis",
    "list[ReviewItem]",
]
# line -> how mypy's error there begins: the script's three mistakes.
ERRORS = {
    18: 'Unexpected keyword argument "provder" for "ModelConfig"',
    19: 'Incompatible types in assignment (expression has type "str", variable has type "int")',
    20: 'Argument "force" to "analyze" has incompatible type "str"; expected "bool"',
}


def _unqualified(revealed: str) -> str:
    """``list[remora.results.review_queue.ReviewItem]`` -> ``list[ReviewItem]``."""
    return re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", revealed)


def test_mypy_strict_sees_the_library_types(tmp_path: Path) -> None:
    (tmp_path / "user.py").write_text(USER_SCRIPT)
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n")
    command = ["mypy", "--config-file", "mypy.ini", "--cache-dir", "cache", "user.py"]
    checked = subprocess.run(
        [sys.executable, "-m", *command, "--python-executable", sys.executable],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = checked.stdout.splitlines()
    revealed = [
        _unqualified(found.group(1))
        for line in lines
        if (found := re.search(r'note: Revealed type is "(.*)"', line))
    ]
    assert revealed == REVEALED, checked.stdout
    errors = {
        int(found.group(1)): found.group(2)
        for line in lines
        if (found := re.match(r"user\.py:(\d+): error: (.*?)  \[", line))
    }
    assert errors.keys() == ERRORS.keys(), checked.stdout
    assert all(errors[line].startswith(start) for line, start in ERRORS.items()), checked.stdout
    assert checked.returncode == 1
