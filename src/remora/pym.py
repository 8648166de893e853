"""What a ``.pym`` tool script imports: ``from remora.pym import Input, external``.

::

    from remora.pym import Input, external

    path: str = Input("path", description="File to read, relative to the project")

    @external
    async def read_file(path: str) -> str: ...

    text = await read_file(path)
    {"lines": len(text.splitlines())}

The loader (:mod:`remora.sandbox.script_loader`) reads these declarations with ``ast``
and blanks their lines before the script runs in Monty, so neither function is
ever called inside the sandbox. They exist so that editors and type checkers
understand a script, and so that importing one on the host does no harm.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

__all__ = ["CONSTRAINTS", "MISSING", "Input", "InputSpec", "external"]

# Input's constraint arguments and the JSON schema keyword each becomes.
CONSTRAINTS: Final[dict[str, str]] = {
    "max_length": "maxLength",
    "max_items": "maxItems",
    "max_properties": "maxProperties",
    "minimum": "minimum",
    "maximum": "maximum",
}


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final[Any] = _Missing()

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class InputSpec:
    """What ``Input(...)`` returns on the host: the declaration itself."""

    name: str | None
    default: Any
    description: str
    # JSON schema keywords from the constraint arguments (``max_length=100``: maxLength).
    constraints: dict[str, int | float] = field(default_factory=dict)

    @property
    def required(self) -> bool:
        return self.default is MISSING


def Input(
    name: str | None = None,
    *,
    default: Any = MISSING,
    description: str = "",
    max_length: int | None = None,
    max_items: int | None = None,
    max_properties: int | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
) -> Any:
    """Declare a tool input; the host binds its value as a global before the script runs.

    ``name`` defaults to the variable it is assigned to; when given it must
    equal that variable. An input without ``default`` is required. The variable's
    annotation (``str``, ``int``, ``list[str]``, ``Literal["a", "b"]``, ...) becomes
    its JSON schema, and the constraints join it: ``max_length`` (characters of a
    string), ``max_items`` (of a list), ``max_properties`` (keys of a dict),
    ``minimum`` and ``maximum`` (of a number). This declaration is the tool's
    parameter schema; an agent's YAML only rewords it (``inputs:``, docs/agents.md).
    """
    given = {
        "max_length": max_length,
        "max_items": max_items,
        "max_properties": max_properties,
        "minimum": minimum,
        "maximum": maximum,
    }
    constraints = {CONSTRAINTS[k]: v for k, v in given.items() if v is not None}
    return InputSpec(name, default, description, constraints)


def external(func: F) -> F:
    """Declare a host function the script calls (``read_file``, ``run_command``, ...).

    The body stays ``...``: the host provides the implementation bound to the
    run's workspace.
    """
    func.__remora_external__ = True  # type: ignore[attr-defined]
    return func
