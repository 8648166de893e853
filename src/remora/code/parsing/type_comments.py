"""A signature annotated in PEP 484 type comments, read as the annotations it stands for.

Code that still runs on Python 2 annotates in comments: ``def parse_host(host):`` then
``# type: (Text) -> Tuple[Optional[int], Text]``, or one comment per parameter
(``host,  # type: Text``). mypy reads them as annotations; a signature read from the
code alone saw none, so the value search gave ``parse_host(None)``, "None is outside the
Text type the function declares" (hyperlink's blind reviewer). Python's own parser puts
each comment on its node (:func:`remora.python_ast.parse` with ``type_comments``); the
signature comment is parsed again as the ``(...) -> ...`` it is. A method's comment may
leave out ``self``/``cls`` (PEP 484): one type fewer than the parameters of a function
defined in a class body is read so. A comment that does not parse, or whose types do not
match the parameters, annotates nothing.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

from remora import python_ast

__all__ = ["RETURNS", "comment_annotations"]

# The key of the return annotation among the parameters' (no parameter is named so).
RETURNS = "->"
Function = ast.FunctionDef | ast.AsyncFunctionDef


def _parameters(function: Function) -> list[ast.arg]:
    args = function.args
    found = [*args.posonlyargs, *args.args]
    found += [args.vararg] if args.vararg is not None else []
    found += args.kwonlyargs
    return found + ([args.kwarg] if args.kwarg is not None else [])


def _functions(tree: ast.AST, in_class: bool = False) -> Iterator[tuple[Function, bool]]:
    """Every function of the tree, with whether a class body defines it."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, Function):
            yield child, in_class
        yield from _functions(child, isinstance(child, ast.ClassDef))


def _annotations(function: Function, method: bool) -> dict[str, str]:
    parameters = _parameters(function)
    found = {p.arg: p.type_comment for p in parameters if p.type_comment}
    if function.type_comment:
        try:
            signature = python_ast.parse_signature_comment(function.type_comment)
        except SyntaxError:
            return {}
        types = signature.argtypes
        if method and len(types) == len(parameters) - 1:
            parameters = parameters[1:]
        per_parameter = len(types) == 1 and isinstance(types[0], ast.Constant)  # ``(...)``
        if len(types) == len(parameters) and not per_parameter:
            found |= {p.arg: ast.unparse(t) for p, t in zip(parameters, types, strict=True)}
        found[RETURNS] = ast.unparse(signature.returns)
    return found


@functools.lru_cache(maxsize=32)
def _by_line(text: str) -> dict[int, dict[str, str]]:
    try:
        tree = python_ast.parse(text, type_comments=True)
    except (SyntaxError, ValueError):
        return {}
    return {
        function.lineno: found
        for function, method in _functions(tree)
        if (found := _annotations(function, method))
    }


def comment_annotations(text: str, def_line: int) -> dict[str, str]:
    """The annotations type comments give the function whose ``def`` is on ``def_line``
    of ``text``: parameter name -> annotation text, the return's under :data:`RETURNS`;
    empty where it has none."""
    return dict(_by_line(text).get(def_line, {}))
