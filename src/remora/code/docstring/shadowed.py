"""A summary that gives the meaning of the builtin a definition's name shadows.

A module function called like a builtin (``def len(...)``, ``def open(...)``) does its own
thing under a name a model knows well, and a small model writes the builtin's meaning
("Return the number of items in ...") whatever the body computes. A function's or class's
text that says what the builtin's own docstring says is refused, unless every value the
body returns is a call of that builtin (``return builtins.len(x)``): a wrapper may say it.
"""

from __future__ import annotations

import ast
import builtins
import inspect

from remora.code.docstring.behaviour import body_facts
from remora.code.docstring.facts import word_tokens
from remora.code.docstring.vocabulary import stem
from remora.code.parsing import SourceNode

__all__ = ["builtin_meaning"]

# A run this long of the builtin docstring's words is its meaning, not a coincidence.
_SHARED_RUN = 4
# Words too common to count as what the builtin means.
_COMMON = frozenset(
    str.split("a an the of in on to for from and or with by as is it its this that given")
)


def _builtin_line(name: str) -> str:
    """The first line of the builtin's docstring that is not its signature ('' if none)."""
    doc = inspect.getdoc(getattr(builtins, name)) or ""
    for paragraph in doc.split("\n\n"):
        line = " ".join(paragraph.split())
        if line and not line.startswith(name + "("):
            return line
    return ""


def _says_the_same(text: str, line: str) -> bool:
    """A run of _SHARED_RUN words of ``line``, or three of every four content words its."""
    theirs = word_tokens(line)
    runs = {tuple(theirs[i : i + _SHARED_RUN]) for i in range(len(theirs) - _SHARED_RUN + 1)}
    ours = word_tokens(text)
    if any(tuple(ours[i : i + _SHARED_RUN]) in runs for i in range(len(ours))):
        return True
    content = [stem(w) for w in ours if w not in _COMMON and not w.isdigit()]
    shared = [w for w in content if w in {stem(t) for t in theirs}]
    return len(shared) >= 2 and 4 * len(shared) >= 3 * len(content)


def _wraps(node: SourceNode, name: str) -> bool:
    """Every value the body returns is ``builtins.<name>(...)``."""
    returned = body_facts(node).returned
    return bool(returned) and all(
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id == "builtins"
        and value.func.attr == name
        for value in returned
    )


def builtin_meaning(node: SourceNode, text: str) -> str:
    """Why ``text`` gives the meaning of the builtin the node's name shadows ('' if not)."""
    if node.ref.node_type not in ("function", "class"):
        return ""  # a method or a module shadows no builtin
    name = node.ref.full_name.split(".")[-1]
    if name.startswith("_") or not hasattr(builtins, name):
        return ""
    line = _builtin_line(name)
    if not line or not _says_the_same(text, line):
        return ""
    if node.ref.node_type == "function" and _wraps(node, name):
        return ""
    return (
        f"it gives the meaning of the builtin {name}() that this {node.ref.node_type} "
        f"shadows ({line[:60]!r}), not what its own body computes; say what the code does"
    )
