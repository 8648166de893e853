"""A method that overrides one of a base class of its project, and what that one holds.

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
``RSAAlgorithm.sign``; a base imported from another file of the project is read there
when the caller can read the project (:data:`ImportedClass`). Read with :mod:`ast`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from remora.code.values.method_state import ancestors, classes_by_name, own_methods

__all__ = ["ImportedClass", "overridden"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


# ``name -> (the text of the project module that defines it, its name there)`` for a class
# the node's module imports from another file of the project (None: not one).
ImportedClass = Callable[[str], tuple[str, str] | None]


def overridden(
    text: str, full_name: str, imported: ImportedClass | None = None
) -> list[tuple[str, Function]]:
    """(a base class's name, its method) for each base defined in the same module that
    defines the method ``Class.name`` too (an ``@overload``ed name: its implementation),
    nearest first (``RSAPSSAlgorithm.sign``: ``RSAAlgorithm``'s, then ``Algorithm``'s
    stub); none when the node is no method of a class of the module's or overrides nothing
    of the module. With ``imported``, a base the module imports from another file of the
    project is read there too, with its own ancestors of that file (jsonpickle's
    handlers subclass ``BaseHandler`` of ``handlers.py``, whose ``flatten`` is a stub)."""
    owner, dot, name = full_name.partition(".")
    classes = classes_by_name(text)
    if not dot or "." in name or owner not in classes:
        return []
    chain = [classes[owner], *ancestors(classes[owner], classes)]
    found = [(c.name, m) for c in chain[1:] if (m := own_methods(c).get(name)) is not None]
    if imported is None:
        return found
    for cls in chain:
        for base in cls.bases:
            if not isinstance(base, ast.Name) or base.id in classes:
                continue
            if (there := imported(base.id)) is None:
                continue
            their = classes_by_name(there[0])
            if (top := their.get(there[1])) is None:
                continue
            for c in [top, *ancestors(top, their)]:
                if (method := own_methods(c).get(name)) is not None:
                    found.append((c.name, method))
    return found
