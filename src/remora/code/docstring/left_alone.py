"""Docstrings Remora leaves alone: those Python never shows, those the program reads,
and those a model's words add least to unless the user asks for them.

A property's setter and deleter share the getter's name: ``help()`` and the
property's ``__doc__`` show the getter's docstring, never theirs, and an
``@overload`` stub is replaced by the implementation. A docstring the program
reads at run time is part of its behaviour: a module that hands ``__doc__`` to
``argparse`` (``description=__doc__``) or docopt prints it as its ``--help``, a
class whose code reads ``self.__doc__`` or a function whose ``NAME.__doc__`` is
read does the same, and a click or typer command's docstring is its help text.
A new or changed docstring there changes what the program does. Each is read
from the module's ``ast``, never from the text.

Special methods (``__eq__``, ``__add__``, ``__init__``) mean what Python's data
model says they mean; the checks projects most often turn off are pydocstyle's
D105 and D107, and reviewers read a drafted "Add two durations" as noise at best
and, where the method also takes other types, as false. A module's docstring
sums up everything it holds, which a summary drafted from its first lines does
not. A class's summary says what the class is for, which its code does not show: its
methods do what they do, and what they add up to is the author's to say. Blind
reviewers merged 2 of 18 drafted class summaries as they were, and read the rest as
vague ("A class to handle executor events"), as another class's words or as false ("with
a fixed capacity"). All three are asked only when the operation's options say so
(``special_methods``, ``modules``, ``classes``).

What is not public is left alone too unless the option ``private`` asks: a name with a
leading underscore (``_helper``, a name-mangled ``__helper``, or any name inside a class
so named) and a function or class defined inside a function, which pydocstyle's D1
checks never ask to document either. A private helper's body is its documentation, and
blind reviewers rejected the drafts on them as noise (the body reworded) or as false.
A stub is left alone whatever the options: a function whose body (a docstring aside) is
only ``pass``, ``...`` or ``raise NotImplementedError``, or a class whose body is only
``pass`` or ``...``, holds nothing for a summary to rest on but its name, and the drafts
there described what the name suggested ("Iterate over the items" on a method that
only raises). So is one of several definitions of a name that an ``if`` or a ``try``
chooses between at import (``if sys.version < '3': def u(x): ...`` ``else: def u(x):
return x``, or a fallback under ``except ImportError``): a shim stands for the others,
and blind reviewers rejected each drafted summary as useless, one branch described, or
dead code documented. So is a function whose body only hands back one of its arguments, or
``self``, as it came (``def iterator(class_): return class_``, a visitor's
``visit_identity``, a merge strategy's ``return nxt``, a builder's ``return self``)
and that no decorator wraps: the line says all there is, and the drafts there invented a
purpose ("Return an iterator for the given class."); blind reviewers rejected 12 of the
14 labelled. So is a method that overrides a base class's method of the same module, or
of the project file the module imports the base from, when that one has a docstring
(``help()`` and Sphinx show it for the override) or is a stub (the base is the
interface; :mod:`.overrides`), and one whose standard library base documents the name
(a mapping's ``clear``: :mod:`.standard_bases`).
"""

from __future__ import annotations

import ast

from remora import python_ast
from remora.code.docstring.overrides import ImportedClass, overridden
from remora.code.docstring.standard_bases import standard_base_doc
from remora.code.parsing import (
    SourceNode,
    alternative_definitions,
    ast_definitions,
    ast_tree,
    decorator_name,
    is_stub,
    located_definition,
    per_node,
    per_text,
)

__all__ = ["left_alone", "never_shown_or_read", "not_public"]

# Decorators whose function's docstring becomes a command's help text (click's and typer's
# ``@command``/``@group``, as ``@click.command()`` or ``@app.command()``).
_HELP_DECORATORS = ("command", "group")


@per_text()
def _doc_reads(text: str) -> tuple[bool, frozenset[str]]:
    """(the module reads its own ``__doc__``, the names whose ``NAME.__doc__`` is read,
    with ``self``/``cls`` standing for the class they are read in); once per text."""
    tree = ast_tree(text)
    if tree is None:
        return False, frozenset()
    module = False
    names: set[str] = set()
    every = list(ast.walk(tree))
    classes = [
        (n, n.lineno, n.end_lineno or n.lineno) for n in every if isinstance(n, ast.ClassDef)
    ]
    for item in every:
        if isinstance(item, ast.Name) and item.id == "__doc__":
            module = True
        elif isinstance(item, ast.Attribute) and item.attr == "__doc__":
            owner = item.value
            if isinstance(owner, ast.Call) and decorator_name(owner) == "type" and owner.args:
                owner = owner.args[0]  # type(self).__doc__
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                inside = [c for c, start, end in classes if start <= item.lineno <= end]
                names |= {inside[-1].name} if inside else set()
            elif isinstance(owner, ast.Name):
                names.add(owner.id)
        elif isinstance(item, ast.Call) and decorator_name(item) == "getdoc" and item.args:
            names |= {item.args[0].id} if isinstance(item.args[0], ast.Name) else set()
    return module, frozenset(names)


