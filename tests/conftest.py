"""Shared test configuration."""

from __future__ import annotations

import os

# Unit tests must never reach a real model by accident.
os.environ.setdefault("REMORA_NO_NETWORK_MODELS", "1")
