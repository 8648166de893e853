"""Runs for the page: progress of a running analyze and counts of past ones.

Everything comes from the results database, which every run writes one
committed result at a time, so a page polling it sees progress as it happens
whichever process runs the agents.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from remora.project import state_dir
from remora.results import ResultsDB, RunRecord

__all__ = ["RunView", "load_runs", "run_view", "start_retry_rejected"]


@dataclass(frozen=True, slots=True)
class RunView:
    run_id: str
    command: str
    started: float
    finished: float | None
    operations: list[str]
    tasks: int | None  # how many results the run will record, when it said
    done: int
    statuses: dict[str, int]
    reviews: dict[str, int]

    @property
    def running(self) -> bool:
        return self.finished is None

    @property
    def failed(self) -> int:
        return self.statuses.get("failed", 0)

    @property
    def started_text(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.started))

    @property
    def duration_s(self) -> float:
        return (self.finished or time.time()) - self.started

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "running": self.running, "failed": self.failed}


def _planned_tasks(config: dict[str, Any]) -> int | None:
    if isinstance(config.get("tasks"), int):
        return int(config["tasks"])
    nodes, operations = config.get("nodes"), config.get("operations")
    if isinstance(nodes, int) and isinstance(operations, list):
        return nodes * len(operations)  # every node x operation gets one result
    return None


def run_view(db: ResultsDB, run: RunRecord) -> RunView:
    results = db.list(run_id=run.run_id)
    operations = run.config.get("operations")
    return RunView(
        run.run_id,
        run.command,
        run.started,
        run.finished,
        [str(o) for o in operations] if isinstance(operations, list) else [],
        _planned_tasks(run.config),
        len(results),
        dict(Counter(r.status for r in results)),
        dict(Counter(r.review_state for r in results if r.review_state != "none")),
    )


def load_runs(db: ResultsDB) -> list[RunView]:
    """Every run, newest first."""
    return [run_view(db, run) for run in reversed(db.runs())]


def _remora_command() -> list[str]:
    beside = Path(sys.executable).with_name("remora")
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("remora")
    if found is None:
        raise FileNotFoundError("the `remora` command is not installed beside this Python")
    return [found]


def start_retry_rejected(project_root: Path) -> subprocess.Popen[bytes]:
    """``remora analyze --retry-rejected`` on the project, in the background.

    Its output goes to ``.remora/retry-rejected.log``; the page follows its
    progress through the results database like any other run.
    """
    log = state_dir(project_root) / "retry-rejected.log"
    with log.open("ab") as out:
        return subprocess.Popen(
            [*_remora_command(), "analyze", "--retry-rejected", str(project_root)],
            cwd=project_root,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
