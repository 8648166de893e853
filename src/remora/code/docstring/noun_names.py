"""A function named for the thing it returns is not described as doing its name.

``Namespace.signal(name)`` returns the ``Signal`` of that name, made on first use; "Signal
a named event." reads its name as a verb, and a blind reviewer rejected it as false ("it
sends nothing"). When the function's name is, case aside, the name of a class its module
defines or imports, and the function returns a value, the name is that noun: a summary
whose first word is the name, as a verb, is refused, and the model is asked to say what
comes back.
"""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import body_facts, node_definition
from remora.code.docstring.facts import word_tokens
from remora.code.parsing import SourceNode, ast_tree

__all__ = ["name_as_verb"]


def _class_names(text: str) -> set[str]:
    """The classes a module defines or imports, lowercased."""
    tree = ast_tree(text)
    if tree is None:
        return set()
    names = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    for item in ast.walk(tree):
        if isinstance(item, ast.ImportFrom):
            # A capitalised import is a class by the convention every style guide keeps.
            names |= {a.asname or a.name for a in item.names if a.name[:1].isupper()}
    return {name.lower() for name in names}


def name_as_verb(node: SourceNode, summary: str) -> str:
    """Why ``summary`` may not use the function's name as its verb ('' when it may)."""
    definition = node_definition(node)
    if definition is None or word_tokens(summary)[:1] != [definition.name.lower()]:
        return ""
    if definition.name.lower() not in _class_names(node.file.text):
        return ""
    if not body_facts(node).value_returns:
        return ""
    return (
        f"it reads {definition.name!r} as an action, but here it names a class, and "
        f"{definition.name} returns a value; say what it returns: 'Return the …'"
    )
