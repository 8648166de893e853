"""The live-Python assistant (docs/architecture.md): capabilities, question loop, consoles.

``%load_ext remora.assistant`` in IPython gives the ``%ask`` magic.
"""

from __future__ import annotations

from typing import Any

from remora.assistant.capabilities import Capabilities
from remora.assistant.capability_result import CapabilityError
from remora.assistant.executor import CallRecord, CapabilityExecutor
from remora.assistant.session import (
    SYSTEM_PROMPT,
    AssistantAnswer,
    AssistantLimits,
    ask,
    assistant_definition,
)
from remora.assistant.specs import CAPABILITY_NAMES, CAPABILITY_SPECS

__all__ = [
    "CAPABILITY_NAMES",
    "CAPABILITY_SPECS",
    "SYSTEM_PROMPT",
    "AssistantAnswer",
    "AssistantLimits",
    "CallRecord",
    "Capabilities",
    "CapabilityError",
    "CapabilityExecutor",
    "ask",
    "assistant_definition",
    "load_ipython_extension",
    "unload_ipython_extension",
]


def load_ipython_extension(ipython: Any) -> None:
    """IPython entry point: registers ``%ask``."""
    from remora.assistant.ipython import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    from remora.assistant.ipython import unload

    unload(ipython)
