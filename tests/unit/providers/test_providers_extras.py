"""A provider whose SDK is not installed: an error naming the extra, for real.

Each case runs `remora analyze` in a child process whose import system refuses
the SDK's package, as on a machine where it was never installed. The embedded
default and the scripted provider need none of them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# Refuses the packages named in argv[1], then runs the real `remora` entry point.
BLOCKED_RUN = """
import sys
from importlib.abc import MetaPathFinder

BLOCKED = set(sys.argv.pop(1).split(","))


class NotInstalled(MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
from remora.cli import main

sys.argv[0] = "remora"
main()
"""


def remora_without(blocked: str, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKED_RUN, blocked, *args, "--project", str(project)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=project,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "m.py").write_text("import os\n\n\ndef add(a, b):\n    return a + b\n")
    return tmp_path


@pytest.mark.parametrize(
    ("provider", "blocked", "package", "extra"),
    [
        ("openai", "aiohttp", "aiohttp", "openai"),
        ("llm", "llm", "llm", "llm"),
        ("gemini", "google", "google", "gemini"),
    ],
)
def test_a_provider_without_its_sdk_names_the_extra(
    project: Path, provider: str, blocked: str, package: str, extra: str
) -> None:
    done = remora_without(
        blocked, project, "analyze", "m.py", "-o", "lint", "--provider", provider,
        "--model", "some-model", "--no-events",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert (
        f"error[AGENT_002]: the {provider} provider needs the {package!r} package, "
        "which is not installed"
    ) in done.stderr
    assert f"hint: pip install 'remora[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_scripted_analyze_and_review_need_no_provider_sdk(project: Path) -> None:
    turns = project / "turns.yaml"
    turns.write_text(
        "- calls: [{name: apply_fix, arguments: {issue_code: F401}}]\n"
        "- calls: [{name: submit_result, arguments: {}}]\n"
    )
    every_sdk = "openai,llm,google,httpx"
    analyzed = remora_without(
        every_sdk, project, "analyze", "m.py", "-o", "lint", "-t", "file",
        "--provider", "scripted", "--model-path", str(turns), "--no-events",
    )  # fmt: skip
    assert analyzed.returncode == 0, analyzed.stderr
    reviewed = remora_without(every_sdk, project, "review")
    assert reviewed.returncode == 0, reviewed.stderr
    assert "lint-" in reviewed.stdout and "pending" in reviewed.stdout
