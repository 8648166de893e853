"""A class's constructor parameters by its name: of the node's module, or of a project
module it imports the class from (``from shop.models import Product``), read the same way
(:mod:`remora.code.values.constructor`); nothing is imported or run.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from remora.code.context import CodeContext
from remora.code.import_paths import package_of
from remora.code.parsing import per_text
from remora.code.values.constructor import parsed_classes
from remora.code.values.parameters import Parameter
from remora.code.values.project_imports import imported_names, plain_imports, project_module_text
from remora.code.values.type_aliases import module_aliases, resolved_parameters

__all__ = ["class_lookup", "project_class_lookup"]


def class_lookup(source: str) -> Callable[[str], list[Parameter] | None]:
    """``name -> constructor parameters`` for the classes of ``source`` (None: not one of them),
    their annotations' aliases of that module put in.

    A module ast cannot parse (newer syntax than this Python reads) has no classes to offer.
    """
    try:
        module = parsed_classes(source)
    except ValueError:
        return lambda _name: None

    def lookup(name: str) -> list[Parameter] | None:
        cls = module.classes.get(name)
        if cls is None:
            return None
        parameters = list(module.constructor(cls).parameters)
        return resolved_parameters(parameters, _aliases(source))

    return lookup


# Once per text: a lookup of an imported class reads its module again for each class.
@per_text(max_entries=16)
def _aliases(source: str) -> dict[str, str]:
    """The module's aliases (``selector: Tree``, ``Tree = Union[...]`` there)."""
    return module_aliases(parsed_classes(source).tree)


def project_class_lookup(context: CodeContext) -> Callable[[str], list[Parameter] | None]:
    """Like :func:`class_lookup` for the node's file, and also for classes it imports from
    other files of the project (``from shop.models import Product``), or names through a
    module it imports (``shop.models.Product`` after ``import shop.models``), read the
    same way."""
    node = context.bound_node()
    text = context.node_file_text()
    local = class_lookup(text)
    try:
        tree = parsed_classes(text).tree
    except ValueError:
        tree = ast.Module(body=[], type_ignores=[])
    imported = imported_names(tree, package_of(context, node.file_path))
    heads = {module.split(".")[0] for module in plain_imports(tree)}

    def lookup(name: str) -> list[Parameter] | None:
        found = local(name)
        if found is not None:
            return found
        module, _, original = name.rpartition(".")
        if name in imported:
            module, original = imported[name]
        elif module.split(".")[0] not in heads:
            return None
        their_text = project_module_text(context, module)
        return class_lookup(their_text)(original) if their_text is not None else None

    return lookup
