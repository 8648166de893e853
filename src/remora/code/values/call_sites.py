"""The project's own calls of a name, as argument texts: how its code, tests and examples
call a function or build a class.

:func:`call_site_arguments` reads a module's calls whose arguments are all literals,
arithmetic on literals, or constructions of classes from such values (how the project
builds an argument); :func:`literal_arguments` the literal ones of any call, the others
whatever they are (``self.hour(parts[2], "Hour")`` passes ``"Hour"`` for the second
parameter); :func:`doctest_calls` the ``>>>`` examples of a docstring. Read
with :mod:`ast`; the texts are read back against the node's parameters by
:func:`remora.code.values.call_text.arguments_from_text`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from remora import python_ast
from remora.code.values.annotations import head_name
from remora.code.values.input_sources import fold_constant
from remora.code.values.parameter_reads import plain_name
from remora.code.values.unspelled_values import BUILTIN_TYPES

__all__ = ["call_site_arguments", "doctest_calls", "literal_arguments"]


def _call_arguments_text(
    call: ast.Call, text: str, bound: dict[str, ast.expr] | None = None
) -> str | None:
    bound = bound or {}
    parts = [_argument_text(bound.get(plain_name(a), a), text) for a in call.args]
    parts += [
        None
        if (value := _argument_text(bound.get(plain_name(k.value), k.value), text)) is None
        else f"{k.arg}={value}"
        for k in call.keywords
        if k.arg is not None
    ]
    if any(p is None for p in parts) or any(k.arg is None for k in call.keywords):
        return None
    return ", ".join(p for p in parts if p is not None)


def _argument_text(node: ast.expr, text: str) -> str | None:
    """An argument's source; arithmetic on numbers (``10**34 * 3``) as its value."""
    if isinstance(node, ast.BinOp | ast.UnaryOp):
        known, value = fold_constant(node, {})
        if known and isinstance(value, int | float) and not isinstance(value, bool):
            return repr(value)
    return ast.get_source_segment(text, node)


def _calls_to(tree: ast.AST, name: str) -> Iterable[ast.Call]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (isinstance(func, ast.Name) and func.id == name) or (
            isinstance(func, ast.Attribute) and func.attr == name
        ):
            yield node


def doctest_calls(docstring: str, name: str) -> list[str]:
    """Argument texts of ``>>> name(...)`` examples in a docstring."""
    found: list[str] = []
    for line in docstring.splitlines():
        stripped = line.strip()
        if not stripped.startswith(">>> "):
            continue
        source = stripped[4:]
        try:
            tree = python_ast.parse(source)
        except SyntaxError:
            continue
        found += [t for c in _calls_to(tree, name) if (t := _call_arguments_text(c, source))]
    return found


def _bind(statement: ast.stmt, bound: dict[str, ast.expr]) -> None:
    """What ``statement`` binds, into ``bound``: a name assigned a value :func:`_buildable`
    takes is that value from here on (``a = ['2 ft 7 in', '1 ft 5 in']`` before
    ``natsorted(a)`` in an example); any other name it binds is no longer known."""
    targets = statement.targets if isinstance(statement, ast.Assign) else []
    if isinstance(statement, ast.AnnAssign):  # ``STRATEGIES: list[str] = [...]``
        targets = [statement.target]
    value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
    if (
        len(targets) == 1
        and isinstance(target := targets[0], ast.Name)
        and value is not None
        and _buildable(value)
    ):
        bound[target.id] = value
        return
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.pop(node.id, None)


