"""What a test run measured last, kept for its submit and for a search asked again.

A node's run measures its coverage and mutation score before its tests (the project's own)
and after; the submit reports them without measuring again, and a search asked again while
the workspace's files are those it measured gives what it found then instead of running
the same calls (:func:`remembered_search`). Kept per workspace (its id and creation time),
the latest ``_MAX_REMEMBERED`` runs. A search that could not run the node at all leaves
why (:func:`remember_problem`), for the submit to say instead of "no passing test could be
written": ``cannot import or find it: ModuleNotFoundError: No module named 'django'`` is
what a person can act on.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.probes import overlay_digest
from remora.code.testgen.test_results import MeasuredTests

__all__ = ["earlier_run", "remember_problem", "remember_run", "remembered_search", "search_problem"]

# Coverage of recent runs by workspace (id, creation time), for the submit's result.
_RUN_COVERAGE: OrderedDict[tuple[str, float], dict[str, Any]] = OrderedDict()
_MAX_REMEMBERED = 64
# Why a recent run's search could not run its node, by workspace.
_RUN_PROBLEM: OrderedDict[tuple[str, float], str] = OrderedDict()
# The dropped tests a result names, with why (the latest, when a run drops more).
_MAX_DROPPED = 20


def _run_key(context: CodeContext) -> tuple[str, float]:
    return (context.workspace.id, context.workspace.created)


def earlier_run(context: CodeContext) -> dict[str, Any] | None:
    """What this run measured last, whatever the files are now; None before any."""
    return _RUN_COVERAGE.get(_run_key(context))


def remembered_search(context: CodeContext) -> dict[str, Any] | None:
    """What this run last measured, while the workspace's files are still those it
    measured: ``{before, after, missed, ...}``; None otherwise."""
    remembered = earlier_run(context)
    if remembered is not None and remembered["files"] == overlay_digest(context):
        return remembered
    return None


def remember_run(context: CodeContext, result: MeasuredTests) -> None:
    """The run's first coverage and mutation score before (the project's own tests), its
    latest after and what that leaves missed, with the files they were measured on."""
    key = _run_key(context)
    earlier = _RUN_COVERAGE.get(key, {})
    _RUN_COVERAGE[key] = {
        "before": earlier.get("before", result["coverage_before"]),
        "after": result["coverage_after"],
        "mutation_before": earlier.get("mutation_before", result.get("mutation_before")),
        "mutation_after": result.get("mutation_after"),
        "mutation_note": result.get("mutation_note", ""),
        "observed": sorted(set(earlier.get("observed", [])) | set(result["observed"])),
        "dropped": [*earlier.get("dropped", []), *result["dropped"]][-_MAX_DROPPED:],
        "missed": result["missed"],
        "files": overlay_digest(context),
    }
    while len(_RUN_COVERAGE) > _MAX_REMEMBERED:
        _RUN_COVERAGE.popitem(last=False)


def remember_problem(context: CodeContext, problems: list[str]) -> str:
    """Why this run's search could not run the node with any arguments (``problems``: its
    calls' errors, the first told), kept for :func:`search_problem`."""
    why = ": ".join(["the search could not run the node with derived arguments", *problems[:1]])
    _RUN_PROBLEM[_run_key(context)] = why
    while len(_RUN_PROBLEM) > _MAX_REMEMBERED:
        _RUN_PROBLEM.popitem(last=False)
    return why


@host_function
def search_problem(context: CodeContext) -> str:
    """Why this run's test search could not run the node with any arguments (its first
    call's error: an import that failed, a constructor that raised); '' when it could."""
    return _RUN_PROBLEM.get(_run_key(context), "")
