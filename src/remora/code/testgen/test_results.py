"""What the test agent's toolkit functions give (:mod:`remora.code.testgen.kept_tests`,
:mod:`remora.code.testgen.test_search`, :mod:`remora.code.testgen.written_tests`).

Coverage summaries are :class:`~remora.code.probes.coverage_probe.CoverageSummary`, mutation
scores :class:`~remora.code.testgen.mutation_check.MutationScore`.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from remora.code.probes import CoverageSummary
from remora.code.testgen.mutation_check import MutationScore

__all__ = [
    "MeasuredTests",
    "ModelAsk",
    "ObservedTests",
    "RefusedPiece",
    "RunCoverage",
    "TestPieces",
    "TestScores",
    "TestSearch",
]


class TestScores(TypedDict, total=False):
    """Coverage and mutation score of the file's other tests (before) and with the kept ones
    (after); ``mutation_note`` in place of the scores when no mutation check could decide."""

    coverage_before: CoverageSummary
    coverage_after: CoverageSummary
    mutation_before: MutationScore
    mutation_after: MutationScore
    mutation_note: str


class MeasuredTests(TestScores):
    """Tests written and measured (:func:`write_measured`): ``dropped`` says why for each;
    ``observed`` the kept ones whose expected values were observed; ``missed`` the node's
    source with what no test ran marked ('' when all is covered); no scores when no
    measured run passed."""

    kept: list[str]
    dropped: list[str]
    missed: str
    observed: list[str]


class RunCoverage(TypedDict):
    """The node's coverage and mutation score before this run's tests and now; ``dropped``
    the tests it wrote and took back, with why; None where it was not measured."""

    before: CoverageSummary | None
    after: CoverageSummary | None
    mutation_before: MutationScore | None
    mutation_after: MutationScore | None
    mutation_note: str
    dropped: list[str]


class RefusedPiece(TypedDict):
    """A model's case or test source not made a test: ``what`` it was, ``reason`` what to
    change."""

    what: str
    reason: str


class TestPieces(TypedDict):
    """Test pieces not yet run (``{name, source, imports, ...}``, as ``add_covering_tests``
    and ``add_passing_tests`` take them) and the items refused."""

    pieces: list[dict[str, Any]]
    refused: list[RefusedPiece]


class ObservedTests(TypedDict):
    """Test pieces pinning what the node does with derived arguments; ``skipped`` says why
    for each set that gives none."""

    pieces: list[dict[str, Any]]
    skipped: list[str]


class ModelAsk(TypedDict):
    """The search's asks of the model for calls: ``kept``/``dropped`` its calls kept or
    not, ``problems`` why some could not be read, ``not_asked`` why it was not asked."""

    asked: bool
    kept: int
    problems: list[str]
    dropped: NotRequired[int]
    not_asked: NotRequired[str]


class TestSearch(TestScores):
    """The host's search (``search_tests``): :class:`MeasuredTests` once it wrote tests;
    ``reason`` when it could not search (with ``missed`` '' or why); ``searched`` "before"
    when nothing changed since the run searched; ``tried`` the candidates called, ``model``
    its asks; ``model_may_add`` whether a model turn aimed at ``missed`` is worth its cost."""

    kept: list[str]
    missed: str
    dropped: list[str]
    observed: NotRequired[list[str]]
    reason: NotRequired[str]
    searched: NotRequired[str]
    tried: NotRequired[int]
    model: NotRequired[ModelAsk]
    model_may_add: NotRequired[bool]
