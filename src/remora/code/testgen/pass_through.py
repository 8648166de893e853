"""A node whose one ``return`` hands its arguments on as they are gets no test (issue 56).

``def field(name): return {"type": "field", "value": name}`` tested as
``assert field("a") == {"type": "field", "value": "a"}`` copies the body into the test:
it pins nothing a maintainer could get wrong short of a typo the test repeats. So do
``def visit_constant(self, node, value): return value``, a decorator that hands its
class back, and a method that only wraps the project's own builder
(``return nodes.literal(token["value"])``). Blind reviewers rejected such tests as
"restates the dict literal", "a tautology".

A body (its docstring aside) that is one ``return E`` is such a pass-through when ``E``
is built only from the parameters, constants, attribute and constant-subscript reads
of parameters (``token["value"]``, ``self.name``), displays of those, and at most one
call of the project's own code passing such values straight through: a function or
class of the module or imported from a project module, a parameter (a callable handed
in), or a method of the module called on ``self``/``cls``. Anything that computes
keeps its tests: an operator, a comparison, a condition, a comprehension, a formatted value,
a subscript with a key the call gives (``self._items[key]``), a call of something
computed (``Parser().parse(text)``), a builtin's or a library's call (``len(arg)``,
``math.ceil(x)``: the node's point is that computation, and reviewers kept such tests),
a read of module state. A call of a private function of the module keeps them too: that
helper is tested through this node (:mod:`remora.code.values.private_helpers`). Text put
around the arguments is a display too: ``'<em>' + text + '</em>'`` and
``f"<li>{text}</li>"`` (no format spec, no ``!r``) are templates, and mistune's blind
reviewers rejected every test of one as "a trivial concatenation" (nine of nine); a sum
with no text constant in it adds.

A body that is one ``return`` of type checks on its parameters (``isinstance(value,
(list, tuple))``, ``hasattr(obj, "__iter__")``, ``callable``, ``issubclass``, joined by
``and``/``or``/``not``) gets none either: its test hands it one value of each answer and
restates the check (blind reviewers rejected all three such tests as "trivial isinstance
checks"). Nor does a body that is one ``raise`` of an exception built from constants alone
of a module-level function (a marker that refuses to be called: ``raise
SchemaError("'Extra' should never be called")``): its test restates the line ("it only
restates the one-line body"); a method's may be its class refusing an API (a sealed
mapping's ``pop``), and keeps its test. A
``NotImplementedError`` is not such a line: an API a class refuses (a sorted list's
``append``, "use add") or an abstract method's contract, which reviewers merged, and a
stub its subclasses override, which they rejected, is told apart by
:mod:`remora.code.testgen.shadowed_builtins`. Read with
:mod:`ast`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.import_paths import package_of
from remora.code.parsing import ast_tree
from remora.code.values import CallTarget, first_parameter
from remora.code.values.annotations import dotted_name
from remora.code.values.parameters import function_parameters
from remora.code.values.private_helpers import is_private, qualified_functions
from remora.code.values.project_imports import imported_names, project_module_text

__all__ = [
    "FIXED_RAISE_REASON",
    "PASS_THROUGH_REASON",
    "TYPE_CHECK_REASON",
    "OwnCode",
    "only_raises_constants",
    "only_type_checks",
    "own_code",
    "pass_through_reason",
    "passes_through",
]

PASS_THROUGH_REASON = (
    "its body only returns its arguments as given (read, put in a display or handed to the "
    "project's own code): a test could only restate it"
)
TYPE_CHECK_REASON = (
    "its body only returns a type check of its arguments (isinstance, hasattr, callable, "
    "issubclass): a test could only restate it"
)
FIXED_RAISE_REASON = (
    "its body only raises an exception built from constants: a test could only restate it"
)
_TYPE_CHECKS = frozenset({"isinstance", "issubclass", "hasattr", "callable"})

Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True, slots=True)
class OwnCode:
    """What a pass-through may call: the project's own code, as the node's module names it.

    ``module``: the functions and classes the module defines at its top; ``imported``: the
    names it imports from the project's modules (a module, a function, a class);
    ``methods``: the names of the functions and methods it defines anywhere; ``owner``: the
    method's ``self``/``cls`` (None for a function or a static method)."""

    module: frozenset[str]
    imported: frozenset[str]
    methods: frozenset[str]
    owner: str | None = None


