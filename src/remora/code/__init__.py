"""The host code toolkit: precise work on Python source for tool scripts (``import remora_code``).

Each submodule registers its functions with :func:`remora.code.module.host_function`;
importing this package registers them all. See ``docs/agents.md`` for the list.
"""

from remora.code import (
    calls,
    completion,
    constructor,
    docstring_draft,
    docstring_text,
    docstrings,
    fixtures,
    lint,
    lint_units,
    structure,
    test_search,
    testcases,
    testing,
)
from remora.code.context import CodeContext
from remora.code.module import MODULE_NAME, build_module, checking_module, module_stubs

__all__ = [
    "MODULE_NAME",
    "CodeContext",
    "build_module",
    "calls",
    "checking_module",
    "completion",
    "constructor",
    "docstring_draft",
    "docstring_text",
    "docstrings",
    "fixtures",
    "lint",
    "lint_units",
    "module_stubs",
    "structure",
    "test_search",
    "testcases",
    "testing",
]
