"""Which of a project's files are test code: the patterns, and how a pattern matches a path.

One rule for every reader: the coordinator leaves test code out of the operations whose
agent says ``test_code: skip`` (unless the operation sets ``exclude:``), and the toolkit
does not call a node that lives in test code. Both ask here, so ``pkg/tests/x.py`` is
test code to both.
"""

from __future__ import annotations

import fnmatch

__all__ = ["TEST_CODE_PATTERNS", "is_test_code", "path_matches"]

# pytest's own conventions (test_*.py, *_test.py, conftest.py) and the folders named tests.
TEST_CODE_PATTERNS: tuple[str, ...] = (
    "tests/*",
    "*/tests/*",
    "test_*.py",
    "*_test.py",
    "conftest.py",
)


def path_matches(path: str, pattern: str) -> bool:
    """fnmatch on the project-relative path; a pattern without ``/`` also on the file name."""
    name = path.rsplit("/", 1)[-1]
    return fnmatch.fnmatchcase(path, pattern) or (
        "/" not in pattern and fnmatch.fnmatchcase(name, pattern)
    )


def is_test_code(path: str) -> bool:
    """Whether the project-relative ``path`` is test code by :data:`TEST_CODE_PATTERNS`."""
    return any(path_matches(path, pattern) for pattern in TEST_CODE_PATTERNS)
