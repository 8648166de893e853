"""The kind of value a summary says is returned ("Return a list of …"), held to the code.

"Return a list of pairs from the iterable." on a function that returns
``itertools.pairwise(iterable)`` tells a caller they may index the result; it is an
iterator. A summary that names the returned value's type (a list, a dictionary, a
tuple, an integer, a float, a boolean) is kept only when the code shows that type: the
return annotation names it, or a returned expression is one (a display or
comprehension, a literal, a comparison, a call whose name says it: ``list(…)``,
``to_dict()``, ``OrderedDict()``, ``len(…)``), directly or through the local name it
was assigned to. A call of anything else, a parameter or an attribute shows nothing;
such a claim is refused, and the model is asked to say what it returns. The kind after
"into" or "as" is a claim too, whatever the verb ("Encode an iterable into a list of
tuples" on a generator expression), where the code returns or yields something.

``None`` in a summary ("Return the item at index, or None if it is out of range") claims
a path that returns it. A function whose every return hands back a value that cannot be
``None`` (a display, a literal, a comparison, arithmetic, an f-string, ``len``/``str``/...
of something), that ends in a ``return`` or a ``raise``, whose annotation does not allow
``None`` and whose code (signature included) never writes ``None``, has no such path: the
claim is refused.

"Return all uppercase variations of the given word." on a function whose every return is
a number (a literal, arithmetic, ``len``/``sum``/``round`` of something, or a local name
only numbers are assigned to) says it hands back the variations themselves; it counts
them (zxcvbn's reviewer: false). "Return all …" or "every …" where only numbers come back
is refused (:func:`collection_for_number`).

A generator function returns nothing until it is iterated: "Execute a request and return
the results." on sqlitedict's ``select``, which yields the rows, hides that calling it
runs no query (its reviewer sent it back). A summary of a generator that says it returns
something other than an iterator, a generator or an iterable is refused
(:func:`returning_generator`).
"""

from __future__ import annotations

import ast
import re

from remora.code.docstring.behaviour import body_facts, node_definition
from remora.code.docstring.facts import name_words, word_tokens
from remora.code.parsing import SourceNode, node_returns
from remora.code.values.type_aliases import admits_none
from remora.python_ast import own_nodes

__all__ = [
    "KIND_WORDS",
    "collection_for_number",
    "returning_generator",
    "unshown_kind",
    "unshown_none",
]

# A summary's word for a type, and the type's name as code spells it.
KIND_WORDS = {
    "list": "list",
    "lists": "list",
    "dictionary": "dict",
    "dictionaries": "dict",
    "dict": "dict",
    "tuple": "tuple",
    "tuples": "tuple",
    "integer": "int",
    "int": "int",
    "float": "float",
    "boolean": "bool",
    "bool": "bool",
    # "the number of items" claims a count, which a capacity or a limit is not.
    "number": "count",
    "count": "count",
}
_RETURNING = frozenset({"return", "returns", "get", "gets"})
# "Convert a string of numerals to an integer": the kind after "to" is what comes back.
_CONVERTING = frozenset(
    str.split("""convert converts turn turns cast casts coerce split splits parse parses
    flatten flattens""")
)
_BEFORE_KIND = frozenset({"a", "an", "the", "new", "its", "their", "single", "flat"})
# "Encode an iterable into a list of tuples", "return them as a list": the kind after these
# is what comes back, whatever the verb, where the code returns something.
_SHAPING = ("into", "as")
_DISPLAYS: dict[type[ast.expr], str] = {
    ast.List: "list",
    ast.ListComp: "list",
    ast.Dict: "dict",
    ast.DictComp: "dict",
    ast.Tuple: "tuple",
    ast.Compare: "bool",
}
# Builtins whose result is of a kind their name does not spell.
_CALL_KINDS = {"len": "int", "sorted": "list", "isinstance": "bool", "hasattr": "bool"}
# What counts: a call (len(...), .count(...), sum(...)) or a value so named (self.count,
# n_items); "size" is not among them, as it is as often a capacity as a count.
_COUNTING = frozenset({"len", "length", "count", "sum", "num", "total"})


