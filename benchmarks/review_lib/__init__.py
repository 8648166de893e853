"""The review benchmark's parts: corpus, docstring stripping, export, labels and report.

``benchmarks/review.py`` is the command; docs/competence.md ("Review benchmark")
describes the corpus, the split and the blind-label protocol.
"""
