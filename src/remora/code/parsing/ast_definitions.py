"""A file's ``ast`` definitions, once per text, and the one a node names (by name and line).

The ``ast`` view of a node, beside LibCST's (:mod:`.source`): what the probes and
checks that read the standard tree ask for.
"""

from __future__ import annotations

import ast

from remora.code.parsing.text_cache import ast_tree, per_text

__all__ = ["Defined", "ast_definitions", "located_definition"]

Defined = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


# Once per text: every run's prompt looks its node up among the file's definitions, a walk
# of the whole file each time (2.7% of a docstring run on click).
@per_text()
def ast_definitions(text: str) -> tuple[Defined, ...]:
    tree = ast_tree(text)
    return () if tree is None else tuple(n for n in ast.walk(tree) if isinstance(n, Defined))


def located_definition(text: str, full_name: str, line: int) -> Defined | None:
    """The ``ast`` definition of ``full_name`` whose decorator or ``def``/``class`` line is
    ``line`` (None when the text does not parse or has no such definition)."""
    short = full_name.rsplit(".", 1)[-1]
    for node in ast_definitions(text):
        start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        if node.name == short and line in (start, node.lineno):
            return node
    return None
