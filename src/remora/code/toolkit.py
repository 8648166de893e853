"""Every function a ``.pym`` tool script may call as ``remora_code.NAME``, by job.

The list is written here, not gathered from imports: a reader finds where
``remora_code.lint_fix`` lives by reading it. ``docs/agents.md`` documents each one
(``tests/unit/code/test_toolkit_list.py`` checks both ways, and that every function
marked :func:`~remora.code.host_function.host_function` is listed).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from remora.code import completion, node_structure
from remora.code.docstring import draft, edit, text, view
from remora.code.host_function import HostFunction, describe
from remora.code.lint import (
    node_rewrite,
    own_findings,
    refusals,
    rule_examples,
    safe_fixes,
    statement_units,
)
from remora.code.probes import calls, pytest_files
from remora.code.samples import fixtures, sample_tests
from remora.code.testgen import kept_tests, run_memory, test_search, written_tests
from remora.code.values import constructor

__all__ = ["TOOLKIT", "toolkit_functions"]

TOOLKIT: dict[str, tuple[Callable[..., Any], ...]] = {
    # The node itself: where it is, what it takes, raises and returns (code/node_structure).
    "node": (
        node_structure.span,
        node_structure.signature,
        node_structure.raises,
        node_structure.returns,
    ),
    # The model, asked from a script for one completion (code/completion).
    "model": (completion.complete, completion.sureness),
    # code/lint: ruff's findings on the node, its safe fixes, checked rewrites.
    "lint": (
        own_findings.lint_findings,
        safe_fixes.lint_fix,
        node_rewrite.lint_replace_node,
        refusals.lint_refusals,
        rule_examples.lint_example_prompt,
        statement_units.lint_units,
        statement_units.lint_replace_statement,
        statement_units.lint_edit,
    ),
    # code/docstring: the node's view, the draft's prompt, the docstring composed and set.
    "docstring": (
        view.node_view,
        draft.first_sentence,
        draft.docstring_prompt,
        draft.docstring_left_alone,
        draft.note_not_proposed,
        draft.docstring_not_proposed,
        text.compose_docstring,
        text.docstring_parameters,
        edit.docstring,
        edit.docstring_before_run,
        edit.set_docstring,
    ),
    # code/testgen and code/probes: the module's test file, the search for tests, pytest, coverage.
    "test": (
        pytest_files.module_test_file,
        pytest_files.tests_added_by_run,
        pytest_files.run_pytest,
        pytest_files.add_passing_tests,
        test_search.search_tests,
        run_memory.search_problem,
        written_tests.model_test_pieces,
        written_tests.observed_tests,
        kept_tests.run_coverage,
        kept_tests.add_covering_tests,
        kept_tests.observed_in,
    ),
    # code/probes and code/values: calling the node, with which arguments, checked.
    "calls": (
        calls.call_target,
        calls.derived_argument_sets,
        calls.check_argument_sets,
        constructor.constructor_parameters,
    ),
    # code/samples: fixtures the tests read, and the tests that read them.
    "sample_data": (
        fixtures.sample_fixture,
        fixtures.add_to_sample_fixture,
        sample_tests.write_sample_fixtures,
        sample_tests.sample_tests_written,
    ),
}


@functools.cache
def toolkit_functions() -> tuple[HostFunction, ...]:
    """Every toolkit function, by name; two with one name are refused."""
    described = [describe(impl) for group in TOOLKIT.values() for impl in group]
    names = [f.name for f in described]
    if twice := sorted({name for name in names if names.count(name) > 1}):
        raise ValueError(f"remora_code lists these names twice: {twice}")
    return tuple(sorted(described, key=lambda f: f.name))
