"""A call that returns without running one of its node's own loops gives no test.

Blind reviewers rejected "the degenerate output for an empty table" and a grammar's first
sets "with no productions". Invented snippet; the rows and covered lines are the probe's
shape.
"""

from __future__ import annotations

import ast
from typing import Any

from remora.code.testgen.skipped_loops import without_skipped_loops

RENDER = """\
def render(self, width):
    if width < len(self.title):
        raise ValueError("too narrow")
    lines = [self.title]
    for name, score in self.rows:
        lines.append(name)
    if width > 80:
        for note in self.notes:
            lines.append(note)
    return lines
"""


def _function() -> ast.FunctionDef:
    node = ast.parse(RENDER).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def _units(*lines: int) -> frozenset[Any]:
    return frozenset(("line", line, None) for line in lines)


ROWS: dict[str, dict[str, Any]] = {
    "empty": {"returned": {"repr": "['Scores']"}},
    "filled": {"returned": {"repr": "['Scores', 'Ada']"}},
    "narrow": {"raised": {"type": "ValueError"}},
}
GAINS = {
    "empty": _units(2, 4, 5, 7, 10),
    "filled": _units(2, 4, 5, 6, 7, 10),
    "narrow": _units(2, 3),
}


def test_returning_calls_that_never_ran_the_loop_go_and_a_raising_one_stays() -> None:
    kept, dropped = without_skipped_loops(_function(), ["empty", "narrow"], ROWS, GAINS)
    assert kept == ["narrow"]
    assert dropped == ["empty: returns without running the loop at line 5, the node's work"]


def test_together_the_calls_ran_the_node_s_own_loop() -> None:
    # the loop under `if width > 80` is not the node's own statement: not asked
    chosen = ["empty", "filled", "narrow"]
    assert without_skipped_loops(_function(), chosen, ROWS, GAINS) == (chosen, [])
