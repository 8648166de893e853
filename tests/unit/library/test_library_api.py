"""`remora.analyze` and `remora.review` as a script uses them, on a real project copy.

The lint agent's host steps apply ruff's safe fixes and finish the run when no
finding is left, so the scripted model is never asked and every outcome is exact.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import remora
from remora.config import SandboxConfig
from remora.errors import ConfigValueError, UsageError, WorkspaceNotFoundError

SHOP = (
    '"""Shop helpers."""\n\nimport os\nimport sys\n\n\ndef total(prices):\n    return sum(prices)\n'
)


def project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1"\n')
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "shop.py").write_text(SHOP)
    (root / "turns.yaml").write_text("[]\n")
    return root


def scripted(root: Path) -> dict[str, str]:
    return {"provider": "scripted", "id": "scripted", "path": str(root / "turns.yaml")}


def analyze(root: Path) -> remora.Analysis:
    return remora.analyze(
        root / "pkg",
        operations="lint",
        model=scripted(root),
        project=root,
        config={"sandbox": {"max_concurrent_agents": 1}},
    )


def models_of(analysis: remora.Analysis) -> list[str]:
    """``provider:id`` of the model each run used (its transcript's)."""
    return [str(o.result.details["transcript"]["model"]) for o in analysis.outcomes]


def test_analyze_returns_outcomes_and_changes_and_leaves_the_project(tmp_path: Path) -> None:
    root = project(tmp_path)
    analysis = analyze(root)
    assert analysis.exit_code == 0
    assert analysis.counts() == {"success": 3, "failed": 0, "skipped": 0, "changed": 1}
    assert [(o.node.full_name, o.operation) for o in analysis.outcomes] == [
        ("pkg/__init__.py", "lint"),
        ("pkg/shop.py", "lint"),
        ("total", "lint"),
    ]
    [change] = analysis.changes
    assert (change.node, change.operation, change.changed_files) == (
        "pkg/shop.py",
        "lint",
        ["pkg/shop.py"],
    )
    assert "-import os\n-import sys\n" in change.diff
    assert (root / "pkg" / "shop.py").read_text() == SHOP  # waits for review


def test_review_functions_list_show_accept(tmp_path: Path) -> None:
    root = project(tmp_path)
    [change] = analyze(root).changes
    [item] = remora.review.list_changes(root)
    assert (item.id, item.state, item.operation) == (change.workspace_id, "pending", "lint")
    view = remora.review.show(change.workspace_id, project=root)
    assert view.diff == change.diff and [h.number for h in view.hunks] == [1]
    [outcome] = remora.review.accept([change.workspace_id], project=root)
    assert outcome.accepted and outcome.report is not None
    assert outcome.report.written == ["pkg/shop.py"]
    # the imports gone, and with them the blank line their removal would double
    assert (root / "pkg" / "shop.py").read_text() == SHOP.replace("import os\nimport sys\n\n", "")
    assert remora.review.list_changes(root) == []


def test_reject_keeps_the_reason_and_the_project(tmp_path: Path) -> None:
    root = project(tmp_path)
    [change] = analyze(root).changes
    assert remora.review.reject(project=root, every=True, reason="keep os") == [change.workspace_id]
    assert remora.review.list_changes(root) == []
    assert (root / "pkg" / "shop.py").read_text() == SHOP


def test_review_of_a_project_never_analysed(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert remora.review.list_changes(root) == []
    assert not (root / ".remora").exists()
    with pytest.raises(WorkspaceNotFoundError):
        remora.review.accept(["lint-0"], project=root)
    analyze(root)
    with pytest.raises(UsageError, match="no workspace given"):
        remora.review.reject(project=root)


def test_analyze_runs_inside_a_running_event_loop(tmp_path: Path) -> None:
    # A notebook's cell runs inside an event loop: analyze must still finish.
    root = project(tmp_path)

    async def in_a_cell() -> remora.Analysis:
        return analyze(root)

    assert len(asyncio.run(in_a_cell()).changes) == 1


def test_unknown_operation_is_a_usage_error(tmp_path: Path) -> None:
    root = project(tmp_path)
    with pytest.raises(UsageError, match="unknown operation 'lnt'"):
        remora.analyze(root, operations=["lnt"], model=scripted(root), project=root)


def test_typed_model_and_config_objects_run_as_their_mappings(tmp_path: Path) -> None:
    root = project(tmp_path)
    analysis = remora.analyze(
        root / "pkg",
        operations="lint",
        model=remora.ModelConfig(provider="scripted", id="scripted", path=root / "turns.yaml"),
        project=root,
        config=remora.RemoraConfig(sandbox=SandboxConfig(max_concurrent_agents=1)),
    )
    assert analysis.counts() == {"success": 3, "failed": 0, "skipped": 0, "changed": 1}
    assert models_of(analysis) == ["scripted:scripted"] * 3
    [change] = analysis.changes
    assert "-import os\n-import sys\n" in change.diff


def test_of_a_typed_object_only_the_fields_given_override_the_file(tmp_path: Path) -> None:
    # Its defaults (provider "embedded", no path) must not replace remora.yaml's model.
    root = project(tmp_path)
    (root / "remora.yaml").write_text(
        f"model:\n  provider: scripted\n  path: {root / 'turns.yaml'}\n  id: from-file\n"
    )
    analysis = remora.analyze(
        root / "pkg", operations="lint", model=remora.ModelConfig(id="given"), project=root
    )
    assert analysis.exit_code == 0
    assert models_of(analysis) == ["scripted:given"] * 3


def test_analyze_async_is_analyze_awaited(tmp_path: Path) -> None:
    root = project(tmp_path)

    async def in_a_service() -> remora.Analysis:
        return await remora.analyze_async(
            root / "pkg", operations="lint", model=scripted(root), project=root
        )

    analysis = asyncio.run(in_a_service())
    assert analysis.counts() == {"success": 3, "failed": 0, "skipped": 0, "changed": 1}
    [change] = analysis.changes
    assert [item.id for item in remora.review.list_changes(root)] == [change.workspace_id]


def test_bad_fields_and_arguments_are_named(tmp_path: Path) -> None:
    root = project(tmp_path)
    bad_timeout = {**scripted(root), "timeout": -1}
    with pytest.raises(ConfigValueError, match=r"'model\.timeout' \(flag\): Input should be"):
        remora.analyze(root, model=bad_timeout, project=root)
    with pytest.raises(UsageError, match=r"model: expected a model id \(str\), a remora\."):
        remora.analyze(root, model=42, project=root)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"config: expected a remora\.RemoraConfig or a dict"):
        asyncio.run(remora.analyze_async(root, config=["sandbox"], project=root))  # type: ignore[arg-type]
    assert not (root / ".remora").exists()
