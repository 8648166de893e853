"""The ``.pym`` tool sandbox on Monty: loader and checker, runtime, externals.

::

    script = load_pym(Path("tools/read.pym"))           # PymLoadError (AGENT_001) if broken
    async with SandboxRuntime(config.sandbox) as runtime:
        externals = build_externals(workspace, node, config.sandbox)
        envelope = await runtime.run(script, {"path": "a.py"}, externals)
"""

from remora.sandbox.declarations import ExternalDecl, Finding, HostModuleStubs, PymInput
from remora.sandbox.envelope import ERROR_CODES, ExternalRefused, ToolEnvelope, to_jsonable
from remora.sandbox.externals import build_externals
from remora.sandbox.limits import PRESETS, LimitPreset, resolve_limits
from remora.sandbox.runtime import SandboxRuntime, run_one, validate_inputs
from remora.sandbox.script_loader import (
    PymLoadError,
    PymScript,
    check_pym,
    clear_cache,
    iter_pym_files,
    load_pym,
)
from remora.sandbox.signatures import EXTERNALS, ExternalSpec

__all__ = [
    "ERROR_CODES",
    "EXTERNALS",
    "PRESETS",
    "ExternalDecl",
    "ExternalRefused",
    "ExternalSpec",
    "Finding",
    "HostModuleStubs",
    "LimitPreset",
    "PymInput",
    "PymLoadError",
    "PymScript",
    "SandboxRuntime",
    "ToolEnvelope",
    "build_externals",
    "check_pym",
    "clear_cache",
    "iter_pym_files",
    "load_pym",
    "resolve_limits",
    "run_one",
    "to_jsonable",
    "validate_inputs",
]
