"""Remora's version: one place, read by packaging (hatch), the CLI and the fingerprints."""

__version__ = "0.1.0"

__all__ = ["__version__"]
