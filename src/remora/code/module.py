"""The ``remora_code`` external module: host functions registered once, bound per run.

A toolkit function is a plain Python function whose first parameter is the
:class:`~remora.code.context.CodeContext`; :func:`host_function` registers it
and derives its typed stub from its signature (the context parameter dropped),
so the stub a script is type-checked against cannot drift from the code that
runs. :func:`build_module` binds every registered function to one run's context
and returns the Monty ``ExternalModule`` a script reaches with
``import remora_code``. :func:`load_tool_script` loads a tool script checked
against the module's stubs (the sandbox's loader knows no host module itself).

Functions that start a subprocess (ruff, pytest) are ``async def`` on the host
and must be awaited in the script; the others are plain calls.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic_monty import ExternalModule

from remora.sandbox import Finding, HostModuleStubs, PymScript, check_pym, load_pym

if TYPE_CHECKING:
    from remora.code.context import CodeContext

__all__ = [
    "MODULE_NAME",
    "HostFunction",
    "build_module",
    "check_tool_script",
    "host_function",
    "load_tool_script",
    "module_stubs",
    "registered",
    "toolkit_stubs",
]

MODULE_NAME = "remora_code"

_STUB_HEADER = "from typing import Any, Literal\n"

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class HostFunction:
    """One function of the module: its host implementation and the stub scripts see."""

    name: str
    impl: Callable[..., Any]
    stub: str
    summary: str

    @property
    def is_async(self) -> bool:
        return inspect.iscoroutinefunction(self.impl)


_registry: dict[str, HostFunction] = {}


def _render_stub(name: str, impl: Callable[..., Any]) -> str:
    signature = inspect.signature(impl)
    params = list(signature.parameters.values())
    if not params or params[0].name != "context":
        raise TypeError(f"host function {name}: the first parameter must be `context`")
    parts: list[str] = []
    keyword_only_marked = False
    for param in params[1:]:
        if param.annotation is inspect.Parameter.empty:
            raise TypeError(f"host function {name}: parameter {param.name!r} needs an annotation")
        if param.kind is inspect.Parameter.KEYWORD_ONLY and not keyword_only_marked:
            parts.append("*")
            keyword_only_marked = True
        text = f"{param.name}: {param.annotation}"
        if param.default is not inspect.Parameter.empty:
            text += f" = {param.default!r}"
        parts.append(text)
    if signature.return_annotation is inspect.Signature.empty:
        raise TypeError(f"host function {name}: the return type needs an annotation")
    prefix = "async def" if inspect.iscoroutinefunction(impl) else "def"
    return f"{prefix} {name}({', '.join(parts)}) -> {signature.return_annotation}: ..."


def host_function(impl: F) -> F:
    """Register ``impl`` (``def name(context: CodeContext, ...) -> T``) in ``remora_code``."""
    name = impl.__name__
    if name in _registry and _registry[name].impl is not impl:
        raise ValueError(f"remora_code already has a function {name!r}")
    summary = (inspect.getdoc(impl) or "").split("\n\n", 1)[0].replace("\n", " ")
    _registry[name] = HostFunction(name, impl, _render_stub(name, impl), summary)
    return impl


def registered() -> list[HostFunction]:
    """Every toolkit function, by name (importing the package registers them all)."""
    import remora.code  # noqa: F401  (the package imports each toolkit module)

    return [_registry[name] for name in sorted(_registry)]


def module_stubs() -> str:
    """The module's ``.pyi`` text: what scripts are type-checked against."""
    return _STUB_HEADER + "\n" + "\n".join(f.stub for f in registered()) + "\n"


def build_module(context: CodeContext) -> ExternalModule:
    """``remora_code`` with every function bound to ``context``."""
    attrs = {f.name: functools.partial(f.impl, context) for f in registered()}
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
