"""What the sample_data agent's toolkit functions give (:mod:`remora.code.samples.fixtures`,
:mod:`remora.code.samples.sample_tests`)."""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = ["AddedSamples", "SampleFixture", "SampleTests", "SampleWrite"]


class SampleFixture(TypedDict):
    """The node's JSON fixture file: its ``path``, whether it ``exists``, its ``samples`` as
    stored (``[]`` when none)."""

    path: str
    exists: bool
    samples: list[Any]


class AddedSamples(TypedDict):
    """Sets added to the JSON fixture file: how many were new (``added``) and how many the
    file holds now (``samples``)."""

    path: str
    added: int
    samples: int


class SampleTests(TypedDict):
    """What a sample_data run wrote: the fixtures the ``conftest`` gained and the tests the
    ``test_file`` gained (empty when it wrote none, and then ``reason`` says why)."""

    conftest: str
    test_file: str
    fixtures: list[str]
    tests: list[str]
    reason: str


class SampleWrite(SampleTests):
    """The write step's result: whether a change was ``written``, how many ``sets`` it
    holds, the candidates ``dropped`` (how many for each reason) and the model's sets
    ``refused`` (each with why)."""

    written: bool
    sets: int
    dropped: dict[str, int]
    refused: list[str]
