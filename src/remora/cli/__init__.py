"""Command-line interface."""

from remora.cli.app import app, main

__all__ = ["app", "main"]
