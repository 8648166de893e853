"""A method that overrides one of a base class in its own module, and what that one holds.

``inspect.getdoc`` (so ``help()``) and Sphinx's autodoc show an override without a
docstring the docstring of the method it overrides: the interface is documented once, on
the base. Where the base's method is a stub (``raise NotImplementedError``), the base is
the interface and each override an implementation of it. pyjwt's ``Algorithm`` subclasses
(``prepare_key``, ``sign``, ``verify`` of HMAC, RSA, EC and EdDSA) were given one
interface sentence each ("Sign a message using the private key."), and blind reviewers
rejected seven of ten as restating the interface or as vague; what they wanted said is
what differs, which a summary drafted from one override does not know.
:func:`overridden` finds the bases' methods by the module's own classes (bases named
in it, walked depth first, left to right, through an override of an override:
``RSAPSSAlgorithm.sign`` reaches ``Algorithm.sign`` through ``RSAAlgorithm.sign``); a
base imported from elsewhere is not read.
Read with :mod:`ast`.
"""

from __future__ import annotations

import ast

from remora.code.parsing import ast_tree, per_text

__all__ = ["overridden"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


@per_text()
def _classes(text: str) -> dict[str, ast.ClassDef]:
    """The module's classes, by name: those of its body and of the ``if``, ``try`` and
    ``with`` blocks in it (``if has_crypto: class RSAAlgorithm(Algorithm): ...``), not
    those inside a function or a class; a later definition of a name wins."""
    tree = ast_tree(text)
    found: dict[str, ast.ClassDef] = {}
    waiting: list[ast.stmt] = list(tree.body) if tree is not None else []
    while waiting:
        statement = waiting.pop(0)
        if isinstance(statement, ast.ClassDef):
            found[statement.name] = statement
        elif isinstance(statement, ast.If | ast.With):
            waiting += [*statement.body, *getattr(statement, "orelse", [])]
        elif isinstance(statement, ast.Try):
            waiting += [*statement.body, *statement.orelse, *statement.finalbody]
            waiting += [s for handler in statement.handlers for s in handler.body]
    return found


def _base_names(definition: ast.ClassDef) -> list[str]:
    return [base.id for base in definition.bases if isinstance(base, ast.Name)]


def overridden(text: str, full_name: str) -> list[tuple[str, Function]]:
    """(a base class's name, its method) for each base defined in the same module that
    defines the method ``Class.name`` too, nearest first (``RSAPSSAlgorithm.sign``:
    ``RSAAlgorithm``'s, then ``Algorithm``'s stub); none when the node is no method of a
    module-level class or overrides nothing of the module."""
    owner, dot, name = full_name.partition(".")
    classes = _classes(text)
    if not dot or "." in name or owner not in classes:
        return []
    found: list[tuple[str, Function]] = []
    seen = {owner}
    waiting = _base_names(classes[owner])
    while waiting:
        base = waiting.pop(0)
        if base in seen or base not in classes:
            continue
        seen.add(base)
        for item in classes[base].body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == name:
                found.append((base, item))
        waiting = _base_names(classes[base]) + waiting
    return found
