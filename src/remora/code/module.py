"""The ``remora_code`` external module: the toolkit's functions, bound per run.

The module's functions are those :mod:`remora.code.toolkit` lists, each with the
typed stub :func:`remora.code.host_function.describe` derives from its signature
(the context parameter dropped; the TypedDicts it names defined beside it), so the
stub a script is type-checked against cannot drift from the code that runs.
:func:`build_module` binds every function to one run's context and returns the Monty
``ExternalModule`` a script reaches with ``import remora_code``. :func:`load_tool_script`
loads a tool script checked against the module's stubs (the sandbox's loader knows no
host module itself).

Functions that start a subprocess (ruff, pytest) are ``async def`` on the host
and must be awaited in the script; the others are plain calls.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic_monty import ExternalModule

from remora.code.host_function import module_stub
from remora.code.toolkit import toolkit_functions
from remora.sandbox import Finding, HostModuleStubs, PymScript, check_pym, load_pym

if TYPE_CHECKING:
    from remora.code.context import CodeContext

__all__ = [
    "MODULE_NAME",
    "build_module",
    "check_tool_script",
    "load_tool_script",
    "module_stubs",
    "toolkit_stubs",
]

MODULE_NAME = "remora_code"


def module_stubs() -> str:
    """The module's ``.pyi`` text: what scripts are type-checked against."""
    return module_stub(toolkit_functions())


def build_module(context: CodeContext) -> ExternalModule:
    """``remora_code`` with every function bound to ``context``."""
    attrs = {f.name: functools.partial(f.impl, context) for f in toolkit_functions()}
    return ExternalModule(attrs, stubs=module_stubs())


@functools.cache
def toolkit_stubs() -> HostModuleStubs:
    """``remora_code`` as the sandbox's checker sees it: the name and the stubs."""
    return HostModuleStubs(MODULE_NAME, module_stubs())


def load_tool_script(path: Path, *, extra_externals: Collection[str] = ()) -> PymScript:
    """A tool script, checked with ``remora_code`` importable (PymLoadError if broken)."""
    return load_pym(path, extra_externals=extra_externals, host_modules=[toolkit_stubs()])


def check_tool_script(path: Path, *, extra_externals: Collection[str] = ()) -> list[Finding]:
    """Every problem of one tool script (``remora agents check``), ``remora_code`` importable."""
    return check_pym(path, extra_externals=extra_externals, host_modules=[toolkit_stubs()])
