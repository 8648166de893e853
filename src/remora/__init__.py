"""Remora: local-first improvement of Python code with small tool-calling models."""

__version__ = "0.1.0"

__all__ = ["__version__"]
