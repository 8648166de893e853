"""Sample data only for a project whose tests run under pytest.

The sample_data agent writes pytest's constructs alone: fixtures in a ``conftest.py``,
tests that take them as arguments, ``@pytest.mark.parametrize`` tables. Under unittest
or nose none of them runs (a test taking an argument is not even collected), so a
project offers sample data only where its own files say its tests run under pytest; the
one reading of them is the test agent's too (:mod:`remora.code.probes.test_runner`). A
project whose files say nothing gets none either: a node without a proposal costs a
maintainer nothing, a change its runner ignores costs a review.
"""

from __future__ import annotations

from remora.code.context import CodeContext
from remora.code.probes.test_runner import project_test_style

__all__ = ["not_pytest_reason"]

_ONLY_PYTEST = "a conftest.py fixture and a test that takes one run only under pytest"


def not_pytest_reason(context: CodeContext) -> str:
    """Why the project gets no sample data (its tests do not run under pytest, or nothing
    says they do), or '' when they run under pytest."""
    style = project_test_style(context)
    if style.runner == "pytest" and style.stated:
        return ""
    if style.runner == "pytest":
        return (
            "nothing in the project says its tests run under pytest (no conftest.py, "
            "pytest settings, pytest among its requirements or a test importing it): "
            + _ONLY_PYTEST
        )
    return f"the project's tests run under {style.runner} ({style.evidence}): {_ONLY_PYTEST}"
