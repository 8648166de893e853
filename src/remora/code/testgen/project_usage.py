"""The project's own calls go first among calls that reach as much.

Two calls that run the same lines are equal to the cover, which takes the earlier; a
reader is not indifferent: ``decamelize("rubyTuesdays")`` from the project's README says
what the function is for, ``decamelize("other str or iter")`` a value the search made up
(blind reviewers rejected such tests as placeholders that never exercise the conversion).
So the project's own literal calls and examples (the candidates whose reason is ``doc``
or ``as_called``) and the instances built as its code builds them (the ``x`` round) go
first, each group in the search's order. Only the project's own: a call free of made-up
values is no better for that alone (``restock(count=0, note=None)`` pins ``"0None"``).
"""

from __future__ import annotations

from collections.abc import Iterable

from remora.code.values import Candidate

__all__ = ["usage_first"]

# The calls the project itself makes or shows: its code's literal calls, its docs' examples.
_PROJECTS_OWN = frozenset({"doc", "as_called"})


def usage_first(keys: Iterable[str], candidates: dict[str, Candidate]) -> list[str]:
    """The probed calls ``keys`` with the project's own first (module docstring)."""

    def own(key: str) -> bool:
        candidate = candidates.get(key)
        return key.startswith("x") or (candidate is not None and candidate.why in _PROJECTS_OWN)

    return sorted(keys, key=lambda key: not own(key))