def returned_expression(function: Function) -> ast.expr | None:
    """``E`` where the body, its docstring aside, is the one statement ``return E``."""
    body = python_ast.body_statements(function)
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


def only_raises_constants(function: Function) -> bool:
    """Whether the body, its docstring aside, is one ``raise E(constants...)`` (or a bare
    class, ``raise E``)."""
    body = python_ast.body_statements(function)
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc
    called = raised.func if isinstance(raised, ast.Call) else raised
    if dotted_name(called) == "NotImplementedError":
        return False  # an API refused or an abstract stub: shadowed_builtins decides
    if isinstance(raised, ast.Call):
        values = [*raised.args, *(k.value for k in raised.keywords)]
        named = isinstance(raised.func, ast.Name | ast.Attribute)
        return named and all(_constant(v) for v in values)
    return isinstance(raised, ast.Name | ast.Attribute)


def _constant(node: ast.expr) -> bool:
    """A literal constant, a signed number included (``-1``)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    return isinstance(node, ast.Constant)


def _read(node: ast.expr, parameters: set[str], owner: str | None) -> bool:
    """A parameter, or an attribute or constant-subscript read of one (``token["value"]``)
    other than the instance or class a method is called on: ``self.parts`` is state its
    other code made (a constructor that parsed the text), which a reader's test pins."""
    read = False
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Subscript) and not _constant(node.slice):
            return False
        node, read = node.value, True
    if not isinstance(node, ast.Name) or node.id not in parameters:
        return False
    return not (read and node.id == owner)


def _own_callee(func: ast.expr, parameters: set[str], own: OwnCode) -> bool:
    """Whether ``func`` names the project's own code (not a private function of the module,
    which is tested through its callers)."""
    if isinstance(func, ast.Name):
        if func.id in own.methods and is_private(func.id):
            return False
        return func.id in parameters or func.id in own.module or func.id in own.imported
    if not isinstance(func, ast.Attribute):
        return False  # a call of something computed: ``Parser().parse``, ``handlers[k]``
    if func.attr in own.methods and is_private(func.attr):
        return False
    root: ast.expr = func.value
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    if root.id in own.imported:  # ``nodes.literal``, ``nodes.sub.literal``
        return True
    # ``self.other(...)``, ``Class.build(...)``: a method the module defines, nothing held
    # in an attribute (``self._data.get`` is a dict's).
    held_by = func.value
    on_own = isinstance(held_by, ast.Name) and (held_by.id == own.owner or held_by.id in own.module)
    return on_own and func.attr in own.methods


def _plain(node: ast.expr, parameters: set[str], own: OwnCode, calls: list[ast.Call]) -> bool:
    """Whether ``node`` is built from the parameters as given: constants, reads of
    parameters, displays of them and at most one call (recorded in ``calls``) of the
    project's own code with such values."""
    if _constant(node) or _read(node, parameters, own.owner):
        return True
    if isinstance(node, ast.Dict):
        parts = [k for k in node.keys if k is not None] + node.values  # ``**param``: None key
        return all(_plain(p, parameters, own, calls) for p in parts)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(_plain(_unpacked(e), parameters, own, calls) for e in node.elts)
    if isinstance(node, ast.BinOp | ast.JoinedStr) and (parts := _template_parts(node)):
        return all(_plain(p, parameters, own, calls) for p in parts)
    if isinstance(node, ast.Call) and not calls and _own_callee(node.func, parameters, own):
        calls.append(node)  # a second call, in its arguments or beside it, computes
        handed = [_unpacked(a) for a in node.args] + [k.value for k in node.keywords]
        return all(_plain(a, parameters, own, calls) for a in handed)
    return False


