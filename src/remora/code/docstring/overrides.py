"""A method that overrides one of a base class in its own module, and what that one holds.

``inspect.getdoc`` (so ``help()``) and Sphinx's autodoc show an override without a
docstring the docstring of the method it overrides: the interface is documented once, on
the base. Where the base's method is a stub (``raise NotImplementedError``), the base is
the interface and each override an implementation of it. pyjwt's ``Algorithm`` subclasses
(``prepare_key``, ``sign``, ``verify`` of HMAC, RSA, EC and EdDSA) were given one
interface sentence each ("Sign a message using the private key."), and blind reviewers
rejected seven of ten as restating the interface or as vague; what they wanted said is
what differs, which a summary drafted from one override does not know.
:func:`overridden` finds the bases' methods among the module's own classes (those under
an ``if`` or a ``try`` too: ``if has_crypto: class RSAAlgorithm(Algorithm): ...``), in the
order Python looks a name up (:func:`~remora.code.values.method_state.ancestors`), through
an override of an override: ``RSAPSSAlgorithm.sign`` reaches ``Algorithm.sign`` through
``RSAAlgorithm.sign``; a base imported from elsewhere is not read. Read with :mod:`ast`.
"""

from __future__ import annotations

import ast

from remora.code.values.method_state import ancestors, classes_by_name, own_methods

__all__ = ["overridden"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


def overridden(text: str, full_name: str) -> list[tuple[str, Function]]:
    """(a base class's name, its method) for each base defined in the same module that
    defines the method ``Class.name`` too (an ``@overload``ed name: its implementation),
    nearest first (``RSAPSSAlgorithm.sign``: ``RSAAlgorithm``'s, then ``Algorithm``'s
    stub); none when the node is no method of a class of the module's or overrides nothing
    of the module."""
    owner, dot, name = full_name.partition(".")
    classes = classes_by_name(text)
    if not dot or "." in name or owner not in classes:
        return []
    return [
        (base.name, method)
        for base in ancestors(classes[owner], classes)
        if (method := own_methods(base).get(name)) is not None
    ]
