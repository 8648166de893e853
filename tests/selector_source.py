"""A made-up class built the way its project builds it, ``Selector``, as source text.

A bare ``Selector()`` has no steps, and every method reaches the helper that refuses
that; the project builds one as ``Selector()[name]`` or through ``pick(name)``. Shared by
tests/unit/code/test_owner_expressions.py (read with ``ast``; it adds module functions of
its own) and tests/integration/test_test_agent_owner_expressions.py (the test search runs
it in the sandbox); tests/conftest.py puts this folder on ``sys.path``.
"""

from __future__ import annotations

__all__ = ["SELECTOR"]

SELECTOR = """\
class Selector:
    def __init__(self):
        self._steps = ()

    def __getitem__(self, name):
        chosen = Selector()
        chosen._steps = self._steps + (name,)
        return chosen

    def _check(self, op, value):
        if not self._steps:
            raise ValueError("the selector has no steps")
        return ".".join(self._steps) + f" {op} {value!r}"

    def equals(self, value):
        if value is None:
            return self._check("is", value)
        return self._check("==", value)

    def below(self, limit):
        return self._check("<", limit)


def pick(name):
    return Selector()[name]
"""
