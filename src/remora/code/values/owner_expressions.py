"""Instances the project builds with an expression, not a bare constructor call.

Some classes are never used as ``Cls()`` alone: a query object is built as
``Query().field`` or ``Query()['field']``, or by a module function that returns one
(``def where(key): return Query()[key]``). A bare instance of such a class fails every
method at a shared precondition (:mod:`remora.code.probes.instance_guards`); built the
project's way it runs the method's own logic.

:func:`owner_expressions` finds, with :mod:`ast`, the expressions the project itself
writes: a call of a module-level function of the class's module whose ``return`` is an
instance of the class (a constructor call of it, or an attribute, subscript or method
call on one), with the literal arguments the project's code, tests and docs call it
with; then an attribute or a subscript with a literal key on a fresh, argument-less
instance (``Query().name``) that the project's own Python files or doc examples write.

An expression is a value (``EXPRESSION_KEY``) the probe builds
(:mod:`remora.code.probes.programs.call_arguments`) and a test writes
(:mod:`remora.code.values.call_render`): ``{"__expression__": {"call": NAME, "args":
[...], "keywords": {...}, "steps": [["attribute", NAME] | ["item", VALUE], ...]}}``,
``NAME`` a name of the class's module. The probe checks that it gives an instance of
the class.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.parsing import ast_tree
from remora.code.values.project_values import project_calls, python_files
from remora.code.values.sourced_strings import examples, project_documents

__all__ = ["EXPRESSION_KEY", "class_texts", "is_expression", "owner_expressions", "text_sources"]

EXPRESSION_KEY = "__expression__"
# Each one is a probe round of the method's failed calls: the first few the project writes.
MAX_OWNER_EXPRESSIONS = 2


def is_expression(value: Any) -> bool:
    """Whether ``value`` is an owner expression (:data:`EXPRESSION_KEY`)."""
    return isinstance(value, dict) and set(value) == {EXPRESSION_KEY}


def _expression(call: str, args: list[Any], keywords: dict[str, Any], steps: list[Any]) -> Any:
    return {EXPRESSION_KEY: {"call": call, "args": args, "keywords": keywords, "steps": steps}}


def _fresh(node: ast.expr, class_name: str) -> bool:
    """``Cls()``: the class called with no arguments."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == class_name
        and not node.args
        and not node.keywords
    )


def _builds(node: ast.expr, class_name: str) -> bool:
    """Whether ``node`` is a call of the class, or an attribute, subscript or method call
    whose innermost subject is one (``Cls()[key]``, ``Cls(a).b``)."""
    while isinstance(node, ast.Attribute | ast.Subscript) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    ):
        node = node.func if isinstance(node, ast.Call) else node.value
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == class_name
    )


def _own_returns(function: ast.FunctionDef) -> Iterator[ast.Return]:
    """The function's ``return`` statements, not those of functions or classes inside it."""
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            yield node
        elif not isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
        ):
            stack.extend(ast.iter_child_nodes(node))


def returning_functions(tree: ast.Module, class_name: str) -> list[str]:
    """The public module-level functions whose every value ``return`` builds the class."""
    found: list[str] = []
    for stmt in tree.body:
        if not isinstance(stmt, ast.FunctionDef) or stmt.name.startswith("_"):
            continue
        values = [r.value for r in _own_returns(stmt)]
        if values and all(v is not None and _builds(v, class_name) for v in values):
            found.append(stmt.name)
    return found


def _literal_call(text: str) -> tuple[list[Any], dict[str, Any]] | None:
    """(positional, keyword) values of call argument text when each is a literal."""
    try:
        call = python_ast.parse_expression(f"f({text})")
    except SyntaxError:
        return None
    assert isinstance(call, ast.Call)  # "f(...)" parses to nothing else
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    args = [_literal(a) for a in call.args]
    keywords = {str(k.arg): _literal(k.value) for k in call.keywords}
    if any(a is None for a in args) or any(v is None for v in keywords.values()):
        return None  # not each a literal (``where(...)``: an ellipsis is no argument)
    return [a[0] for a in args if a], {k: v[0] for k, v in keywords.items() if v}