def _claimed(summary: str) -> tuple[str, bool]:
    """(the type the summary says is returned, '' when it names none; whether it says so
    only after "into"/"as"): the first word after its first returning verb, articles aside
    ("Return a list of …", "Check the files and return a list of …"), or after "to"/"into"
    in a summary that starts by converting ("Convert … to an integer", "Split a key into a
    list of keys"), or after any "into"/"as" ("Encode an iterable into a list of …")."""
    tokens = word_tokens(summary)
    at = next((i for i, token in enumerate(tokens) if token in _RETURNING), None)
    if at is None and tokens[:1] and tokens[0] in _CONVERTING:
        at = next((i for i, token in enumerate(tokens) if token in ("to", "into")), None)
    shaped = at is None
    if at is None:
        at = next((i for i, token in enumerate(tokens) if token in _SHAPING), None)
    if at is None:
        return "", False
    rest = [t for t in tokens[at + 1 : at + 4] if t not in _BEFORE_KIND]
    return (KIND_WORDS.get(rest[0], "") if rest else ""), shaped


def _kinds(expression: ast.expr, local: dict[str, list[ast.expr]], depth: int = 0) -> set[str]:
    """The kinds ``expression`` shows (several through a local name assigned more than once)."""
    if type(expression) in _DISPLAYS:
        return {_DISPLAYS[type(expression)]}
    if isinstance(expression, ast.Constant) and not isinstance(expression.value, str | bytes):
        kind = type(expression.value).__name__
        return {kind, "count"} if kind == "int" else {kind}  # 31 days: a number of them
    if isinstance(expression, ast.UnaryOp) and isinstance(expression.op, ast.Not):
        return {"bool"}
    if isinstance(expression, ast.Call):
        called = expression.func
        name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
        kinds = name_words(name) | ({_CALL_KINDS[name]} if name in _CALL_KINDS else set())
        return kinds | ({"count"} if kinds & _COUNTING else set())
    named = {"count"} if _names_a_count(expression) else set()
    if isinstance(expression, ast.Name) and depth == 0:
        return named | {k for value in local.get(expression.id, []) for k in _kinds(value, {}, 1)}
    return named


def _names_a_count(expression: ast.expr) -> bool:
    """A name or an attribute whose words say it counts (``self.count``, ``total_len``)."""
    name = expression.attr if isinstance(expression, ast.Attribute) else ""
    name = expression.id if isinstance(expression, ast.Name) else name
    return bool(name_words(name) & _COUNTING)


def _assigned(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[ast.expr]]:
    """The values each local name is assigned (``name = value``, its first target)."""
    local: dict[str, list[ast.expr]] = {}
    for item in ast.walk(definition):
        if isinstance(item, ast.Assign) and isinstance(target := item.targets[0], ast.Name):
            local.setdefault(target.id, []).append(item.value)
    return local


def unshown_kind(node: SourceNode, summary: str) -> str:
    """Why the type ``summary`` says the node returns is not shown by its code ('' when it
    is, or when the summary names no type)."""
    kind, shaped = _claimed(summary)
    definition = node_definition(node) if kind else None
    if definition is None:
        return ""
    if shaped and not (body_facts(node).returned or node_returns(node)["is_generator"]):
        return ""  # "Put the item into a list" on a procedure: not what it returns
    if definition.returns is not None and kind in name_words(ast.unparse(definition.returns)):
        return ""
    local = _assigned(definition)
    returned = body_facts(node).returned
    if any(kind in _kinds(expression, local) for expression in returned):
        return ""
    shown = f" (`{ast.unparse(returned[0])}`)" if returned else ""
    if kind == "count":
        return (
            f"it says the code returns a number of things, but nothing it returns counts"
            f"{shown}; say what it returns"
        )
    word = {"dict": "dictionary", "int": "integer", "bool": "boolean"}.get(kind, kind)
    return (
        f"it says the code returns a {word}, but nothing it returns shows one{shown}; "
        "say what it returns"
    )


_ALL = frozenset({"all", "every", "each"})
_NUMBER_CALLS = frozenset({"len", "sum", "round", "int", "float", "abs"})


