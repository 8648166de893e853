"""A method its class's ``__init__`` calls without arguments gets no test of its own (issue 56).

``def __init__(self, var): self.original = var; ...; self.parse()``: every instance a
test builds has run ``parse()`` already, so a test that calls it again pins what a
second run does to state the first one filled (the variables appended twice), a
maintainer reads that as a bug presented as intended, and a correct fix (an
idempotent ``parse``) fails the test. Blind reviewers rejected such tests of a
parser's ``parse()`` and a table's ``reset()``. The step's behaviour is what the
constructor leaves, which the class's own tests pin. Only a call in ``__init__``'s
own body, a statement of its own (not under a condition), with no argument but the
instance, makes a step: a setter ``__init__`` calls with a value
(``self.set_width(80)``) is still called with other values by its users. Read with
:mod:`ast`.
"""

from __future__ import annotations

import ast

from remora.code.parsing import ast_tree
from remora.code.values.private_helpers import qualified_functions

__all__ = ["construction_step_reason"]


def construction_step_reason(module_text: str, qualname: str) -> str | None:
    """Why the method ``qualname`` gets no test: its class's ``__init__`` calls it, without
    arguments, as a step of building every instance; None otherwise."""
    owner, _, name = qualname.rpartition(".")
    tree = ast_tree(module_text)
    if not owner or name == "__init__" or tree is None:
        return None
    init = qualified_functions(tree).get(f"{owner}.__init__")
    if init is None or not init.args.args:
        return None
    instance = init.args.args[0].arg
    for statement in init.body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id == instance
            and call.func.attr == name
            and not call.args
            and not call.keywords
        ):
            return (
                f"{owner}.__init__ calls it to build every instance: a test calling it again "
                "would pin a second run; the constructor's tests pin what it leaves"
            )
    return None
