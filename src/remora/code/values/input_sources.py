"""More places an argument worth trying comes from, read from the syntax tree.

:mod:`remora.code.values.input_search` reads the comparisons a function makes with its
parameters; this module widens what counts. :func:`module_constants` resolves
the module's own constants (``MAX = 5000``, ``PATTERN = re.compile("...")``) so
``n > MAX`` is a boundary like ``n > 5000``. :func:`derived_locals` follows
locals computed from one parameter (``size = abs(value)``), so ``size == 1``
says ``value`` is worth trying at 1.
Nothing of the project runs here.
"""

from __future__ import annotations

import ast
import math
import operator
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from remora import python_ast
from remora.code.values.parameters import parameter_names
from remora.code.values.regex_samples import Pattern, regex_flags

__all__ = [
    "Scope",
    "bound_once",
    "conversion_kinds",
    "derived_locals",
    "fold_constant",
    "module_constants",
    "reads_number",
]

_MAX_BITS = 4096
_MAX_MEMBERS = 6  # of a module's collection: each member costs a call in the probe
_MAX_EXPRESSION = 400
_ARITHMETIC: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Pow: operator.pow,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_CONVERSIONS = ("int", "float", "str", "bool", "list", "dict")


def _compiled(node: ast.expr, constants: Mapping[str, Any]) -> Pattern | None:
    """``re.compile("literal", flags)`` as a :class:`Pattern`."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "re"
        and node.func.attr == "compile"
        and node.args
    ):
        return None
    known, text = fold_constant(node.args[0], constants)
    flags_node = node.args[1] if len(node.args) > 1 else None
    flags_node = next((k.value for k in node.keywords if k.arg == "flags"), flags_node)
    flags = 0 if flags_node is None else regex_flags(flags_node)
    return Pattern(text, flags) if known and isinstance(text, str) and flags is not None else None


def fold_constant(node: ast.expr, constants: Mapping[str, Any]) -> tuple[bool, Any]:
    """``(True, value)`` for a literal, a name in ``constants``, or arithmetic on those."""
    if isinstance(node, ast.Name):
        return (True, constants[node.id]) if node.id in constants else (False, None)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        known, value = fold_constant(node.operand, constants)
        number = known and isinstance(value, int | float) and not isinstance(value, bool)
        if not number:
            return False, None
        return True, -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        return _fold_arithmetic(node, constants)
    try:
        value = python_ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None
    return True, value


def _fold_arithmetic(node: ast.BinOp, constants: Mapping[str, Any]) -> tuple[bool, Any]:
    (left_known, left), (right_known, right) = (
        fold_constant(node.left, constants),
        fold_constant(node.right, constants),
    )
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (left, right))
    if not (left_known and right_known and numbers):
        return False, None
    if isinstance(node.op, ast.Pow) and not (
        isinstance(right, int) and 0 <= right <= 256 and abs(left) < 2**64
    ):
        return False, None  # a power this large is no argument anyone writes
    operation = _ARITHMETIC.get(type(node.op))
    if operation is None:
        return False, None
    try:
        value = operation(left, right)
    except (ZeroDivisionError, OverflowError):
        return False, None
    too_big = isinstance(value, int) and value.bit_length() > _MAX_BITS
    if too_big or (isinstance(value, float) and not math.isfinite(value)):
        return False, None
    return True, value


def top_level_bindings(module: ast.Module) -> list[tuple[str, ast.expr]]:
    """``(name, value)`` of each assignment of one name at the module's top level, in order
    (``X = …``, ``X: T = …``); a name bound twice appears twice."""
    bindings: list[tuple[str, ast.expr]] = []
    for statement in module.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            continue
        if isinstance(target, ast.Name):
            bindings.append((target.id, value))
    return bindings


def module_constants(module: ast.Module) -> dict[str, Any]:
    """Names the module binds once, at its top level, to a constant or a compiled pattern."""
    bindings = top_level_bindings(module)
    bound = Counter(name for name, _ in bindings)
    found: dict[str, Any] = {}
    for name, value in bindings:
        pattern = _compiled(value, found)
        known, constant = (True, pattern) if pattern else fold_constant(value, found)
        if known:
            found[name] = constant
    return {name: value for name, value in found.items() if bound[name] == 1}


def _bound_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    return {
        n.id
        for n in ast.walk(function)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)
    }


def local_constants(
    function: ast.FunctionDef | ast.AsyncFunctionDef, constants: Mapping[str, Any]
) -> dict[str, Any]:
    """The module's constants the function does not shadow (a parameter or a local)."""
    shadowed = _bound_names(function) | parameter_names(function)
    return {name: value for name, value in constants.items() if name not in shadowed}