def _special(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def left_alone(
    node: SourceNode,
    *,
    special_methods: bool = False,
    modules: bool = False,
    private: bool = False,
    classes: bool = False,
    imported: ImportedClass | None = None,
) -> str:
    """Why the node's docstring must not be written or changed ('' when it may be);
    ``special_methods``, ``modules``, ``private`` and ``classes`` (the operation's
    options) ask for those too; ``imported`` reads the bases the module imports from
    other files of the project (:mod:`.overrides`)."""
    why = never_shown_or_read(node)
    if why or node.definition is None:
        if not why and not modules:
            return "a module's docstring is written only on request (option modules: true)"
        return why
    if not classes and node.ref.node_type == "class":
        return "what a class is for is its author's to say (option classes: true)"
    if not special_methods and _special(node.ref.full_name.rsplit(".", 1)[-1]):
        return "a special method means what Python's data model says (option special_methods: true)"
    definition = _definition(node)
    if definition is None:
        return ""
    if not private and (hidden := not_public(node.file.text, node.ref.full_name, definition)):
        return f"{hidden}: documented only on request (option private: true)"
    if is_stub(definition):
        return "a stub: its body says nothing a summary could rest on but its name"
    bases = overridden(node.file.text, node.ref.full_name, imported)
    if shown := next(((o, m) for o, m in bases if ast.get_docstring(m)), None):
        return f"it overrides {shown[0]}.{shown[1].name}, whose docstring Python shows for it"
    if stub := next(((o, m) for o, m in bases if is_stub(m)), None):
        return f"it implements the stub {stub[0]}.{stub[1].name}: the interface is the base's"
    if standard := standard_base_doc(node.file.text, node.ref.full_name, imported):
        return f"it overrides {standard}.{definition.name}, whose docstring Python shows for it"
    if definition.lineno in alternative_definitions(node.file.text):
        return (
            f"one of the definitions of {definition.name!r} an if or a try chooses between "
            "at import: a shim for the others"
        )
    if handed_back := _hands_back(definition):
        return f"its body only hands {handed_back} back as it came: the line says all"
    return ""


def _hands_back(definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
    """The argument (or ``self``) an undecorated function's one statement returns as it
    came ('' when it does anything else)."""
    if isinstance(definition, ast.ClassDef) or definition.decorator_list:
        return ""
    body = python_ast.body_statements(definition)
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return ""
    value = body[0].value
    args = definition.args
    names = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    return value.id if isinstance(value, ast.Name) and value.id in names else ""


def _definition(node: SourceNode) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | None:
    if node.definition is None:
        return None
    line = node.file.positions[node.definition].start.line
    return located_definition(node.file.text, node.ref.full_name, line)


def not_public(
    text: str, full_name: str, definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
) -> str:
    """Why the definition is not public ('' when it is): a part of its name starts with an
    underscore (special names aside), or a function encloses it."""
    hidden = [p for p in full_name.split(".") if p.startswith("_") and not _special(p)]
    if hidden:
        return f"{hidden[0]!r} is private (a leading underscore)"
    end = definition.end_lineno or definition.lineno
    for outer in ast_definitions(text):
        inside = outer.lineno < definition.lineno and end <= (outer.end_lineno or outer.lineno)
        if inside and isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef):
            return f"it is defined inside the function {outer.name!r}"
    return ""


@per_node
def never_shown_or_read(node: SourceNode) -> str:
    """Why Python never shows the node's docstring or the program reads it ('' when not)."""
    module_reads, read_names = _doc_reads(node.file.text)
    if node.definition is None:
        if module_reads:
            return "the module reads its own __doc__ at run time (a help text): leave it"
        return ""
    line = node.file.positions[node.definition].start.line
    definition = located_definition(node.file.text, node.ref.full_name, line)
    if definition is None:
        return ""
    if definition.name in read_names:
        return f"the code reads {definition.name}.__doc__ at run time: leave it"
    for decorator in definition.decorator_list:
        name = decorator_name(decorator)
        if name in ("setter", "deleter"):
            return f"Python shows the property getter's docstring, never a {name}'s"
        if name == "overload":
            return "Python shows the implementation's docstring, never an @overload's"
        if name in _HELP_DECORATORS and isinstance(decorator, ast.Call | ast.Attribute):
            return f"its docstring is the help text of a command (@{name}): leave it"
    return ""
