"""Unit tests run offline and without a model: see offline_guard.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from offline_guard import OfflineGuard, offline


@pytest.fixture(autouse=True)
def offline_guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[OfflineGuard]:
    """Every unit test: non-loopback network and real model loads raise and fail the test."""
    with offline(monkeypatch) as guard:
        yield guard
