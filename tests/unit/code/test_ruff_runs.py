"""One ruff run per (file, text, settings): the nodes of a file share it (real ruff, counted)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from remora.code import CodeContext
from remora.code.lint import ruff_runs
from remora.code.lint.ruff_runs import ruff_json
from remora.config import SandboxConfig
from remora.workspace import WorkspaceStore

SOURCE = "import os\n\n\ndef f(a):\n    return a == None\n"


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts ruff really ran on, in order (the real runner, counted)."""
    seen: list[str] = []
    real = ruff_runs._run_ruff

    async def counted(
        context: CodeContext, path: str, text: str, target: tuple[str, ...]
    ) -> list[dict[str, Any]]:
        seen.append(text)
        return await real(context, path, text, target)

    monkeypatch.setattr(ruff_runs, "_run_ruff", counted)
    return seen


def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["E", "F"]\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/m.py").write_text(SOURCE)
    return tmp_path


def codes(records: list[dict[str, Any]]) -> list[str]:
    return sorted(r["code"] for r in records)


async def test_nodes_of_one_file_share_one_ruff_run(tmp_path: Path, runs: list[str]) -> None:
    root = project(tmp_path)
    with WorkspaceStore(root).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        together = await asyncio.gather(*(ruff_json(context, "pkg/m.py", SOURCE) for _ in range(5)))
        later = await ruff_json(context, "pkg/m.py", SOURCE)
    assert runs == [SOURCE]
    assert all(codes(r) == ["E711", "F401"] for r in [*together, later])


async def test_another_text_or_an_edited_setting_runs_ruff_again(
    tmp_path: Path, runs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ruff_runs, "_STAMP_FOR_S", 0.0)
    root = project(tmp_path)
    fixed = SOURCE.replace("import os\n", "")
    with WorkspaceStore(root).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        assert codes(await ruff_json(context, "pkg/m.py", SOURCE)) == ["E711", "F401"]
        assert codes(await ruff_json(context, "pkg/m.py", fixed)) == ["E711"]
        settings = root / "pyproject.toml"
        settings.write_text('[tool.ruff.lint]\nselect = ["F"]\n')
        later = settings.stat().st_mtime_ns + 1_000_000_000
        os.utime(settings, ns=(later, later))  # a new mtime even on a coarse clock
        assert codes(await ruff_json(context, "pkg/m.py", SOURCE)) == ["F401"]
    assert runs == [SOURCE, fixed, SOURCE]


async def test_a_setting_edited_within_a_second_is_seen_a_second_later(
    tmp_path: Path, runs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(ruff_runs.time, "monotonic", lambda: clock[0])
    root = project(tmp_path)
    with WorkspaceStore(root).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        assert codes(await ruff_json(context, "pkg/m.py", SOURCE)) == ["E711", "F401"]
        settings = root / "pyproject.toml"
        settings.write_text('[tool.ruff.lint]\nselect = ["F"]\n')
        later = settings.stat().st_mtime_ns + 1_000_000_000
        os.utime(settings, ns=(later, later))
        clock[0] += 0.5  # the folder's stamp is still the one looked at
        assert codes(await ruff_json(context, "pkg/m.py", SOURCE)) == ["E711", "F401"]
        clock[0] += 1.0
        assert codes(await ruff_json(context, "pkg/m.py", SOURCE)) == ["F401"]
    assert runs == [SOURCE, SOURCE]


async def test_a_failed_run_is_not_kept(tmp_path: Path, runs: list[str]) -> None:
    root = project(tmp_path)
    (root / "pyproject.toml").write_text("[tool.ruff.lint]\nselect = [\n")  # not TOML
    with WorkspaceStore(root).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        for _ in range(2):
            with pytest.raises(RuntimeError, match=r"ruff failed on pkg/m\.py"):
                await ruff_json(context, "pkg/m.py", SOURCE)
    assert runs == [SOURCE, SOURCE]


async def test_kept_records_are_bounded_by_their_number(
    tmp_path: Path, runs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ruff_runs, "_records", type(ruff_runs._records)())
    monkeypatch.setattr(ruff_runs, "_KEPT_RECORDS", 3)  # two findings per text: one text kept
    root = project(tmp_path)
    other = SOURCE.replace("a == None", "a == None  # same findings")
    with WorkspaceStore(root).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        for text in (SOURCE, other, other, SOURCE):
            assert codes(await ruff_json(context, "pkg/m.py", text)) == ["E711", "F401"]
    assert runs == [SOURCE, other, SOURCE]  # SOURCE's records went when other's came


async def test_a_run_started_early_is_the_one_a_later_question_gets(
    tmp_path: Path, runs: list[str]
) -> None:
    """lint_fix starts ruff on its new text before parsing it: the check that follows joins
    that run instead of starting another."""
    root = project(tmp_path)
    fixed = SOURCE.replace("import os\n", "")
    with WorkspaceStore(root).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        ruff_runs.start_ruff(context, "pkg/m.py", fixed)
        await asyncio.sleep(0)
        started = list(runs)  # under way before anyone waits for it
        found = await ruff_json(context, "pkg/m.py", fixed)
        ruff_runs.start_ruff(context, "pkg/m.py", fixed)  # kept: nothing runs again
        await asyncio.sleep(0)
    # Asserted once ruff is done: a task cancelled while it starts its process hangs the
    # loop's shutdown on Python 3.11 (CPython gh-103847).
    assert started == [fixed] and runs == [fixed]
    assert codes(found) == ["E711"]


async def test_a_project_that_sets_fix_true_still_gets_its_findings(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "pyproject.toml").write_text(
        '[tool.ruff]\nfix = true\n[tool.ruff.lint]\nselect = ["E", "F"]\n'
    )
    with WorkspaceStore(root).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        found = await ruff_json(context, "pkg/m.py", SOURCE)
    assert codes(found) == ["E711", "F401"]
