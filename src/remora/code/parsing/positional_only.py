"""Parameters that are positional-only by the old convention, before ``/`` existed.

PEP 484 (and the typing specification after it): a parameter whose name begins, but
does not end, with two underscores is positional-only, when it comes before every
other parameter a caller may name (``def loads(__s, *, parse_float=float)``); inside a
class its name is mangled too, so a keyword could not reach it anyway. A signature
that uses ``/`` has said so itself, and the convention is not read there.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["conventional_positional_only"]


def _private(name: str) -> bool:
    return name.startswith("__") and not name.endswith("__")


def conventional_positional_only(names: Sequence[str], *, skip_first: bool = False) -> int:
    """How many of the leading ``names`` (a signature's positional parameters, in order,
    with no ``/``) are positional-only by name; ``skip_first``: a method's ``self`` or
    ``cls`` comes first and counts with them."""
    start = 1 if skip_first and names else 0
    count = start
    while count < len(names) and _private(names[count]):
        count += 1
    return count if count > start else 0
