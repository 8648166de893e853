"""A summary of a function that only hands back a function it defines, held to the code.

``def increment(field): def transform(doc): doc[field] += 1; return transform``
changes nothing when it is called: it returns an operation that a caller applies
later. "Increment the value of a field by 1." tells a reader that the call does it,
and blind reviewers sent every such draft back ("it returns a transform rather than
incrementing anything itself"). When every value the function returns is a function
it makes (a nested ``def``, a ``lambda``, a ``functools.partial``), the summary has to say
that something is handed back: a returning verb first ("Return …", "Make …", "Build …";
"Parse a path and return a splitter" says the call parses), or a word for what comes back
as its subject ("A decorator that …"; "Connect a function to a sender" names the
argument, and says the call connects). Otherwise it is refused, and the model is asked to
say what the call returns.
"""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import body_facts, node_definition
from remora.code.docstring.facts import word_tokens
from remora.code.parsing import SourceNode
from remora.code.values.annotations import dotted_name

__all__ = ["unsaid_returned_function"]

_Function = ast.FunctionDef | ast.AsyncFunctionDef

# Verbs by which a summary says that the call hands something back, as its first word.
_RETURNING_VERBS = frozenset(
    {
        *("return", "returns", "get", "gets", "make", "makes", "build", "builds"),
        *("create", "creates", "produce", "produces", "generate", "generates"),
        *("construct", "constructs", "wrap", "wraps", "decorate", "decorates"),
    }
)
# Words for what it hands back, anywhere in the summary.
_RETURNED_THINGS = frozenset(
    {
        *("function", "functions", "callable", "callables", "operation", "operations"),
        *("factory", "closure", "lambda", "hook", "callback", "handler", "wrapper"),
        *("predicate", "transform", "transformation", "transformer", "decorator"),
    }
)


# The calls that make a function of another (``partial(do_decoding, encoding=encoding)``).
_PARTIALS = frozenset({"partial", "functools.partial"})


def _is_function(value: ast.expr, nested: set[str]) -> bool:
    """A lambda, a function the node defines, or ``partial(...)`` of one."""
    if isinstance(value, ast.Lambda) or (isinstance(value, ast.Name) and value.id in nested):
        return True
    return isinstance(value, ast.Call) and dotted_name(value.func) in _PARTIALS


def _returns_only_functions(definition: _Function, returned: tuple[ast.expr, ...]) -> bool:
    """Whether every value ``definition`` returns is a function it makes (a lambda, one it
    defines itself, a ``partial``), and it returns one at all."""
    nested = {item.name for item in ast.walk(definition) if isinstance(item, _Function)}
    nested.discard(definition.name)
    return bool(returned) and all(_is_function(value, nested) for value in returned)


def unsaid_returned_function(node: SourceNode, summary: str) -> str:
    """Why ``summary`` may not describe the node as doing what the function it returns
    does ('' when the node returns something else, or the summary says it returns)."""
    tokens = word_tokens(summary)
    # The subject: a noun first, or a noun phrase after an article ("A picker function …").
    subject = tokens[1:4] if tokens[:1] in (["a"], ["an"], ["the"]) else tokens[:1]
    if (tokens[:1] and tokens[0] in _RETURNING_VERBS) or _RETURNED_THINGS.intersection(subject):
        return ""
    definition = node_definition(node)
    if definition is None:
        return ""
    facts = body_facts(node)
    if not _returns_only_functions(definition, facts.returned):
        return ""
    return (
        f"it describes what {definition.name} does when called, but {definition.name} only "
        "returns a function it defines, which does that later; say what it returns: "
        "'Return a function that …'"
    )
