"""The host alone: a provider that submits at once and writes no word.

Run beside the model (``competence.py --host-only``), it shows what the model
adds: every figure the host reaches by itself (ruff's safe fixes, tests that pin
observed behaviour, argument sets derived from the signature, docstring
sections filled from facts) is there without it. Completions are answered with
"no model" (the drafts then leave the words to a turn, which submits).
"""

from __future__ import annotations

from remora.config import ModelConfig
from remora.conversation import ModelRequest, ModelTurn
from remora.profiles import resolve_profile
from remora.providers.base import Provider
from remora.providers.scripted import FunctionProvider, tool_turn

__all__ = ["host_only_factory"]


def _submit(request: ModelRequest) -> ModelTurn:
    return tool_turn(("submit_result", {}))


def host_only_factory(model: ModelConfig, profile: str | None) -> Provider:
    """A provider for ``model`` with its profile, whose every turn is submit_result."""
    return FunctionProvider(
        _submit, profile=resolve_profile(profile, model.id), model_name="host-only"
    )
