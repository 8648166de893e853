"""The host code toolkit: precise work on Python source for tool scripts (``import remora_code``).

The functions scripts may call are listed, by job, in :mod:`remora.code.toolkit`
(documented in ``docs/agents.md``); :mod:`remora.code.module` binds them to a run.
"""

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
    "check_tool_script",
    "load_tool_script",
    "module_stubs",
    "toolkit_stubs",
]
