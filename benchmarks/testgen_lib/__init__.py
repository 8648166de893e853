"""Parts of benchmarks/testgen_peers.py: corpus, tool venvs, the three generators, the measure.

Imported with ``benchmarks/`` on ``sys.path`` (the script puts it there), like competence_lib.
"""
