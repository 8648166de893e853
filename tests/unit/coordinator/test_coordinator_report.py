"""Exit codes and the JSON shape of an analyze report (the README's exit codes)."""

from __future__ import annotations

import pytest

from remora.coordinator import AnalyzeReport, TaskOutcome
from remora.discovery.node import CSTNode, make_node_id
from remora.runner import AgentResult, ResultError


def _node(name: str) -> CSTNode:
    return CSTNode(
        make_node_id("m.py", name, "function"),
        "function",
        name,
        name,
        "m.py",
        0,
        10,
        1,
        2,
        f"def {name}(): pass\n",
    )


def _report(*statuses: str, interrupted: bool = False) -> AnalyzeReport:
    outcomes = []
    for i, status in enumerate(statuses):
        error = ResultError("AGENT_003", "turn limit") if status == "failed" else None
        changed = ["m.py"] if status == "success" and i == 0 else []
        outcomes.append(
            TaskOutcome(
                _node(f"f{i}"),
                "lint",
                AgentResult(
                    status,
                    workspace_id="lint-x" if changed else None,  # type: ignore[arg-type]
                    changed_files=changed,
                    summary=status,
                    error=error,
                ),
            )
        )
    return AnalyzeReport("run-1", ["lint"], len(statuses), outcomes, interrupted)


@pytest.mark.parametrize(
    ("statuses", "code"),
    [
        (("success", "skipped"), 0),
        (("skipped", "skipped"), 0),
        ((), 0),
        (("success", "failed"), 1),
        (("failed", "skipped"), 2),
        (("failed", "failed"), 2),
    ],
)
def test_exit_codes(statuses: tuple[str, ...], code: int) -> None:
    assert _report(*statuses).exit_code == code


def test_interrupted_is_130_whatever_finished() -> None:
    assert _report("success", interrupted=True).exit_code == 130


def test_json_shape() -> None:
    data = _report("success", "failed").to_dict()
    assert data["counts"] == {"success": 1, "failed": 1, "skipped": 0, "changed": 1}
    assert data["exit_code"] == 1 and data["run_id"] == "run-1"
    first, second = data["results"]
    assert first["node"] == "f0" and first["operation"] == "lint"
    assert first["changed_files"] == ["m.py"] and first["status"] == "success"
    assert second["error"] == {"code": "AGENT_003", "message": "turn limit"}


def test_the_repr_of_a_large_report_stays_short() -> None:
    # asyncio.run (3.11) restores its SIGINT handler through signal's enum lookup, whose
    # ValueError message is built with the repr of the handler, a partial holding the main
    # task, whose repr holds its result: the report. At 56,793 outcomes the whole repr was
    # 426 MB, made four times as the command ended (the parent's RSS 280 MB -> 1.4 GB).
    report = _report(*["success", "skipped", "failed"] * 1000)
    shown = repr(report)
    assert len(shown) < 200, shown
    assert "3000 outcomes" in shown and "run-1" in shown