@dataclass(frozen=True)
class Scope:
    """What a test in the function can be about: its parameters (and their types where
    known), the locals computed from one of them, and the module constants it does not
    shadow."""

    params: set[str]
    derived: Mapping[str, ast.expr]
    constants: Mapping[str, Any]
    kinds: Mapping[str, str]  # the builtin type each parameter is known to have

    def constant(self, node: ast.expr) -> tuple[bool, Any]:
        known, value = fold_constant(node, self.constants)
        if not known or (isinstance(value, float) and not math.isfinite(value)):
            return False, None
        return isinstance(value, int | float | str | bool | type(None)), value

    def members(self, node: ast.expr) -> list[Any]:
        """The constant members of ``(1, 2)`` or of a module constant bound to a collection
        (the first few: a word list of hundreds would crowd out every other candidate)."""
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return [v for ok, v in map(self.constant, node.elts) if ok]
        known, value = fold_constant(node, self.constants)
        scalar = (int, float, str, bool)
        if known and isinstance(value, tuple | list | set | frozenset):
            ordered = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
            return [v for v in ordered if isinstance(v, scalar)][:_MAX_MEMBERS]
        return []

    def parameter_in(self, node: ast.expr) -> str | None:
        """The one parameter ``node`` is an expression of (``n``, ``n % 100``, ``len(s)``,
        a local computed from ``n``)."""
        names = {
            n.id
            for n in ast.walk(substitute(node, self.derived))
            if isinstance(n, ast.Name) and n.id in self.params
        }
        return names.pop() if len(names) == 1 else None


def reads_number(node: ast.expr) -> bool:
    """``int(...)`` or ``float(...)`` in it: the text parameter is compared as a number."""
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("int", "float")
        for n in ast.walk(node)
    )


def conversion_kinds(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
    """``str(p)``, ``int(p)``...: the type the code turns a parameter into, for its falsy
    value where no annotation or default says the type."""
    params = parameter_names(function)
    kinds: dict[str, str] = {}
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _CONVERSIONS
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in params
        ):
            kinds.setdefault(node.args[0].id, node.func.id)
    return kinds


def bound_once(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.expr]:
    """The names the function binds exactly once, each by a plain ``name = value``, with
    that value: a local a test of which is a test of what it was bound to."""
    stores = Counter(
        n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    )
    return {
        node.targets[0].id: node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and stores[node.targets[0].id] == 1
    }


def derived_locals(
    function: ast.FunctionDef | ast.AsyncFunctionDef, params: set[str]
) -> dict[str, ast.expr]:
    """Locals computed from one parameter, each with its expression in that parameter.

    ``b = float(value)`` and ``size = abs(b)`` give ``size`` -> ``abs(float(value))``.
    A local bound from two parameters, from different ones at different places, or by a
    loop or an unpacking is left out; a parameter bound again stays the parameter, and a
    local bound again from no parameter at all (``name = name_of.strip()`` and, for
    ``"auto"``, ``name = system()``) stays its first binding: values of the parameter
    still reach the comparisons after it.
    """
    found: dict[str, ast.expr] = {}
    origin: dict[str, str] = {}
    refused: set[str] = set()
    assignments: list[tuple[str, ast.expr]] = []
    targets: list[ast.Name] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target: ast.expr = node.targets[0]
            value = node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            assignments.append((target.id, value))
            targets.append(target)
    assignments.sort(key=lambda pair: (pair[1].lineno, pair[1].col_offset))
    plain = {id(t) for t in targets}
    refused |= {  # bound by a loop, an unpacking, ``+=``, ``with ... as``
        n.id
        for n in ast.walk(function)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and id(n) not in plain
    }
    for name, value in assignments:
        if name in params:
            continue
        expanded = substitute(value, found)
        try:
            written = ast.unparse(expanded)
        except ValueError:  # ``f"{v.replace("'", "\\'")}"``: Python 3.11 cannot write it back
            refused.add(name)
            continue
        if len(written) > _MAX_EXPRESSION:  # ``y = x + x`` doubles each time
            refused.add(name)
            continue
        sources = {n.id for n in ast.walk(expanded) if isinstance(n, ast.Name) and n.id in params}
        if not sources and name in found:
            continue  # bound again from no parameter (``s = system()`` for "auto"): the
            # parameter's values still reach what the first binding feeds
        if len(sources) != 1 or origin.setdefault(name, next(iter(sources))) not in sources:
            refused.add(name)
            continue
        found.setdefault(name, expanded)
    return {name: expression for name, expression in found.items() if name not in refused}


# Calls that give the value back in another form, not another value: a test of the result
# is a test of the parameter (``name.strip().casefold() == "posix"``: the name is posix).
_SAME_VALUE_METHODS = frozenset(
    {"strip", "lstrip", "rstrip", "lower", "upper", "casefold", "title"}
)
_SAME_VALUE_CALLS = frozenset({"int", "float", "str", "Decimal"})


def same_value(expression: ast.expr, parameter: str) -> bool:
    """Whether ``expression`` is ``parameter`` in another form: itself, a builtin
    conversion of it, or a chain of case and whitespace methods called on it."""
    if isinstance(expression, ast.Name):
        return expression.id == parameter
    if not isinstance(expression, ast.Call) or expression.keywords:
        return False
    func = expression.func
    if isinstance(func, ast.Attribute) and not expression.args:
        return func.attr in _SAME_VALUE_METHODS and same_value(func.value, parameter)
    if isinstance(func, ast.Name) and len(expression.args) == 1:
        return func.id in _SAME_VALUE_CALLS and same_value(expression.args[0], parameter)
    return False


class _Substitute(ast.NodeTransformer):
    def __init__(self, expressions: Mapping[str, ast.expr]) -> None:
        self.expressions = expressions

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.expressions.get(node.id, node)


def substitute(node: ast.expr, expressions: Mapping[str, ast.expr]) -> ast.expr:
    """``node`` with each name of ``expressions`` replaced by its expression (a copy)."""
    if not expressions:
        return node
    copied = python_ast.parse_expression(ast.unparse(node))
    result = _Substitute(expressions).visit(copied)
    return result if isinstance(result, ast.expr) else node
