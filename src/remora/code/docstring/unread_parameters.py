"""A summary that gives a parameter a role the code does not give it describes other code.

"Override the strategy based on the path and base lists." on a strategy whose body is
``return nxt``: ``path`` and ``base`` are in the signature only to fit the interface, and
the summary invents what they do (blind reviewers: "path is unused"; "the method ignores
both"). A summary of a function or method that names one of its own parameters (as a
word, or its words in a row: ``base_path`` as "base path") as an input, a few words after
"based on", "using", "by", "from", "with", "given", and nothing in its body reads it
(a logging call's arguments aside: they change nothing the caller gets), is refused,
unless it says the parameter is left alone ("ignoring", "unused", "whatever"). "Return
nxt in place of base" gives ``base`` no part, and stands. A body that
hands its whole frame on (``locals()``, ``vars()``) may read it there: nothing is refused.
``*args`` and ``**kwargs`` count when the summary names them as they are called:
"Return the maximum value from the given sequences." on textdistance's
``maximum(self, *sequences)``, whose body is ``return 1`` (blind reviewers: "ignores its
arguments and always returns the constant 1"; five such methods, all read as false).

A parameter is the caller's choice: a summary that calls one random or arbitrary ("Yield a
joke from a random language and category." of ``forever(language, category)``, which
hands both on as they came; only the joke is picked at random) says the code picks what
its caller gives, and is refused (:func:`chosen_by_chance`).

The definition is read from ``ast``, nested functions included (a closure reads what its
parameters' names say); the summary's words are prose, read as words.
"""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import node_definition
from remora.code.docstring.facts import word_tokens
from remora.code.parsing import SourceNode
from remora.code.values.named_values import name_words

__all__ = ["chosen_by_chance", "named_unread"]

# Words by which a summary says a parameter plays no part.
_LEFT_ALONE = frozenset(
    {"ignore", "ignores", "ignoring", "ignored", "unused", "regardless", "whatever"}
)
_FRAME_READERS = frozenset({"locals", "vars"})
# Words that make what follows an input of the code ("based on the path and base lists"),
# and how many words before the parameter's they may stand.
_RELYING = frozenset(
    {"on", "using", "uses", "use", "by", "from", "with", "according", "depending", "via"}
    | {"among", "between", "across", "given"}
)
_REACH = 4
_LOG_LEVELS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "log"}
)
# Words saying the code picks a value itself, and the words that end what they qualify.
_BY_CHANCE = frozenset({"random", "randomly", "arbitrary"})
_PHRASE_ENDS = frozenset(
    str.split("from of in to for with that which by on at as if when where while is are")
)


def _relied_on(tokens: list[str], parameter: str) -> bool:
    """Whether the summary's words name ``parameter`` (the name itself, or its words in a
    row) a few words after one that makes it an input ("based on", "using", "by")."""
    words = name_words(parameter)  # in order: base_path is "base path"
    for length, wanted in ((1, [parameter.lower()]), (len(words), words)):
        for at in range(len(tokens) - length + 1):
            if tokens[at : at + length] == wanted and _RELYING.intersection(
                tokens[max(0, at - _REACH) : at]
            ):
                return True
    return False


def _reads(statements: list[ast.stmt]) -> set[str]:
    """The names the statements read, but for those only a logging call reads
    (``LOG.info("parent = %s" % parent)`` uses nothing: dicttoxml's ``default_item_func``,
    "Return a default item for the given parent.", returns ``'item'`` whatever it is given)."""
    found: set[str] = set()
    waiting: list[ast.AST] = list(statements)
    while waiting:
        item = waiting.pop()
        if _logging_call(item):
            continue
        if isinstance(item, ast.Name) and isinstance(item.ctx, ast.Load):
            found.add(item.id)
        waiting.extend(ast.iter_child_nodes(item))
    return found


def _logging_call(node: ast.AST) -> bool:
    """``LOG.info(...)``, ``logger.debug(...)``, ``logging.warning(...)``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _LOG_LEVELS
        and isinstance(node.func.value, ast.Name)
        and "log" in node.func.value.id.lower()
    )


def _named(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The parameters a caller names (``*args`` and ``**kwargs`` aside)."""
    args = definition.args
    return [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]


def named_unread(node: SourceNode, summary: str) -> str:
    """Why ``summary`` names a parameter the code never reads ('' when it names none)."""
    definition = node_definition(node)
    tokens = word_tokens(summary)
    if definition is None or _LEFT_ALONE.intersection(tokens):
        return ""
    named = _named(definition)
    named += [a.arg for a in (definition.args.vararg, definition.args.kwarg) if a is not None]
    read = _reads(definition.body)
    if read & _FRAME_READERS:  # ``locals()``: every parameter handed on
        return ""
    unread = [p for p in named if p not in read and p not in ("self", "cls")]
    for parameter in unread:
        if _relied_on(tokens, parameter):
            return (
                f"it gives {parameter!r} a part, but {definition.name} never reads it; "
                "say what the code does with what it reads"
            )
    return ""


def chosen_by_chance(node: SourceNode, summary: str) -> str:
    """Why ``summary`` calls one of the node's parameters random ('' when it calls none)."""
    definition = node_definition(node)
    if definition is None:
        return ""
    named = {name.lower() for name in _named(definition)} - {"self", "cls"}
    tokens = word_tokens(summary)
    for at, token in enumerate(tokens):
        if token not in _BY_CHANCE:
            continue
        for word in tokens[at + 1 :]:
            if word in _PHRASE_ENDS:
                break
            if word in named:
                return (
                    f"it calls {word!r} {token}, but the caller passes it to "
                    f"{definition.name}; say what the code picks and from what"
                )
    return ""
