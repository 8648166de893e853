"""The agent loop (docs/agents.md): runner, turn policy, tool dispatch, results."""

from remora.runner.agent_result import AgentResult, ResultError, Status, settle
from remora.runner.completions import MeteredCompleter
from remora.runner.dispatcher import (
    CallOutcome,
    ToolDispatcher,
    ToolExecutor,
    WorkspaceReporter,
    envelope_error,
    envelope_ok,
)
from remora.runner.loop import AgentRunner, effective_max_turns
from remora.runner.messages import CONTEXT_PREFIX, Transcript
from remora.runner.place import ModelPlace
from remora.runner.policy import RepeatGuard, RunState, TurnPlan, TurnPolicy
from remora.runner.run_end import RetryRecord
from remora.runner.sandbox_executor import SandboxToolExecutor

__all__ = [
    "CONTEXT_PREFIX",
    "AgentResult",
    "AgentRunner",
    "CallOutcome",
    "MeteredCompleter",
    "ModelPlace",
    "RepeatGuard",
    "ResultError",
    "RetryRecord",
    "RunState",
    "SandboxToolExecutor",
    "Status",
    "ToolDispatcher",
    "ToolExecutor",
    "Transcript",
    "TurnPlan",
    "TurnPolicy",
    "WorkspaceReporter",
    "effective_max_turns",
    "envelope_error",
    "envelope_ok",
    "settle",
]
