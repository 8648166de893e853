"""Use os."""

from __future__ import annotations

import os