def _fresh_names(tree: ast.AST, class_name: str) -> set[str]:
    """The names a source binds to a fresh instance (``User = Query()``)."""
    return {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and _fresh(node.value, class_name)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def chains_in(parts: Sequence[str], class_name: str) -> list[list[Any]]:
    """The steps of each attribute read or literal subscript the sources write on a fresh
    instance (``Cls().name``, ``Cls()['name']``, or a name bound to one: ``User = Cls()``
    then ``User.name``), never a method it calls (``Cls().m()``). ``parts``: one text's
    sources in order (a document's examples), a name bound in one read in the next."""
    found: list[list[Any]] = []
    bound: set[str] = set()
    for part in parts:
        tree = ast_tree(part)
        if tree is None:
            continue
        bound |= _fresh_names(tree, class_name)
        called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute | ast.Subscript) or id(node) in called:
                continue
            subject = node.value
            if not (
                _fresh(subject, class_name)
                or (isinstance(subject, ast.Name) and subject.id in bound)
            ):
                continue
            step: list[Any] | None = None
            if isinstance(node, ast.Attribute):
                step = ["attribute", node.attr]
            elif (key := _literal(node.slice)) is not None:
                step = ["item", key[0]]
            if step is not None and isinstance(node.ctx, ast.Load) and [step] not in found:
                found.append([step])
    return found


def _literal(node: ast.expr) -> tuple[Any] | None:
    """(the value,) of a literal a JSON request can carry; None for another expression."""
    try:
        value = python_ast.literal_eval(node)
        json.dumps(value)
    except (ValueError, TypeError, SyntaxError):
        return None
    return (value,)


def text_sources(text: str, python: bool) -> list[str]:
    """The sources of a text: a Python file and its docstrings' examples, or a document's
    examples; an example that is a session (``>>>`` lines in a code block) as its lines."""
    found = [text] if python else []
    docs = [text]
    if python:
        tree = ast_tree(text)
        docs = [_docstring(n) for n in ast.walk(tree)] if tree is not None else []
    for doc in docs:
        for example in examples(doc):
            found += [example] if ast_tree(example) is not None else list(examples(example))
    return found


def _docstring(node: ast.AST) -> str:
    if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return ast.get_docstring(node) or ""
    return ""


def class_texts(context: CodeContext, class_name: str) -> Iterable[tuple[str, bool]]:
    """The project's Python files, then its documents, that name the class: each text with
    whether it is Python (its sources in order: :func:`text_sources`)."""
    for path in python_files(context):
        text = context.read_text(path)
        if class_name in text:
            yield text, True
    for text in project_documents(context):
        if class_name in text:
            yield text, False


def _sources(context: CodeContext, class_name: str) -> Iterable[list[str]]:
    """Each text of :func:`class_texts` as its sources in order (:func:`text_sources`)."""
    for text, python in class_texts(context, class_name):
        yield text_sources(text, python)


def owner_expressions(context: CodeContext, owner: str) -> list[Any]:
    """The expressions (:data:`EXPRESSION_KEY`) the project writes to build an instance of
    its top-level class ``owner`` of the run's module: its module functions' calls first,
    then chains on a fresh instance; at most :data:`MAX_OWNER_EXPRESSIONS`."""
    if "." in owner:
        return []

    def find() -> list[Any]:
        tree = ast_tree(context.node_file_text())
        if tree is None:
            return []
        found: list[Any] = []
        for function in returning_functions(tree, owner):
            for text in project_calls(context, function):
                literal = _literal_call(text)
                if literal is not None:
                    found.append(_expression(function, *literal, []))
                    break  # the project's first literal call of it
        for source in _sources(context, owner):
            if len(found) >= MAX_OWNER_EXPRESSIONS:
                break
            for steps in chains_in(source, owner):
                expression = _expression(owner, [], {}, steps)
                if expression not in found:
                    found.append(expression)
        return found[:MAX_OWNER_EXPRESSIONS]

    return list(context.kept(("owner expressions", owner), find))