def _numeric(expression: ast.expr, local: dict[str, list[ast.expr]], depth: int = 0) -> bool:
    """Whether ``expression`` can only be a number: a number literal, arithmetic of two such
    (``"ab" * 2`` is text), a call of :data:`_NUMBER_CALLS`, or a local name only such
    values are assigned to."""
    if isinstance(expression, ast.Constant):
        return isinstance(expression.value, int | float) and not isinstance(expression.value, bool)
    if isinstance(expression, ast.UnaryOp) and isinstance(expression.op, ast.USub | ast.UAdd):
        return _numeric(expression.operand, local, depth)
    if isinstance(expression, ast.BinOp) and not isinstance(expression.op, ast.Mod):
        return _numeric(expression.left, local, depth) and _numeric(expression.right, local, depth)
    if isinstance(expression, ast.Call) and isinstance(expression.func, ast.Name):
        return expression.func.id in _NUMBER_CALLS
    if isinstance(expression, ast.Name) and depth == 0:
        values = local.get(expression.id, [])
        return bool(values) and all(_numeric(v, {}, 1) for v in values)
    return False


def collection_for_number(node: SourceNode, summary: str) -> str:
    """Why "Return all …" (or "every …") misstates a node whose every return is a number
    ('' where the summary says no such thing or something else may come back)."""
    tokens = word_tokens(summary)
    at = next((i for i, token in enumerate(tokens) if token in _RETURNING), len(tokens))
    if tokens[at + 1 : at + 2] == [] or tokens[at + 1] not in _ALL:
        return ""
    definition = node_definition(node)
    if definition is None or node_returns(node)["is_generator"]:
        return ""
    returned = body_facts(node).returned
    local = _assigned(definition)
    if not returned or not all(_numeric(expression, local) for expression in returned):
        return ""
    return (
        f"it says the code returns all of something, but it returns a number "
        f"(`{ast.unparse(returned[-1])}`); say what the number counts or measures"
    )


_LAZY = frozenset(
    {"iterator", "iterators", "generator", "generators", "iterable", "iterables", "lazily"}
)


def returning_generator(node: SourceNode, summary: str) -> str:
    """Why ``summary`` says a generator function returns a value ('' where it does not,
    or says it hands back an iterator, a generator or an iterable)."""
    tokens = word_tokens(summary)
    if not set(tokens) & _RETURNING or set(tokens) & _LAZY:
        return ""
    if node_definition(node) is None or not node_returns(node)["is_generator"]:
        return ""
    return (
        "it says the code returns something, but it is a generator: calling it runs none of "
        "its body until it is iterated; say what it yields ('Yield …')"
    )


# What a call of these gives is never None.
_NEVER_NONE_CALLS = frozenset(
    str.split("""len str int float bool list tuple dict set frozenset sorted repr isinstance
    hasattr format abs round sum bytes type""")
)
_NEVER_NONE_SHAPES = (
    ast.Tuple,
    ast.List,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.JoinedStr,
    ast.Compare,
    ast.BinOp,
    ast.UnaryOp,
)


def _never_none(expression: ast.expr | None) -> bool:
    """Whether a returned expression shows a value that cannot be ``None``."""
    if expression is None:
        return False
    if isinstance(expression, _NEVER_NONE_SHAPES):
        return True
    if isinstance(expression, ast.Constant):
        return expression.value is not None
    called = expression.func if isinstance(expression, ast.Call) else None
    return isinstance(called, ast.Name) and called.id in _NEVER_NONE_CALLS


def unshown_none(node: SourceNode, summary: str) -> str:
    """Why the ``None`` that ``summary`` says the node may return has no path in its code
    ('' when it may, or when the summary does not say ``None``)."""
    definition = node_definition(node) if re.search(r"\bNone\b", summary) else None
    if definition is None or (
        definition.returns is not None and admits_none(ast.unparse(definition.returns), None, {})
    ):
        return ""
    signature = [*definition.args.defaults, *(d for d in definition.args.kw_defaults if d)]
    own = [*own_nodes(definition.body), *(n for d in signature for n in ast.walk(d))]
    if any(isinstance(n, ast.Yield | ast.YieldFrom | ast.Await) for n in own):
        return ""
    if any(isinstance(n, ast.Constant) and n.value is None for n in own):
        return ""
    returns = [n for n in own if isinstance(n, ast.Return)]
    if not isinstance(definition.body[-1], ast.Return | ast.Raise) or not returns:
        return ""
    if not all(_never_none(r.value) for r in returns):
        return ""
    shown = ast.unparse(returns[0].value) if returns[0].value is not None else ""
    return (
        f"it says the code may return None, but every return hands back a value (`{shown}`) "
        "and nothing in it is None; say what it returns"
    )
