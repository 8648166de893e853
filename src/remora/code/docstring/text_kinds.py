"""A summary's "string" held to the code: text (``str``) and bytes are not one kind.

"Convert a Python object to an XML string." on a function whose default path returns
``''.join(output).encode('utf-8')`` tells a caller they get text; they get bytes
(dicttoxml's reviewer: wrong). "Decode the input string using the specified encoding."
on a function that hands its input to a helper testing ``input.startswith(b'\\xFF\\xFE')``
calls bytes a string (webencodings' reviewer: wrong, "the input is bytes rather than a
string"). A summary's "string" is checked where the code shows bytes:

- said of what comes back (after "return", or after "to", "into" or "as": "… to an XML
  string", "Return the URI as a string"): refused when a ``return`` hands back bytes (a
  bytes literal, ``….encode(…)``, ``bytes(…)``/``bytearray(…)``, directly or through the
  local name it was assigned to) and the return annotation does not say ``str``;
- said of what the call is given (the words after the opening verb, up to "to", "using",
  "with", …: "Decode the input string"): refused when that parameter (the one the words
  name, else the first) is bytes by the code: annotated ``bytes``, decoded
  (``input.decode(…)``), compared, joined or prefix-tested with a bytes literal, or handed
  to a function or method of the same module or class that does one of these with it.

Nothing is refused where the code shows no bytes: a string is what most text is.
Read with :mod:`ast`; the summary as words.
"""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import body_facts, node_definition
from remora.code.docstring.facts import word_tokens
from remora.code.parsing import SourceNode, ast_tree
from remora.code.values.annotations import called_name, head_name

__all__ = ["bytes_called_string"]

Function = ast.FunctionDef | ast.AsyncFunctionDef

_STRING = frozenset({"string", "strings"})
_RETURNING = frozenset({"return", "returns", "get", "gets"})
_SHAPING = frozenset({"to", "into", "as"})
# The words that end the phrase after the opening verb: what follows is not its object.
_PHRASE_ENDS = _SHAPING | frozenset(
    str.split("""using with from for by in on at and or if when while via according
    returning return returns""")
)
_BYTES_HEADS = frozenset({"bytes", "bytearray", "memoryview"})
_BYTES_CALLS = frozenset({"encode", "bytes", "bytearray"})
_TESTING = frozenset({"startswith", "endswith", "find", "index", "count", "split", "strip"})


def bytes_called_string(node: SourceNode, summary: str) -> str:
    """Why the summary's "string" is refused ('' when it says none, or the code shows no
    bytes where it says it)."""
    tokens = word_tokens(summary)
    if not _STRING & set(tokens):
        return ""
    function = node_definition(node)
    if function is None:
        return ""
    if _said_of_result(tokens) and (shown := _bytes_returned(node, function)):
        return (
            f"it says {node.ref.full_name} returns a string, but `{shown}` is bytes; say "
            "bytes where it returns bytes (or when it does)"
        )
    parameter = _said_of_input(tokens, function)
    if parameter and (shown := _bytes_parameter(function, parameter, _module(node), 0)):
        return (
            f"it calls {parameter!r} a string, but the code treats it as bytes (`{shown}`); "
            "say bytes"
        )
    return ""


def _said_of_result(tokens: list[str]) -> bool:
    """Whether a "string" follows a returning verb or "to"/"into"/"as" within four words."""
    for at, token in enumerate(tokens):
        verb = token in _RETURNING or (token in _SHAPING and at > 0)
        if verb and _STRING & set(tokens[at + 1 : at + 5]):
            return True
    return False


def _said_of_input(tokens: list[str], function: Function) -> str:
    """The parameter the words after the opening verb call a string ('' when they do not):
    the one they name, else the first after ``self``/``cls``."""
    if not tokens or tokens[0] in _RETURNING:
        return ""
    phrase: list[str] = []
    for token in tokens[1:6]:
        if token in _PHRASE_ENDS:
            break
        phrase.append(token)
    if not _STRING & set(phrase):
        return ""
    arguments = function.args
    names = [a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    named = [name for name in names if name.lower() in phrase]
    return named[0] if named else (names[0] if names else "")


def _module(node: SourceNode) -> ast.Module | None:
    return ast_tree(node.file.text)


def _bytes_expression(expression: ast.expr) -> bool:
    if isinstance(expression, ast.Constant):
        return isinstance(expression.value, bytes)
    if isinstance(expression, ast.Call):
        return called_name(expression) in _BYTES_CALLS
    if isinstance(expression, ast.IfExp):
        return _bytes_expression(expression.body) or _bytes_expression(expression.orelse)
    return False


def _bytes_returned(node: SourceNode, function: Function) -> str:
    """The first returned expression that is bytes ('' when none is, or the annotation
    says ``str``)."""
    if function.returns is not None and head_name(function.returns).lower() == "str":
        return ""
    assigned: dict[str, list[ast.expr]] = {}
    for item in ast.walk(function):
        if isinstance(item, ast.Assign) and isinstance(target := item.targets[0], ast.Name):
            assigned.setdefault(target.id, []).append(item.value)
    for returned in body_facts(node).returned:
        values = assigned.get(returned.id, []) if isinstance(returned, ast.Name) else [returned]
        if any(_bytes_expression(value) for value in values):
            return ast.unparse(returned)
    return ""


def _bytes_parameter(function: Function, name: str, module: ast.Module | None, depth: int) -> str:
    """The code that treats parameter ``name`` of ``function`` as bytes ('' when none, or
    when it takes text too: ``isinstance(name, bytes)`` tested, its uses after ``name`` is
    assigned anew, ``uristring = uristring.encode(…)``, are another value's)."""
    for argument in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs):
        annotation = argument.annotation
        if argument.arg == name and annotation and head_name(annotation).lower() in _BYTES_HEADS:
            return f"{name}: {ast.unparse(annotation)}"
    if _kind_tested(function, name):
        return ""
    rebound = _first_assignment(function, name)
    for item in ast.walk(function):
        if getattr(item, "lineno", 0) > rebound:
            continue
        if shown := _bytes_use(item, name):
            return shown
        if (
            depth == 0
            and module is not None
            and isinstance(item, ast.Call)
            and (shown := _handed_on(item, name, function, module))
        ):
            return shown
    return ""


