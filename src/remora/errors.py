"""The errors Remora reports to a user, one class per family, caught by type.

Every error has a stable code (``CONFIG_001``) that goes into exit statuses and
JSON output, a one-line message and a hint. Code that needs to tell errors apart
catches the class (``except ModelUnavailableError``), never compares codes or
message text. The exit-code contract (docs/architecture.md, "Exit codes"):
configuration errors exit 3, every other error 2.

Raise a concrete class with a message and a hint::

    raise ConfigValueError(f"{path}: runner.max_turns must be positive", "set it to 1 or more")

``error_for(code, ...)`` builds the right class when the code is only known at
run time (a code read back from JSON, or one carried over from a wrapped error).
"""

from __future__ import annotations

from typing import ClassVar

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
    "GIT",
    "SANDBOX_LOAD",
    "SANDBOX_RUNTIME",
    "USAGE",
    "WORKSPACE_CONFLICT",
    "WORKSPACE_NOT_FOUND",
    "WORKSPACE_OUTSIDE_PROJECT",
    "AgentDefinitionError",
    "AgentError",
    "ConfigError",
    "ConfigNotFoundError",
    "ConfigValueError",
    "ConfigYamlError",
    "DiscoveryError",
    "DiscoveryPathError",
    "GitError",
    "InvalidModelOutputError",
    "ModelError",
    "ModelUnavailableError",
    "OutsideProjectError",
    "QueryPackError",
    "RemoraError",
    "SandboxError",
    "ScriptLoadError",
    "ScriptRuntimeError",
    "TurnLimitError",
    "UnknownConfigKeyError",
    "UsageError",
    "WorkspaceConflictError",
    "WorkspaceError",
    "WorkspaceNotFoundError",
    "error_for",
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
GIT = "GIT_001"

# 2 nothing succeeded or bad usage, 3 configuration error (the README's exit codes).
_EXIT_BY_FAMILY = {"CONFIG": 3}
_DEFAULT_EXIT = 2


def exit_code_for(code: str) -> int:
    """The process exit code for an error code."""
    return _EXIT_BY_FAMILY.get(code.split("_", 1)[0], _DEFAULT_EXIT)


class RemoraError(Exception):
    """An error a user can act on: a code, a one-line message and a hint.

    Raise a subclass; this base takes the code explicitly and stays for code
    that only reports errors (``except RemoraError`` in the CLI).
    """

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


class _CodedError(RemoraError):
    """A class that fixes its code; families leave ``CODE`` empty and are never raised."""

    CODE: ClassVar[str] = ""

    def __init__(self, message: str, hint: str = "") -> None:
        if not self.CODE:
            raise TypeError(f"{type(self).__name__} is a family; raise one of its subclasses")
        super().__init__(self.CODE, message, hint)


# ------------------------------------------------------------------ families


class ConfigError(_CodedError):
    """remora.yaml, a REMORA_* variable or a flag is wrong (exit 3)."""


class DiscoveryError(_CodedError):
    """A path to analyse or a tree-sitter query pack is wrong."""


class AgentError(_CodedError):
    """An agent cannot run or did not finish: its definition, its model, its limits."""


class ModelError(AgentError):
    """A model could not be used or answered unusably; ``retryable`` when trying again may help."""

    def __init__(self, message: str, hint: str = "", *, retryable: bool = False) -> None:
        super().__init__(message, hint)
        self.retryable = retryable


class SandboxError(_CodedError):
    """A ``.pym`` tool script could not be loaded or run."""


class WorkspaceError(_CodedError):
    """A workspace is missing, conflicts with the project, or a path leaves the project."""


# ------------------------------------------------------------------ concrete classes


class ConfigYamlError(ConfigError):
    CODE = CONFIG_INVALID_YAML


class ConfigValueError(ConfigError):
    CODE = CONFIG_INVALID_VALUE


class UnknownConfigKeyError(ConfigError):
    CODE = CONFIG_UNKNOWN_KEY


class ConfigNotFoundError(ConfigError):
    CODE = CONFIG_NOT_FOUND


class DiscoveryPathError(DiscoveryError):
    """A path given to discover or analyse does not exist or leaves the project."""

    CODE = DISC_PATH_NOT_FOUND


class QueryPackError(DiscoveryError):
    CODE = DISC_QUERY


class AgentDefinitionError(AgentError):
    """An agent YAML or one of its tool scripts is invalid, or no such agent exists."""

    CODE = AGENT_DEFINITION


class ModelUnavailableError(ModelError):
    """The model is missing, unreachable, refused the request or timed out."""

    CODE = AGENT_MODEL_UNAVAILABLE


class TurnLimitError(AgentError):
    """The run used its turns without submitting a result."""

    CODE = AGENT_TURN_LIMIT


class InvalidModelOutputError(ModelError):
    """The model's answer could not be read (malformed JSON, not a tool call, ...)."""

    CODE = AGENT_INVALID_OUTPUT


class ScriptLoadError(SandboxError):
    CODE = SANDBOX_LOAD


class ScriptRuntimeError(SandboxError):
    CODE = SANDBOX_RUNTIME


class WorkspaceConflictError(WorkspaceError):
    """The project or the workspace changed in a way that forbids the operation."""

    CODE = WORKSPACE_CONFLICT


class OutsideProjectError(WorkspaceError):
    """A path an agent gave leaves the project root."""

    CODE = WORKSPACE_OUTSIDE_PROJECT


class WorkspaceNotFoundError(WorkspaceError):
    CODE = WORKSPACE_NOT_FOUND


class UsageError(_CodedError):
    """The command line asks for something that cannot be done (exit 2)."""

    CODE = USAGE


class GitError(_CodedError):
    """Git is missing, or the repository, a ref or its state is not what a command needs."""

    CODE = GIT


_CLASS_BY_CODE: dict[str, type[_CodedError]] = {
    cls.CODE: cls
    for cls in (
        ConfigYamlError,
        ConfigValueError,
        UnknownConfigKeyError,
        ConfigNotFoundError,
        DiscoveryPathError,
        QueryPackError,
        AgentDefinitionError,
        ModelUnavailableError,
        TurnLimitError,
        InvalidModelOutputError,
        ScriptLoadError,
        ScriptRuntimeError,
        WorkspaceConflictError,
        OutsideProjectError,
        WorkspaceNotFoundError,
        UsageError,
        GitError,
    )
}


def error_for(code: str, message: str, hint: str = "") -> RemoraError:
    """The error of the class that owns ``code``; a code no class owns raises ValueError."""
    try:
        cls = _CLASS_BY_CODE[code]
    except KeyError:
        raise ValueError(f"no error class has the code {code!r}") from None
    return cls(message, hint)
