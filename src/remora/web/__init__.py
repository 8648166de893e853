"""``remora serve``: review the agents' changes in a local browser page."""

from __future__ import annotations

from remora.web.app import create_app
from remora.web.security import LOOPBACK_HOSTS, Credentials

__all__ = ["LOOPBACK_HOSTS", "Credentials", "create_app"]