def _kind_tested(function: Function, name: str) -> bool:
    """``isinstance(name, …)``: the code takes more than one kind."""
    return any(
        isinstance(item, ast.Call)
        and called_name(item) == "isinstance"
        and bool(item.args)
        and _is_name(item.args[0], name)
        for item in ast.walk(function)
    )


def _first_assignment(function: Function, name: str) -> int:
    """The line ``name`` is first assigned on in the body (past the end when never)."""
    lines = [
        item.lineno
        for item in ast.walk(function)
        if isinstance(item, ast.Assign | ast.AugAssign | ast.AnnAssign)
        and any(
            _is_name(target, name)
            for target in (item.targets if isinstance(item, ast.Assign) else [item.target])
        )
    ]
    return min(lines, default=function.end_lineno or 1 << 30)


def _is_name(expression: ast.expr, name: str) -> bool:
    return isinstance(expression, ast.Name) and expression.id == name


def _is_part(expression: ast.expr, name: str) -> bool:
    """``name`` or a slice of it (``name[:2]``: bytes too)."""
    if isinstance(expression, ast.Subscript) and isinstance(expression.slice, ast.Slice):
        expression = expression.value
    return _is_name(expression, name)


def _bytes_use(item: ast.AST, name: str) -> str:
    """``name.decode(…)``, ``name.startswith(b'…')``, ``name[:2] == b'…'``, ``name + b'…'``."""
    if (
        isinstance(item, ast.Call)
        and isinstance(item.func, ast.Attribute)
        and _is_name(item.func.value, name)
        and (
            item.func.attr == "decode"
            or (item.func.attr in _TESTING and any(_holds_bytes(a) for a in item.args[:1]))
        )
    ):
        return ast.unparse(item)
    if isinstance(item, ast.Compare):
        sides = (item.left, *item.comparators)
        if any(_is_part(s, name) for s in sides) and any(_holds_bytes(s) for s in sides):
            return ast.unparse(item)
    if isinstance(item, ast.BinOp) and isinstance(item.op, ast.Add):
        sides = (item.left, item.right)
        if any(_is_part(s, name) for s in sides) and any(_holds_bytes(s) for s in sides):
            return ast.unparse(item)
    return ""


def _holds_bytes(expression: ast.expr) -> bool:
    if isinstance(expression, ast.Tuple | ast.List | ast.Set):
        return bool(expression.elts) and all(_holds_bytes(e) for e in expression.elts)
    return isinstance(expression, ast.Constant) and isinstance(expression.value, bytes)


def _handed_on(call: ast.Call, name: str, function: Function, module: ast.Module) -> str:
    """Bytes use of ``name`` in the same module's function (or the same class's method)
    ``call`` hands it to by position."""
    at = next((i for i, a in enumerate(call.args) if _is_name(a, name)), None)
    if at is None:
        return ""
    callee = _callee(call, function, module)
    if callee is None:
        return ""
    parameters = [*callee.args.posonlyargs, *callee.args.args]
    if isinstance(call.func, ast.Attribute):
        parameters = parameters[1:]  # ``self.helper(x)``: ``x`` is the second
    if at >= len(parameters):
        return ""
    shown = _bytes_parameter(callee, parameters[at].arg, None, 1)
    return f"{shown} in {callee.name}" if shown else ""


def _callee(call: ast.Call, function: Function, module: ast.Module) -> Function | None:
    """The module-level function ``helper(…)`` or the enclosing class's ``self.helper(…)``."""
    called = call.func
    scope: list[ast.stmt] = module.body
    if isinstance(called, ast.Attribute) and _is_name(called.value, "self"):
        owner = next(
            (c for c in ast.walk(module) if isinstance(c, ast.ClassDef) and function in c.body),
            None,
        )
        scope, wanted = (owner.body if owner else []), called.attr
    elif isinstance(called, ast.Name):
        wanted = called.id
    else:
        return None
    functions = (s for s in scope if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef))
    return next((s for s in functions if s.name == wanted), None)
