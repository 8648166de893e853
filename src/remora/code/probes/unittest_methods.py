"""A test piece as a ``unittest.TestCase`` method, for a project whose tests are unittest's.

A piece is written as a pytest function (``def test_x():`` with ``assert`` statements and
``pytest.raises``); for a unittest project (:mod:`remora.code.probes.test_runner`) it
becomes a method of the node's ``TestCase`` class, read and rewritten with :mod:`ast`:
``assert a == b`` is ``self.assertEqual(a, b)`` (``pytest.approx(b)``:
``assertAlmostEqual``), ``is``/``is not``/``in``/``not in``/``!=`` their own asserts,
``assert not x``/``assert x`` ``assertFalse``/``assertTrue``, and ``with
pytest.raises(E) as excinfo:`` ``with self.assertRaises(E) as cm:`` (``match=``:
``assertRaisesRegex``) with ``excinfo.value`` read as ``cm.exception``. A piece that
needs pytest otherwise (a fixture parameter, a mark, any other ``pytest.`` name) has no
unittest form: :func:`method_source` says so with ValueError.
"""

from __future__ import annotations

import ast

from remora import python_ast
from remora.code.values import snake_name

__all__ = ["case_class_name", "method_source", "with_methods"]

_EXCEPTION_VARIABLE = "cm"
_COMPARE_ASSERTS: dict[type[ast.cmpop], str] = {
    ast.Eq: "assertEqual",
    ast.NotEq: "assertNotEqual",
    ast.Is: "assertIs",
    ast.IsNot: "assertIsNot",
    ast.In: "assertIn",
    ast.NotIn: "assertNotIn",
    ast.Lt: "assertLess",
    ast.LtE: "assertLessEqual",
    ast.Gt: "assertGreater",
    ast.GtE: "assertGreaterEqual",
}


def case_class_name(qualname: str) -> str:
    """``Test`` and the node's name in CamelCase: ``StockItem.add`` -> ``TestStockItemAdd``."""
    words = snake_name(qualname).split("_")
    return "Test" + "".join(word[:1].upper() + word[1:] for word in words if word)


def _self_call(method: str, args: list[ast.expr]) -> ast.Expr:
    func = ast.Attribute(ast.Name("self", ast.Load()), method, ast.Load())
    return ast.Expr(ast.Call(func, args, []))


def _pytest_call(node: ast.expr, name: str) -> ast.Call | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "pytest"
        and node.func.attr == name
    ):
        return node
    return None


def _assert(node: ast.Assert) -> ast.Expr:
    extra = [node.msg] if node.msg is not None else []
    test = node.test
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right, op = test.left, test.comparators[0], test.ops[0]
        approx = _pytest_call(right, "approx")
        if isinstance(op, ast.Eq) and approx is not None and len(approx.args) == 1:
            return _self_call("assertAlmostEqual", [left, approx.args[0], *extra])
        if isinstance(op, ast.Is | ast.IsNot) and _is_none(right):
            method = "assertIsNone" if isinstance(op, ast.Is) else "assertIsNotNone"
            return _self_call(method, [left, *extra])
        compared = _COMPARE_ASSERTS.get(type(op))
        if compared is not None:
            return _self_call(compared, [left, right, *extra])
    if (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
    ):
        return _self_call("assertIsInstance", [*test.args, *extra])
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _self_call("assertFalse", [test.operand, *extra])
    return _self_call("assertTrue", [test, *extra])


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


class _ToUnittest(ast.NodeTransformer):
    def __init__(self) -> None:
        self.caught: set[str] = set()

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        self.generic_visit(node)  # ``excinfo.value`` in it first
        return ast.copy_location(_assert(node), node)

    def visit_With(self, node: ast.With) -> ast.AST:
        for item in node.items:
            raises = _pytest_call(item.context_expr, "raises")
            if raises is None:
                continue
            keywords = {k.arg: k.value for k in raises.keywords}
            if set(keywords) - {"match"} or len(raises.args) != 1:
                raise ValueError("pytest.raises with more than an exception and match=")
            args = [raises.args[0]]
            method = "assertRaises"
            if "match" in keywords:
                method, args = "assertRaisesRegex", [*args, keywords["match"]]
            func = ast.Attribute(ast.Name("self", ast.Load()), method, ast.Load())
            item.context_expr = ast.Call(func, args, [])
            if isinstance(item.optional_vars, ast.Name):
                self.caught.add(item.optional_vars.id)
                item.optional_vars = ast.Name(_EXCEPTION_VARIABLE, ast.Store())
        self.generic_visit(node)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id in self.caught:
            attr = "exception" if node.attr == "value" else node.attr
            return ast.Attribute(ast.Name(_EXCEPTION_VARIABLE, ast.Load()), attr, node.ctx)
        return node


def method_source(source: str) -> str:
    """The piece's function (pytest form) as a ``TestCase`` method's source, unindented;
    ValueError when it needs pytest to run."""
    tree = python_ast.parse(source)
    functions = [s for s in tree.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
    if len(functions) != 1 or len(tree.body) != 1:
        raise ValueError("a test piece is one function")
    function = functions[0]
    if function.decorator_list or function.args.args or function.args.kwonlyargs:
        raise ValueError(f"{function.name}: fixtures and marks are pytest's; unittest has none")
    converted = _ToUnittest().visit(function)
    if any(isinstance(n, ast.Name) and n.id == "pytest" for n in ast.walk(converted)):
        raise ValueError(f"{function.name}: it uses pytest beyond asserts and pytest.raises")
    converted.args.args = [ast.arg("self")]
    return ast.unparse(ast.fix_missing_locations(converted)) + "\n"


def with_methods(text: str, test_class: str, functions: list[str], newline: str) -> str:
    """``text`` with ``functions`` (pieces' pytest form) as methods at the end of its class
    ``test_class`` (a new ``unittest.TestCase`` class at the file's end when it has none)."""
    found = next(
        (
            stmt
            for stmt in python_ast.parse(text).body
            if isinstance(stmt, ast.ClassDef) and stmt.name == test_class
        ),
        None,
    )
    indent = " " * (found.body[0].col_offset if found is not None else 4)
    methods = [method_source(function) for function in functions]
    # Each method after a blank line, its lines indented as the class's body.
    block = "".join(
        newline + "".join(f"{indent}{line}{newline}" for line in m.splitlines()) for m in methods
    )
    if found is None:
        return f"{text}{newline}{newline}class {test_class}(unittest.TestCase):{block}"
    lines = text.splitlines(True)
    end = found.end_lineno or len(lines)
    if not lines[end - 1].endswith(("\n", "\r")):
        lines[end - 1] += newline
    return "".join([*lines[:end], block, *lines[end:]])
