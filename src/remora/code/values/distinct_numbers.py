"""An instance's whole numbers made distinct where they are all one value.

``Version(major=0, minor=0, patch=0)`` was the project's only literal construction of its
class, and so every method's instance: ``next_major`` on it cannot show that it resets the
minor and patch numbers, ``truncate`` gives ``0.0.0`` at every level (blind reviewers:
edit, "use 1.2.3"). Fields alike hide which one a method changed or kept; distinct ones
(1, 2, 3 in the order of the parameters) show it, as a person writing the test would.
"""

from __future__ import annotations

from typing import Any

__all__ = ["distinct_numbers"]


def distinct_numbers(args: dict[str, Any]) -> dict[str, Any]:
    """A construction whose whole numbers are all one value (``Version(major=0, minor=0,
    patch=0)``, the project's only literal one) with 1, 2, 3... in their place: a method
    of an instance whose fields are alike cannot show which one it changed or kept
    (blind reviewers: "0.0.0 cannot show that minor and patch are reset"). The alike
    values stay the search's to try, at the boundaries the method compares with."""
    numbers = [k for k, v in args.items() if isinstance(v, int) and not isinstance(v, bool)]
    if len(numbers) < 2 or len({args[k] for k in numbers}) > 1:
        return args
    return {**args, **{name: index for index, name in enumerate(numbers, start=1)}}
