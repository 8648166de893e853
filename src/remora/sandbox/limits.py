"""Resource limits for tool runs: three presets, overridable from the config.

Monty's defaults have no time or memory limit, so every checkout gets all four
limits from here (docs/agents.md, "Why Monty").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from pydantic_monty import ResourceLimits

if TYPE_CHECKING:
    from remora.config import SandboxConfig

__all__ = ["PRESETS", "LimitPreset", "resolve_limits"]


@dataclass(frozen=True, slots=True)
class LimitPreset:
    name: str
    # Sandbox execution time per run; host time spent in externals does not count.
    max_duration_s: float
    max_memory_mb: int
    max_recursion_depth: int
    # External calls per run (each await of an external is one).
    max_suspensions: int

    def to_monty(self) -> ResourceLimits:
        """The ``limits`` mapping of ``AsyncMonty.checkout``."""
        return {
            "max_feed_duration_secs": self.max_duration_s,
            "max_memory": self.max_memory_mb * 1024 * 1024,
            "max_recursion_depth": self.max_recursion_depth,
            "max_suspensions": self.max_suspensions,
            # Sleeps do not count as execution time; bound them separately.
            "max_total_sleep_secs": self.max_duration_s,
        }

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


PRESETS: Final[dict[str, LimitPreset]] = {
    "strict": LimitPreset(
        "strict", max_duration_s=2.0, max_memory_mb=64, max_recursion_depth=200, max_suspensions=200
    ),
    "default": LimitPreset(
        "default",
        max_duration_s=10.0,
        max_memory_mb=256,
        max_recursion_depth=1000,
        max_suspensions=2000,
    ),
    "permissive": LimitPreset(
        "permissive",
        max_duration_s=60.0,
        max_memory_mb=1024,
        max_recursion_depth=5000,
        max_suspensions=20000,
    ),
}


def resolve_limits(config: SandboxConfig, preset: str | None = None) -> LimitPreset:
    """The preset named by ``preset`` (or ``config.limits``) with the config's overrides."""
    name = preset or config.limits
    try:
        base = PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise ValueError(f"unknown sandbox limit preset {name!r} (known: {known})") from None
    changes = {
        key: value for key, value in config.overrides.model_dump().items() if value is not None
    }
    return dataclasses.replace(base, **changes) if changes else base
