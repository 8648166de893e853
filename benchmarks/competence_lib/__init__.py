"""Parts of the competence benchmark (benchmarks/competence.py).

``checks`` holds the per-change checks (reusable on any change an agent leaves:
the file parses, only the docstring changed, parameter sections, ruff's own
safe fix); ``corpus`` the pinned PyPI projects and the choice of nodes;
``oracles`` the measures per operation; ``report`` the figures and the table.
"""
