"""AgentResult: the one outcome of an agent run; it never raises."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from remora.conversation import Usage

__all__ = ["AgentResult", "ResultError", "Status", "settle"]

Status = Literal["success", "failed", "skipped"]


@dataclass(frozen=True, slots=True)
class ResultError:
    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class AgentResult:
    status: Status
    workspace_id: str | None = None
    # From the workspace, never from what the model claims.
    changed_files: list[str] = field(default_factory=list)
    summary: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    error: ResultError | None = None
    turns: int = 0
    usage: Usage = field(default_factory=Usage)
    duration_s: float = 0.0
    # A limit or failure stopped the run; summary/details hold what was established.
    degraded: bool = False

    @property
    def ok(self) -> bool:
        return self.status == "success"

    def replace(self, **changes: Any) -> AgentResult:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "workspace_id": self.workspace_id,
            "changed_files": list(self.changed_files),
            "summary": self.summary,
            "details": self.details,
            "error": self.error.to_dict() if self.error else None,
            "turns": self.turns,
            "usage": self.usage.to_dict(),
            "duration_s": round(self.duration_s, 6),
            "degraded": self.degraded,
        }


def settle(result: AgentResult, without_change: Status) -> AgentResult:
    """The one rule that makes a finished run ``skipped``: it succeeded, left no change
    for review, and its agent says such a run is skipped (``without_change``). Its
    summary (the submit's facts) says why. A run whose changed files could not be
    read stays as it is: whether it left a change is unknown."""
    if (
        result.status != "success"
        or without_change != "skipped"
        or result.changed_files
        or "changed_files_error" in result.details
    ):
        return result
    return result.replace(status="skipped")
