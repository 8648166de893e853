"""An order a summary claims (reversed, sorted), held to the code that would make it.

"Return a view of the keys in reverse order." is a claim only code that orders can make
good: a call of ``reversed`` or ``sorted`` (or any callee whose name says so), a
``.reverse()`` or ``.sort()``, a ``[::-1]`` slice, or a name of the node's own with the
word in it (its name, its class's, a parameter, a name or attribute its body reads:
``reverse=True``, ``self._sorted``, "the sorted list" of a ``SortedList``). A summary of
a function or method that claims an order its own code shows nothing of describes other
code, or a guess, and is refused: blind reviewers marked "in reverse order" on a method
that returns its inverse's keys, and "reverse the order of items" on one that swaps each
pair, as false.

The node's own statements are read from ``ast`` (nested definitions are their own nodes);
the summary's words are prose, read as words.
"""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import node_definition
from remora.code.docstring.facts import word_tokens
from remora.code.parsing import SourceNode
from remora.code.values.annotations import called_name
from remora.python_ast import own_nodes

__all__ = ["unfounded_order"]

Function = ast.FunctionDef | ast.AsyncFunctionDef

# The order a word of a summary claims, by the stem the code's names would carry.
_CLAIMS: dict[str, str] = {
    "reverse": "revers",
    "reversed": "revers",
    "backwards": "revers",
    "sorted": "sort",
    "sorts": "sort",
    "sort": "sort",
    "ascending": "sort",
    "descending": "sort",
}

_INVERTING = frozenset({"invert", "inverts", "inverted", "flip", "flips"})


def _reversing_slice(item: ast.AST) -> bool:
    """``[::-1]``: a slice whose step is a negative number."""
    if not (isinstance(item, ast.Slice) and item.step is not None):
        return False
    step = item.step
    return isinstance(step, ast.UnaryOp) and isinstance(step.op, ast.USub)


def _own_names(definition: Function) -> list[str]:
    """The node's name, its parameters, and the names, attributes and callees its own body
    reads, lower-cased."""
    args = definition.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    names = [definition.name, *(a.arg for a in every if a is not None)]
    for item in own_nodes(definition.body):
        if isinstance(item, ast.Name):
            names.append(item.id)
        elif isinstance(item, ast.Attribute):
            names.append(item.attr)
        elif isinstance(item, ast.keyword) and item.arg:
            names.append(item.arg)
        elif isinstance(item, ast.Call):
            names.append(called_name(item))
    return [name.lower() for name in names]


def unfounded_order(node: SourceNode, summary: str) -> str:
    """Why ``summary`` claims an order the function's code never makes ('' if it does not)."""
    tokens = word_tokens(summary)
    claimed = [(word, _CLAIMS[word]) for word in tokens if word in _CLAIMS]
    if "order" in tokens:  # "Invert the order of items": reversed, in other words
        claimed += [(f"{word} the order", "revers") for word in tokens if word in _INVERTING]
    if not claimed or (definition := node_definition(node)) is None:
        return ""
    # The classes it is defined in: "the sorted list" names a method's ``SortedList``.
    names = [*_own_names(definition), *(p.lower() for p in node.ref.full_name.split(".")[:-1])]
    for word, stem in claimed:
        if any(stem in name for name in names):
            continue
        if stem == "revers" and any(_reversing_slice(i) for i in own_nodes(definition.body)):
            continue
        return (
            f"it says {word!r}, but the code neither sorts nor reverses anything of its own; "
            "say what it does in the order it does it"
        )
    return ""
