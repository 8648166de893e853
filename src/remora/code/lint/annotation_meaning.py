"""The annotations whose meaning a fix changed: what a type checker accepts is not the same.

Some of ruff's safe fixes rewrite an annotation to another type: PYI032 turns
``def __eq__(self, other: Any)`` into ``other: object``, and a project's mypy then
rejects ``set(other)`` in the body (a blind maintainer rejected it: ``Any`` was a valid
annotation there, and the fix changed nothing at run time). Most annotation rewrites
only spell the same type another way: UP006's ``List[int]`` → ``list[int]``, UP007's
and UP045's ``Optional[X]`` → ``X | None``, UP035's ``typing.Callable`` imported from
``collections.abc``, UP037's quotes removed. The two are told apart from the fix's
own result, not from a list of rule codes: the file's annotations before and after,
read with :mod:`ast`, each reduced to what it means (:func:`_meaning`):

- a name is what the file's imports make of it (``import typing as t``: ``t.List``
  is ``typing.List``); a ``typing`` alias of a class (``List``, ``Callable``,
  ``Deque``, ``Text``) is that class, as ``typing`` itself says (``List.__origin__``
  is ``list``), and ``typing_extensions`` names are ``typing``'s;
- ``Optional[X]``, ``Union[X, Y]`` and ``X | Y`` are the set of their members, and
  ``Literal["a", "b"]`` the set of its values (the order of a union is not its meaning);
- a quoted annotation is the expression it quotes.

An annotation added or removed (a parameter, a return, a variable) changes what the
checker checks too. Annotations outside these places (``cast``'s first argument, a
``TypeVar`` bound) are not compared.
"""

from __future__ import annotations

import ast
import builtins
import functools
import typing
from collections import Counter
from collections.abc import Hashable, Iterator

from remora import python_ast

__all__ = ["changed_annotations"]

_TYPING = ("typing", "typing_extensions")
# (the scope's path, each definition numbered among its namesakes; kind; name)
Site = tuple[tuple[str, ...], str, str]


def _imports(tree: ast.Module) -> dict[str, str]:
    """Each name the file's imports bind (anywhere, ``if TYPE_CHECKING:`` too), as the
    dotted name it stands for."""
    names: dict[str, str] = {}
    for item in ast.walk(tree):
        if isinstance(item, ast.Import):
            for alias in item.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    top = alias.name.split(".", 1)[0]
                    names[top] = top
        elif isinstance(item, ast.ImportFrom) and item.module and not item.level:
            for alias in item.names:
                names[alias.asname or alias.name] = f"{item.module}.{alias.name}"
    return names


