"""The pytest plugins a sandboxed run loads: the installed ones the project declares."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from remora.code.probes.pytest_plugins import installed_plugins
from remora.code.probes.sandboxed import MARKER, _program_text


def _loaded_modules(project: Path, args: list[str], *, autoload: bool = False) -> list[str]:
    """The modules of installed pytest plugins loaded when the project's test ran."""
    modules = [module for _, module in installed_plugins()]
    test = (
        "import json, sys\n\n\ndef test_report():\n"
        f"    print('LOADED', json.dumps([m for m in {modules!r} if m in sys.modules]))\n"
    )
    (project / "test_it.py").write_text(test)
    args = ["-q", "-s", "-p", "no:cacheprovider", *args, "test_it.py"]
    request = {"args": args, "autoload_plugins": autoload}
    run = subprocess.run(
        [sys.executable, "-"],
        input=_program_text("pytest_report", request, None),
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(x for x in run.stdout.splitlines() if x.startswith(MARKER))
    assert json.loads(line[len(MARKER) :])["tests"][0]["outcome"] == "passed"
    loaded = next(x for x in run.stderr.splitlines() if x.startswith("LOADED"))
    return list(json.loads(loaded.removeprefix("LOADED ")))


def test_only_the_plugins_the_args_name_are_loaded(tmp_path: Path) -> None:
    if not installed_plugins():
        pytest.skip("no pytest plugin is installed to leave out")
    assert _loaded_modules(tmp_path, []) == []
    module = installed_plugins()[0][1]
    assert _loaded_modules(tmp_path, ["-p", module]) == [module]
    # A request that does not turn the loading off (benchmarks/testgen_lib's) loads them all.
    everything = sorted({m for _, m in installed_plugins()})
    assert sorted(_loaded_modules(tmp_path, [], autoload=True)) == everything