def call_site_arguments(text: str, name: str, limit: int = 8) -> list[str]:
    """Argument texts of the calls of ``name`` in a module whose arguments are all literals
    or constructions of classes from literals (:func:`_buildable`), a name read as the
    value of that kind the text bound it to last at its top level (:func:`_bind`)."""
    try:
        tree = python_ast.parse(text)
    except SyntaxError:
        return []
    found: list[str] = []
    bound: dict[str, ast.expr] = {}
    for statement in tree.body:  # in order: a name is read as what it was bound to last
        for call in _calls_to(statement, name):
            values = [*call.args, *(k.value for k in call.keywords)]
            values = [bound.get(plain_name(v), v) for v in values]
            if any(isinstance(a, ast.Starred) for a in call.args) or any(
                k.arg is None for k in call.keywords
            ):
                continue
            if values and all(_buildable(v) for v in values):
                arguments = _call_arguments_text(call, text, bound)
                if arguments is not None and arguments not in found:
                    found.append(arguments)
            if len(found) >= limit:
                return found
        _bind(statement, bound)
    return found


def literal_arguments(
    text: str, name: str, owner: str | None = None
) -> list[tuple[int | str, object]]:
    """The literal arguments of the calls of ``name`` in a module, whatever the others are:
    ``(position, value)`` for a positional one, counted among the parameters a caller
    passes (``self.hour(parts[2], "Hour")`` gives ``(1, "Hour")``: ``prefix`` of ``hour(self,
    expr, prefix)``), ``(keyword, value)`` for a keyword one. A call that spreads ``*args``
    says nothing of positions after it. Only calls that are surely of this code: a
    function's by its bare name (not ``cache.get(...)`` for a ``get``), a method's (of the
    class ``owner``) on ``self``, ``cls``, the class itself, or a name the module binds to
    one of its instances (:func:`_instances_of`)."""
    try:
        tree = python_ast.parse(text)
    except SyntaxError:
        return []
    found: list[tuple[int | str, object]] = []
    receivers = {"self", "cls", owner, *_instances_of(tree, owner)} if owner else set()
    for call in _calls_to(tree, name):
        func = call.func
        if owner is None and not isinstance(func, ast.Name):
            continue
        if owner is not None and not (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in receivers
        ):
            continue
        passed: list[tuple[int | str, ast.expr]] = []
        for position, argument in enumerate(call.args):
            if isinstance(argument, ast.Starred):
                break
            passed.append((position, argument))
        passed += [(k.arg, k.value) for k in call.keywords if k.arg is not None]
        for where, argument in passed:
            known, value = _literal_value(argument)
            if known:
                found.append((where, value))
    return found


def _instances_of(tree: ast.AST, owner: str) -> set[str]:
    """The names the module binds to an instance of class ``owner``: a parameter annotated
    with it (``bus: Bus``, ``bus: "Bus"``) or a name assigned its construction (``bus =
    Bus()``)."""
    short = owner.rsplit(".", 1)[-1]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            annotation = node.annotation
            spelled = annotation.value if isinstance(annotation, ast.Constant) else None
            if spelled == short or head_name(annotation) == short:
                names.add(node.arg)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            built = head_name(node.value.func) == short
            names |= {t.id for t in node.targets if isinstance(t, ast.Name) and built}
    return names


def _buildable(node: ast.expr) -> bool:
    """A literal, arithmetic on literals, a builtin class, or a class's construction from
    such values (``Item("a", 2)``, ``[Item("a", 2)]``): how the project builds an argument. Whether
    the class is one of the project's is decided where the text is read back
    (:func:`remora.code.values.call_text.arguments_from_text`)."""
    if _literal(node) or fold_constant(node, {})[0]:
        return True
    if isinstance(node, ast.Name):  # a builtin class as a value: ``(list, "append")``
        return node.id in BUILTIN_TYPES
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(_buildable(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _buildable(k) for k in node.keys) and all(
            _buildable(v) for v in node.values
        )
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        return (
            name[:1].isupper()
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and all(k.arg is not None for k in node.keywords)
            and all(_buildable(v) for v in [*node.args, *(k.value for k in node.keywords)])
        )
    return False


def _literal(node: ast.expr) -> bool:
    return _literal_value(node)[0]


def _literal_value(node: ast.expr) -> tuple[bool, object]:
    """(whether ``node`` is a literal, its value), read once."""
    try:
        return True, python_ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None