def _dotted(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        base = _dotted(expr.value)
        return None if base is None else f"{base}.{expr.attr}"
    return None


def _canonical_name(dotted: str, names: dict[str, str]) -> str:
    """What ``dotted`` names: imports resolved, ``typing``'s aliases of classes the class."""
    head, _, rest = dotted.partition(".")
    if head in names:
        full = names[head] + (f".{rest}" if rest else "")
    elif not rest and hasattr(builtins, head):
        return f"builtins.{head}"
    else:
        return f"local.{dotted}"
    module, _, attr = full.rpartition(".")
    if module in _TYPING:
        found = getattr(typing, attr, None)
        origin = getattr(found, "__origin__", None)
        if isinstance(origin, type):  # List, Dict, Callable, Deque, Pattern...
            return f"{origin.__module__}.{origin.__qualname__}"
        if isinstance(found, type) and found.__module__ != "typing":  # Text is str
            return f"{found.__module__}.{found.__qualname__}"
        return f"typing.{attr}"
    return full


def _arguments(slice_: ast.expr) -> list[ast.expr]:
    return list(slice_.elts) if isinstance(slice_, ast.Tuple) else [slice_]


def _members(meaning: Hashable) -> frozenset[Hashable]:
    if isinstance(meaning, tuple) and meaning and meaning[0] == "union":
        members: frozenset[Hashable] = meaning[1]
        return members
    return frozenset([meaning])


def _union(parts: list[Hashable]) -> Hashable:
    members = frozenset().union(*(_members(part) for part in parts))
    return next(iter(members)) if len(members) == 1 else ("union", members)


def _literal(value: ast.expr) -> Hashable:
    if isinstance(value, ast.Constant):
        return "builtins.None" if value.value is None else ("literal", repr(value.value))
    return ("expr", ast.dump(value))


def _meaning(expr: ast.expr, names: dict[str, str]) -> Hashable:
    """What an annotation means to a type checker, as a comparable value."""
    if isinstance(expr, ast.Constant):
        if isinstance(expr.value, str):  # a quoted annotation: the expression it quotes
            try:
                return _meaning(python_ast.parse_expression(expr.value.strip()), names)
            except SyntaxError:
                return ("string", expr.value)
        return "builtins.None" if expr.value is None else ("constant", repr(expr.value))
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        return _union([_meaning(expr.left, names), _meaning(expr.right, names)])
    if isinstance(expr, ast.Name | ast.Attribute) and (dotted := _dotted(expr)) is not None:
        return _canonical_name(dotted, names)
    if isinstance(expr, ast.Subscript):
        base = _meaning(expr.value, names)
        arguments = _arguments(expr.slice)
        if base == "typing.Optional":
            return _union([_meaning(arguments[0], names), "builtins.None"])
        if base == "typing.Union":
            return _union([_meaning(argument, names) for argument in arguments])
        if base == "typing.Literal":
            return _union([_literal(argument) for argument in arguments])
        if base == "typing.Annotated":
            metadata = tuple(ast.dump(argument) for argument in arguments[1:])
            return ("annotated", _meaning(arguments[0], names), metadata)
        return ("generic", base, tuple(_meaning(argument, names) for argument in arguments))
    if isinstance(expr, ast.List | ast.Tuple):  # Callable's parameters, a tuple of types
        kind = "list" if isinstance(expr, ast.List) else "tuple"
        return (kind, tuple(_meaning(item, names) for item in expr.elts))
    return ("expr", ast.dump(expr))


def _sites(body: list[ast.stmt], scope: tuple[str, ...]) -> Iterator[tuple[Site, ast.expr]]:
    """Every annotation of the statements, each under the place it annotates: a scope's
    path (each definition numbered among its namesakes: ``@overload``s), the kind
    (``parameter``, ``return``, ``variable``) and the name."""
    seen: Counter[str] = Counter()
    variables: Counter[str] = Counter()
    for statement in body:
        for item in _statements(statement):
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                seen[item.name] += 1
                inner = (*scope, f"{item.name}#{seen[item.name]}")
                if not isinstance(item, ast.ClassDef):
                    arguments = item.args
                    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                    every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
                    for argument in every:
                        if argument.annotation is not None:
                            yield (inner, "parameter", argument.arg), argument.annotation
                    if item.returns is not None:
                        yield (inner, "return", ""), item.returns
                yield from _sites(item.body, inner)
            elif isinstance(item, ast.AnnAssign):
                target = ast.unparse(item.target)
                variables[target] += 1
                yield (scope, "variable", f"{target}#{variables[target]}"), item.annotation


def _statements(statement: ast.stmt) -> Iterator[ast.stmt]:
    """The statement, and those nested in its blocks (``if``, ``try``, ``with``...) that
    are not in a definition of their own."""
    yield statement
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return
    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
        for child in getattr(statement, field, None) or []:
            if isinstance(child, ast.stmt):
                yield from _statements(child)
            else:  # an except handler, a match case: statements of their own
                for inner in getattr(child, "body", []):
                    yield from _statements(inner)


# The text before a fix is the file as every node of it reads it: read once (the dicts are
# shared between callers, never changed).
@functools.lru_cache(maxsize=16)
def _annotations(text: str) -> dict[Site, tuple[Hashable, str]]:
    tree = python_ast.parse(text)
    names = _imports(tree)
    return {
        site: (_meaning(expr, names), ast.unparse(expr)) for site, expr in _sites(tree.body, ())
    }


def _place(site: Site) -> str:
    """``A.__eq__ parameter other`` for a site."""
    scope, kind, name = site
    where = ".".join(part.rsplit("#", 1)[0] for part in scope) or "the module"
    return " ".join(part for part in (where, kind, name.rsplit("#", 1)[0]) if part)


def changed_annotations(before: str, after: str) -> list[str]:
    """The annotations whose meaning ``after`` changed from ``before``'s, each as
    ``"A.__eq__ parameter other: Any -> object"`` (``(none)`` where one was added or
    removed); empty when every annotation means what it meant. Both texts must parse."""
    old, new = _annotations(before), _annotations(after)
    changed = []
    for site in sorted(set(old) | set(new)):
        was, now = old.get(site), new.get(site)
        if was is not None and now is not None and was[0] == now[0]:
            continue
        changed.append(
            f"{_place(site)}: {was[1] if was else '(none)'} -> {now[1] if now else '(none)'}"
        )
    return changed
