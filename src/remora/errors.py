"""One error type for everything Remora reports to a user.

Codes are stable strings (``CONFIG_001``); the CLI maps the code's family to an
exit code so scripts can rely on it (DESIGN §1, §11).
"""

from __future__ import annotations

__all__ = [
    "AGENT_DEFINITION",
    "AGENT_INVALID_OUTPUT",
    "AGENT_MODEL_UNAVAILABLE",
    "AGENT_TURN_LIMIT",
    "CONFIG_INVALID_VALUE",
    "CONFIG_INVALID_YAML",
    "CONFIG_NOT_FOUND",
    "CONFIG_UNKNOWN_KEY",
    "DISC_PATH_NOT_FOUND",
    "DISC_QUERY",
    "SANDBOX_LOAD",
    "SANDBOX_RUNTIME",
    "USAGE",
    "WORKSPACE_CONFLICT",
    "WORKSPACE_NOT_FOUND",
    "WORKSPACE_OUTSIDE_PROJECT",
    "RemoraError",
    "exit_code_for",
]

CONFIG_INVALID_YAML = "CONFIG_001"
CONFIG_INVALID_VALUE = "CONFIG_002"
CONFIG_UNKNOWN_KEY = "CONFIG_003"
CONFIG_NOT_FOUND = "CONFIG_004"
DISC_PATH_NOT_FOUND = "DISC_001"
DISC_QUERY = "DISC_002"
AGENT_DEFINITION = "AGENT_001"
AGENT_MODEL_UNAVAILABLE = "AGENT_002"
AGENT_TURN_LIMIT = "AGENT_003"
AGENT_INVALID_OUTPUT = "AGENT_004"
SANDBOX_LOAD = "SANDBOX_001"
SANDBOX_RUNTIME = "SANDBOX_002"
WORKSPACE_CONFLICT = "WORKSPACE_001"
WORKSPACE_OUTSIDE_PROJECT = "WORKSPACE_002"
WORKSPACE_NOT_FOUND = "WORKSPACE_003"
USAGE = "USAGE"

# Exit codes (DESIGN §1): 2 nothing succeeded or bad usage, 3 configuration error.
_EXIT_BY_FAMILY = {"CONFIG": 3}
_DEFAULT_EXIT = 2


def exit_code_for(code: str) -> int:
    """The process exit code for an error code."""
    return _EXIT_BY_FAMILY.get(code.split("_", 1)[0], _DEFAULT_EXIT)


class RemoraError(Exception):
    """An error a user can act on: a code, a one-line message and a hint."""

    def __init__(self, code: str, message: str, hint: str = "") -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.hint = hint

    @property
    def exit_code(self) -> int:
        return exit_code_for(self.code)

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "hint": self.hint}
