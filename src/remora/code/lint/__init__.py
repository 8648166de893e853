"""The lint agent's toolkit: ruff on a node's own lines, its safe fixes, and checked rewrites.

- :mod:`.ruff_runs`: ruff's findings for a text, one run per text and settings;
- :mod:`.fixes`: the node's findings, ruff's safe fixes inside it, and a model's rewrite
  of the node, checked (``lint_findings``, ``lint_fix``, ``lint_replace_node``);
- :mod:`.statement_units`: the statement a finding sits in, rewritten alone
  (``lint_units``, ``lint_replace_statement``, ``lint_edit``);
- :mod:`.caused_findings`: what a fix caused elsewhere, fixed in the same change;
- :mod:`.same_behaviour`: whether a rewrite keeps what the code does, called before and after;
- :mod:`.rule_examples`: a ruff rule's own example, before and after (``lint_example_prompt``).
"""

from remora.code.lint.fixes import (
    lint_findings,
    lint_fix,
    lint_refusals,
    lint_replace_node,
    lost_names,
    node_findings,
    own_lines,
    replace_checked,
)
from remora.code.lint.ruff_runs import ruff_json, start_ruff
from remora.code.lint.rule_examples import lint_example_prompt
from remora.code.lint.statement_units import lint_edit, lint_replace_statement, lint_units

__all__ = [
    "lint_edit",
    "lint_example_prompt",
    "lint_findings",
    "lint_fix",
    "lint_refusals",
    "lint_replace_node",
    "lint_replace_statement",
    "lint_units",
    "lost_names",
    "node_findings",
    "own_lines",
    "replace_checked",
    "ruff_json",
    "start_ruff",
]
