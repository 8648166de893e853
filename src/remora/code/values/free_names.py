"""A name for something a generated test writes that no other name of the test has."""

from __future__ import annotations

from collections.abc import Collection

__all__ = ["free_name"]


def free_name(name: str, taken: Collection[str]) -> str:
    """``name``, else ``name_2``, ``name_3``, ...: the first that is not in ``taken``."""
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}_{number}", number + 1
    return candidate
