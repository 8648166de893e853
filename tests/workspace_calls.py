"""The paths a :class:`~remora.workspace.Workspace` method is called with, from now on.

Shared by tests under tests/unit that count a run's reads (tests/conftest.py puts this
folder on ``sys.path``).
"""

from __future__ import annotations

from typing import Any

import pytest

from remora.workspace import Workspace

__all__ = ["recorded_paths"]


def recorded_paths(monkeypatch: pytest.MonkeyPatch, method: str) -> list[str]:
    """Each path given to ``Workspace.<method>`` (its first argument), in order."""
    paths: list[str] = []
    real = getattr(Workspace, method)

    def recording(self: Workspace, path: str, *args: Any) -> Any:
        paths.append(path)
        return real(self, path, *args)

    monkeypatch.setattr(Workspace, method, recording)
    return paths
