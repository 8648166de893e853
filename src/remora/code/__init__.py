"""The host code toolkit: precise work on Python source for tool scripts (``import remora_code``).

Each submodule registers its functions with :func:`remora.code.module.host_function`;
importing this package registers them all. See ``docs/agents.md`` for the list.
"""

from remora.code import (
    calls,
    completion,
    constructor,
    docstring,
    fixtures,
    lint,
    node_structure,
    pytest_files,
    sample_tests,
    test_search,
    written_tests,
)
from remora.code.context import CodeContext
from remora.code.module import (
    MODULE_NAME,
    build_module,
    check_tool_script,
    load_tool_script,
    module_stubs,
    toolkit_stubs,
)

__all__ = [
    "MODULE_NAME",
    "CodeContext",
    "build_module",
    "calls",
    "check_tool_script",
    "completion",
    "constructor",
    "docstring",
    "fixtures",
    "lint",
    "load_tool_script",
    "module_stubs",
    "node_structure",
    "pytest_files",
    "sample_tests",
    "test_search",
    "toolkit_stubs",
    "written_tests",
]