def _template_parts(node: ast.expr) -> list[ast.expr]:
    """The values a text template puts between its constant pieces (``'<em>' + text +
    '</em>'``: ``text``; ``f"<li>{text}</li>"`` likewise); none for an expression that is
    no such template: a sum or an f-string without a text constant (``a + b`` adds,
    ``f"{x}"`` converts), a value formatted (``{x:.2f}``, ``{x!r}``)."""
    if isinstance(node, ast.JoinedStr):
        values = [v for v in node.values if not isinstance(v, ast.Constant)]
        shown = len(values) < len(node.values) and all(
            isinstance(v, ast.FormattedValue) and v.conversion == -1 and v.format_spec is None
            for v in values
        )
        return [v.value for v in values if isinstance(v, ast.FormattedValue)] if shown else []
    added: list[ast.expr] = []
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, ast.BinOp) and isinstance(item.op, ast.Add):
            pending += [item.left, item.right]
        else:
            added.append(item)
    texts = [a for a in added if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return [a for a in added if a not in texts] if texts else []


def _unpacked(node: ast.expr) -> ast.expr:
    """What ``*value`` unpacks, in a display or a call's arguments."""
    return node.value if isinstance(node, ast.Starred) else node


def passes_through(function: Function, own: OwnCode) -> bool:
    """Whether the function's body is one ``return`` of its arguments as given (the module
    docstring says what that allows)."""
    returned = returned_expression(function)
    parameters = {p.name for p in function_parameters(function.args)}
    return returned is not None and _plain(returned, parameters, own, [])


def only_type_checks(function: Function) -> bool:
    """Whether the function's body is one ``return`` of builtin type checks of its
    parameters, joined by ``and``/``or``/``not``, the types or names asked constants or
    names (``isinstance(value, (dict, MutableMapping))``)."""
    returned = returned_expression(function)
    parameters = {p.name for p in function_parameters(function.args)}
    return returned is not None and _type_check(returned, parameters)


def _type_check(node: ast.expr, parameters: set[str]) -> bool:
    if isinstance(node, ast.BoolOp):
        return all(_type_check(v, parameters) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _type_check(node.operand, parameters)
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _TYPE_CHECKS
        and node.args
        and not node.keywords
    ):
        return False
    checked, *asked = node.args
    return (
        isinstance(checked, ast.Name)
        and checked.id in parameters
        and all(_type_name(a) for a in asked)
    )


def _type_name(node: ast.expr) -> bool:
    """A class or attribute name as written (``dict``, ``abc.Mapping``, ``"__iter__"``), or
    a tuple of them."""
    if isinstance(node, ast.Tuple):
        return all(_type_name(e) for e in node.elts)
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def own_code(tree: ast.Module, imported: set[str], owner: str | None) -> OwnCode:
    """The :class:`OwnCode` of a module (``imported``: the names it binds to the project's
    modules and their members) for a node taking ``owner`` as its instance or class."""
    defined = {
        s.name
        for s in tree.body
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    methods = {q.rsplit(".", 1)[-1] for q in qualified_functions(tree)}
    return OwnCode(frozenset(defined), frozenset(imported), frozenset(methods), owner)


def _owner(function: Function, target: CallTarget) -> str | None:
    """A method's first parameter where it takes its instance or class, else None."""
    if target["kind"] != "method" or target["method_kind"] == "staticmethod":
        return None
    return first_parameter(function)


def pass_through_reason(
    context: CodeContext, target: CallTarget, function: Function | None
) -> str | None:
    """Why the run's node (``function``, reached as ``target``) gets no test: its body
    returns its arguments as given (:func:`passes_through`) or only checks their types
    (:func:`only_type_checks`); None otherwise, for a class, or for a module that does not
    parse."""
    tree = ast_tree(context.node_file_text())
    if function is not None and target["kind"] == "function" and only_raises_constants(function):
        return FIXED_RAISE_REASON  # a method's may be its class refusing an API: kept
    if function is None or tree is None or returned_expression(function) is None:
        return None
    if only_type_checks(function):
        return TYPE_CHECK_REASON
    package = package_of(context, context.bound_node().file_path)
    imported = {
        name
        for name, (module, _original) in imported_names(tree, package).items()
        if module and project_module_text(context, module) is not None
    }
    own = own_code(tree, imported, _owner(function, target))
    return PASS_THROUGH_REASON if passes_through(function, own) else None
