"""A toolkit function as the scripts see it: its stub and summary, read from its signature.

A toolkit function is a plain Python function whose first parameter is the
:class:`~remora.code.context.CodeContext`. :func:`host_function` marks one where it is
defined and checks at import that its stub can be written (every parameter and the
return annotated, with builtins, the names of :data:`STUB_IMPORTS` and TypedDicts only);
:func:`describe` derives the typed stub a script is type-checked against (the context
parameter dropped), with the definition of every TypedDict it names, so the stub cannot
drift from the code that runs. :func:`module_stub` writes the ``.pyi`` text of a set of
functions. Which functions make up ``remora_code`` is listed in
:mod:`remora.code.toolkit`, not collected from imports: this module imports nothing of
the toolkit.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ForwardRef, TypeVar, is_typeddict

from remora import python_ast

__all__ = ["STUB_IMPORTS", "HostFunction", "describe", "host_function", "module_stub"]

F = TypeVar("F", bound=Callable[..., Any])

# The names of ``typing`` a stub may use; every other name in an annotation is a builtin
# class or a TypedDict, whose definition the stub carries (the checker knows nothing else).
_TYPING_NAMES = ("Any", "Literal", "NotRequired", "Required", "TypedDict")
STUB_IMPORTS = f"from typing import {', '.join(_TYPING_NAMES)}\n"


@dataclass(frozen=True)
class HostFunction:
    """One function of the module: its host implementation and the stub scripts see.

    ``types``: the TypedDicts its stub names, each as ``(name, class definition)``,
    those a definition names before it.
    """

    name: str
    impl: Callable[..., Any]
    stub: str
    summary: str
    types: tuple[tuple[str, str], ...] = ()

    @property
    def is_async(self) -> bool:
        return inspect.iscoroutinefunction(self.impl)


class _StubTypes:
    """The TypedDicts the annotations of one function name, rendered as class definitions.

    Annotations are read as written (``from __future__ import annotations``): a
    TypedDict's ``NotRequired[...]`` is only in its text on Python 3.11, whose
    ``__required_keys__`` miss it. Inherited fields are written into the class.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        self.rendered: dict[str, str] = {}
        self._classes: dict[str, type] = {}

    def text(self, annotation: object, namespace: Mapping[str, Any]) -> str:
        """``annotation`` as the stub writes it; each TypedDict it names is rendered."""
        if isinstance(annotation, ForwardRef):
            annotation = annotation.__forward_arg__
        if not isinstance(annotation, str):
            raise TypeError(
                f"{self.where}: annotation {annotation!r} is not text; "
                "write `from __future__ import annotations` in its module"
            )
        try:
            tree = python_ast.parse_expression(annotation)
        except SyntaxError as exc:
            raise TypeError(f"{self.where}: annotation {annotation!r} does not parse") from exc
        for item in ast.walk(tree):
            if isinstance(item, ast.Attribute):
                raise TypeError(
                    f"{self.where}: write {ast.unparse(item)!r} as a bare name: "
                    "the stub imports only typing's " + ", ".join(_TYPING_NAMES)
                )
            if isinstance(item, ast.Name) and item.id not in _TYPING_NAMES:
                self._name(item.id, namespace)
        return annotation

    def _name(self, name: str, namespace: Mapping[str, Any]) -> None:
        value = namespace.get(name, getattr(builtins, name, None))
        if is_typeddict(value):
            self._add(value)
        elif not (isinstance(value, type) and value.__module__ == "builtins"):
            raise TypeError(
                f"{self.where}: {name!r} in an annotation is neither a builtin class, "
                f"typing's {', '.join(_TYPING_NAMES)}, nor a TypedDict imported at run time"
            )

    def _add(self, cls: type) -> None:
        name = cls.__name__
        if name in self._classes:  # rendered, or being rendered (a TypedDict naming itself)
            if self._classes[name] is not cls:
                raise TypeError(
                    f"{self.where}: two TypedDicts are named {name} "
                    f"({self._classes[name].__module__} and {cls.__module__}); rename one"
                )
            return
        self._classes[name] = cls
        lines = [f"class {name}(TypedDict):"]
        optional: frozenset[str] = getattr(cls, "__optional_keys__", frozenset())
        for key, annotation in cls.__annotations__.items():
            if not key.isidentifier():
                raise TypeError(f"{self.where}: {name}'s key {key!r} is no identifier")
            module = getattr(annotation, "__forward_module__", None) or cls.__module__
            text = self.text(annotation, vars(sys.modules[module]))
            if key in optional and not text.startswith(("NotRequired[", "Required[")):
                text = f"NotRequired[{text}]"
            lines.append(f"    {key}: {text}")
        self.rendered[name] = "\n".join(lines if len(lines) > 1 else [*lines, "    pass"])


def _render_stub(name: str, impl: Callable[..., Any]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The function's stub line, and the TypedDicts it names."""
    signature = inspect.signature(impl)
    params = list(signature.parameters.values())
    if not params or params[0].name != "context":
        raise TypeError(f"host function {name}: the first parameter must be `context`")
    types = _StubTypes(f"host function {name}")
    namespace: Mapping[str, Any] = getattr(impl, "__globals__", {})
    parts: list[str] = []
    keyword_only_marked = False
    for param in params[1:]:
        if param.annotation is inspect.Parameter.empty:
            raise TypeError(f"host function {name}: parameter {param.name!r} needs an annotation")
        if param.kind is inspect.Parameter.KEYWORD_ONLY and not keyword_only_marked:
            parts.append("*")
            keyword_only_marked = True
        text = f"{param.name}: {types.text(param.annotation, namespace)}"
        if param.default is not inspect.Parameter.empty:
            text += f" = {param.default!r}"
        parts.append(text)
    if signature.return_annotation is inspect.Signature.empty:
        raise TypeError(f"host function {name}: the return type needs an annotation")
    returned = types.text(signature.return_annotation, namespace)
    prefix = "async def" if inspect.iscoroutinefunction(impl) else "def"
    stub = f"{prefix} {name}({', '.join(parts)}) -> {returned}: ..."
    return stub, tuple(types.rendered.items())


def describe(impl: Callable[..., Any]) -> HostFunction:
    """``impl`` as ``remora_code`` offers it (TypeError when its stub cannot be written)."""
    name = impl.__name__
    summary = (inspect.getdoc(impl) or "").split("\n\n", 1)[0].replace("\n", " ")
    stub, types = _render_stub(name, impl)
    return HostFunction(name, impl, stub, summary, types)


def module_stub(functions: Iterable[HostFunction]) -> str:
    """The ``.pyi`` text of a module of ``functions``: the typing import, every TypedDict
    they name once, then their stubs. ValueError when two TypedDicts share a name but not
    a definition, or one is named as a function is."""
    listed = list(functions)
    classes: dict[str, str] = {}
    for function in listed:
        for name, definition in function.types:
            if classes.setdefault(name, definition) != definition:
                raise ValueError(f"two TypedDicts named {name} differ (one in {function.name})")
    if clashes := sorted(set(classes) & {f.name for f in listed}):
        raise ValueError(f"these names are a TypedDict's and a function's: {clashes}")
    parts = [STUB_IMPORTS, *(f"{d}\n" for d in classes.values())]
    return "\n".join([*parts, *(f.stub for f in listed)]) + "\n"


def host_function(impl: F) -> F:
    """Mark ``impl`` (``def name(context: CodeContext, ...) -> T``) as a toolkit function:
    its stub is checked here, at import; :mod:`remora.code.toolkit` lists it."""
    describe(impl)
    return impl
