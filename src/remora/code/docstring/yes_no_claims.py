"""A summary that says the code answers yes or no, held to what the code returns.

"Check if the first 9 digits of a number are valid." on a function that returns ``''``
or the check digit it computes, "Check if the pattern matches a segment of the star
pattern." on a method that returns the pattern rewritten by ``re.sub``: a small model
reads a name (``check_digit10``, ``star_not_empty``) as a question, and blind reviewers
rejected both as false. A summary that opens by asking ("Check if/whether/that …",
"Test/Determine/Decide if …", "Whether …", "Return True if …", "Return whether …")
claims a truth value, or a check that raises. It is refused when the code returns a value
and every value it returns shows another kind: text (a string literal, an f-string, a
call that makes text: ``re.sub``, ``str.join``, ``.replace``, ``.format``, ``str()``), a
number, or a collection (a display, a comprehension, ``list()``, ``sorted()``), with no
``True``, ``False``, comparison, ``not`` or ``bool()`` among them. A question ("Check
if …", "Whether …", not "Check that …") is refused too on code that returns no value at
all, neither a generator nor a ``return`` of one: it raises, records or does nothing with
what it finds. Reviewers read "Check if the value is of the correct type" on such a
function as a boolean answer: on the eight projects labelled last, all five such
summaries were edited or rejected ("suggests a boolean result, but the function returns
nothing and raises"), while those saying "Validate …" were merged. Read with :mod:`ast`
through the body's facts.
"""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import body_facts, node_definition
from remora.code.docstring.facts import word_tokens
from remora.code.parsing import SourceNode, decorator_name
from remora.python_ast import own_nodes

__all__ = ["unanswered_question"]

_ASKING = frozenset({"check", "checks", "test", "tests", "determine", "determines", "decide"})
_QUESTION = frozenset({"if", "whether", "that"})
_RETURNING = frozenset({"return", "returns"})
# Calls whose result is text, a number or a collection, never a truth value.
_NOT_TRUTH_CALLS = frozenset(
    str.split("""sub join replace format strip lstrip rstrip lower upper title
    capitalize casefold str repr int float len list tuple dict set sorted encode decode""")
)
_NOT_TRUTH_SHAPES = (
    ast.JoinedStr,
    ast.List,
    ast.ListComp,
    ast.Dict,
    ast.DictComp,
    ast.Set,
    ast.SetComp,
    ast.Tuple,
)


def _asks(words: list[str]) -> bool:
    """The summary opens with a yes-or-no question (see the module's docstring)."""
    if words[:1] == ["whether"]:
        return True
    if words[:1] and words[0] in _ASKING:
        return len(words) > 1 and words[1] in _QUESTION
    if words[:1] and words[0] in _RETURNING and len(words) > 1:
        return words[1] in ("true", "whether")
    return False


def _not_a_truth(expression: ast.expr) -> bool:
    """Whether a returned expression visibly holds something other than a truth value."""
    if isinstance(expression, _NOT_TRUTH_SHAPES):
        return True
    if isinstance(expression, ast.Constant):
        return expression.value is not None and not isinstance(expression.value, bool)
    if isinstance(expression, ast.BinOp):
        return True  # arithmetic, or text put together
    if isinstance(expression, ast.Call):
        return decorator_name(expression) in _NOT_TRUTH_CALLS
    return False


def _procedure(node: SourceNode) -> bool:
    """Whether the function returns no value: no ``return`` of one, no ``yield``."""
    definition = node_definition(node)
    facts = body_facts(node)
    if definition is None or not facts.readable or facts.returned:
        return False
    own = own_nodes(definition.body)
    return not any(isinstance(n, ast.Yield | ast.YieldFrom) for n in own)


def unanswered_question(node: SourceNode, summary: str) -> str:
    """Why ``summary``'s yes-or-no question is not what the node answers ('' when it may
    be, or when the summary asks none)."""
    words = word_tokens(summary)
    if node.ref.node_type not in ("function", "method") or not _asks(words):
        return ""
    if words[1:2] != ["that"] and _procedure(node):
        return (
            "it asks a yes-or-no question, but the code returns nothing: say what it "
            "does with what it finds (raises, records, sets)"
        )
    returned = body_facts(node).returned
    if not returned or not all(_not_a_truth(expression) for expression in returned):
        return ""
    return (
        f"it says the code answers yes or no, but what it returns is not a truth value "
        f"(`{ast.unparse(returned[0])}`); say what it returns"
    )
