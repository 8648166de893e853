"""The lint agent's toolkit: ruff on a node's own lines, its safe fixes, and checked rewrites.

- :mod:`.ruff_runs`: ruff's findings for a text, one run per text and settings;
- :mod:`.own_findings`: ruff's findings on the node's own lines (``lint_findings``);
- :mod:`.safe_fixes`: ruff's safe fixes inside the node (``lint_fix``);
- :mod:`.node_rewrite`: a model's rewrite of the node, checked (``lint_replace_node``);
- :mod:`.code_uses`: what a rewrite changed of the calls and reads beyond rewording;
- :mod:`.refusals`: the fixes the run refused, and why (``lint_refusals``);
- :mod:`.statement_units`: the statement a finding sits in, rewritten alone
  (``lint_units``, ``lint_replace_statement``, ``lint_edit``);
- :mod:`.caused_findings`: what a fix caused elsewhere, fixed in the same change;
- :mod:`.made_unused`, :mod:`.accepted_files`: the imports accepted changes made unused,
  removed by the accept (its ``tidy`` hook);
- :mod:`.removed_lines`: lines a fix removes take the blank lines they would double;
- :mod:`.partial_lookups`: a loop's lookup fix that leaves the same lookup in a store;
- :mod:`.oldest_python`: the rules held back below ruff's oldest target (the floor:
  :mod:`remora.code.python_floor`);
- :mod:`.same_behaviour`: whether a rewrite keeps what the code does, called before and after;
- :mod:`.annotation_meaning`, :mod:`.type_checks`: a fix that changes what an annotation
  means, kept only when the project's type checker finds no new error;
- :mod:`.rule_examples`: a ruff rule's own example, before and after (``lint_example_prompt``).
"""

from remora.code.lint.code_uses import lost_names
from remora.code.lint.node_rewrite import lint_replace_node, replace_checked
from remora.code.lint.own_findings import lint_findings, node_findings, own_lines
from remora.code.lint.refusals import lint_refusals
from remora.code.lint.ruff_runs import ruff_json, start_ruff
from remora.code.lint.rule_examples import lint_example_prompt
from remora.code.lint.safe_fixes import lint_fix
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
