"""A toolkit function as the scripts see it: its stub and summary, read from its signature.

A toolkit function is a plain Python function whose first parameter is the
:class:`~remora.code.context.CodeContext`. :func:`host_function` marks one where it is
defined and checks at import that its stub can be written (every parameter and the
return annotated); :func:`describe` derives the typed stub a script is type-checked
against (the context parameter dropped), so the stub cannot drift from the code that
runs. Which functions make up ``remora_code`` is listed in :mod:`remora.code.toolkit`,
not collected from imports: this module imports nothing of the toolkit.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["HostFunction", "describe", "host_function"]

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


def describe(impl: Callable[..., Any]) -> HostFunction:
    """``impl`` as ``remora_code`` offers it (TypeError when its stub cannot be written)."""
    name = impl.__name__
    summary = (inspect.getdoc(impl) or "").split("\n\n", 1)[0].replace("\n", " ")
    return HostFunction(name, impl, _render_stub(name, impl), summary)


def host_function(impl: F) -> F:
    """Mark ``impl`` (``def name(context: CodeContext, ...) -> T``) as a toolkit function:
    its stub is checked here, at import; :mod:`remora.code.toolkit` lists it."""
    describe(impl)
    return impl
