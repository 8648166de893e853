"""Line and branch coverage of one span of one file, per context, for a program's run.

Sent ahead of a program (``run_program(..., coverage=spec)``): coverage.py in
branch mode measures only the node's file, in memory (no data file is written
in the workspace), and the program names a context per unit of work (a test, an
argument set) through its ``switch_context``. The report keeps only the lines
and branches inside the span (the node's body), in coverage.py's own terms: a
statement is its first line, a branch is an arc out of a line with two exits.

The project's own coverage settings are not read (``config_file=False``): a
``.coveragerc``, ``setup.cfg``, ``tox.ini`` or ``pyproject.toml`` section is written
for the project's whole suite, and its ``source`` overrides the ``include`` here
(coverage.py then warns "--include is ignored because --source is set"), so a
``source`` naming another module (one since made a package) left every context
empty and every test seemed to run none of the node's lines; an ``omit`` that
matches the node's file does the same.
"""

from __future__ import annotations

import os
import re
from typing import Any

import coverage
from coverage.parser import PythonParser

COVERAGE_MARKER = "REMORA_COVERAGE "


def start_coverage(spec: dict[str, Any]) -> coverage.Coverage:
    measured = coverage.Coverage(
        branch=True, data_file=None, include=[os.path.abspath(spec["file"])], config_file=False
    )
    measured.start()
    return measured


def _in_span(line: int, spec: dict[str, Any]) -> bool:
    return int(spec["first"]) <= line <= int(spec["last"])


def finish_coverage(measured: coverage.Coverage, spec: dict[str, Any]) -> dict[str, Any]:
    """``{statements, branches, contexts: {name: {lines, arcs}}}`` within the span."""
    measured.stop()
    path = os.path.abspath(spec["file"])
    parser = PythonParser(filename=path)
    parser.parse_source()
    exits = parser.exit_counts()
    statements = sorted(line for line in parser.statements if _in_span(line, spec))
    branches = sorted([a, b] for a, b in parser.arcs() if _in_span(a, spec) and exits.get(a, 0) > 1)
    taken = {(a, b) for a, b in branches}
    data = measured.get_data()
    files = [f for f in data.measured_files() if os.path.abspath(f) == path]
    contexts: dict[str, Any] = {}
    for name in sorted(data.measured_contexts()) if files else []:
        if name == "":
            continue
        data.set_query_contexts([f"^{re.escape(name)}$"])  # patterns, not names
        # Measured lines are where the bytecode ran (a multi-line dict runs from its first
        # key's line); the parser's statements and arcs start at each statement's first line.
        ran = parser.translate_lines(data.lines(files[0]) or [])
        lines = sorted(n for n in ran if _in_span(n, spec))
        went = parser.translate_arcs(data.arcs(files[0]) or [])
        arcs = sorted([a, b] for a, b in went if (a, b) in taken)
        contexts[name] = {"lines": lines, "arcs": arcs}
    return {"statements": statements, "branches": branches, "contexts": contexts}
