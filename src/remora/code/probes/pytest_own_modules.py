"""The modules pytest itself runs on: a project that is one of them cannot be tested here.

The tests run under the pytest of Remora's own environment, which imports its own
requirements (pluggy, iniconfig, packaging, pygments) and coverage.py before it reads a
test file. A test of the project ``pluggy`` then imports the installed pluggy that is
already loaded, not the copy in the workspace: its tests cover none of the node's lines
and no mutant of it can fail them (every one was dropped, after minutes of search, on
pluggy 1.6.0). A node whose top-level module is one of these is not tested, and the
result says why. The names are read from the installed distributions' metadata
(``importlib.metadata``), never listed by hand.
"""

from __future__ import annotations

import functools
from importlib import metadata

from packaging.requirements import InvalidRequirement, Requirement

__all__ = ["pytest_own_module"]

# The distributions a test run loads before the tests: pytest (and what it requires on this
# platform) and coverage.py, which measures the run.
_RUNNERS = ("pytest", "coverage")


def _required(distribution: str) -> set[str]:
    """The distributions ``distribution`` requires here (no extras; markers evaluated)."""
    found: set[str] = set()
    for line in metadata.requires(distribution) or []:
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            found.add(requirement.name)
    return found


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


@functools.cache
def _loaded_first() -> frozenset[str]:
    """The top-level import names of the distributions loaded before the tests."""
    wanted: set[str] = set()
    for runner in _RUNNERS:
        try:
            wanted |= {runner, *_required(runner)}
        except metadata.PackageNotFoundError:
            continue
    wanted = {_normal(name) for name in wanted}
    provided = metadata.packages_distributions()
    return frozenset(
        module
        for module, distributions in provided.items()
        if any(_normal(d) in wanted for d in distributions)
    )


def pytest_own_module(module: str) -> str:
    """Why a test of ``module`` (dotted) would exercise the installed copy ('' when not)."""
    top = module.split(".", 1)[0]
    if top not in _loaded_first():
        return ""
    return (
        f"the test run loads the installed {top} before any test (pytest or coverage.py "
        f"needs it), so a test would run that one, not this copy: Remora writes no test for it"
    )
