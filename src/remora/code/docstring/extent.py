"""Which items and how many a summary says the code handles, held to the code.

A position ("the first", "the last") is something code picks: by an index or a slice
(``items[0]``, ``parts[-1]``, ``[1:]``), by a call that takes one end or finds one
place (``next``, ``pop``, ``index``, ``min``, ...), by a loop it leaves at the first
match (``return`` or ``break`` inside it), or through a name that says where (``head``,
``tail``, ``start``, ``end``, ``prev``). A summary of a function or method that speaks
of the first or the last of something where its own code shows none of these describes
other code, or a guess ("Return every score but the first." on a method that filters
all scores alike), and is refused. So is one whose code picks only the other end: "the
last occurrence" where the code finds the first (``bisect_left``, ``index``, ``[0]``, a
loop it leaves at the first match) and shows nothing of the last (``[-1]``, ``rindex``,
``bisect_right``, ``pop()``, a name such as ``tail``); a pick that may take either end
(``pop(i)``, ``min``, a slice, ``reversed``) lets both stand. "The first argument" speaks
of the signature's order, which the code need not pick, and stays.

A parameter that counts how often the body repeats (``for _ in range(n)``) is what a
call is about: a summary that names neither it, nor anything in the plural ("nodes",
"cards"), nor a count ("the number of", "times") speaks of one item where the call
handles ``n`` ("Deal a card from the deck." on ``deal(count)``), and is refused.

Both read the node's own statements from ``ast`` (nested definitions are their own
nodes); the summary's words are prose, read as words.
"""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import node_definition
from remora.code.docstring.facts import name_words, word_tokens
from remora.code.docstring.vocabulary import stem
from remora.code.parsing import SourceNode
from remora.code.values.annotations import called_name
from remora.python_ast import own_nodes

__all__ = ["uncounted_repeats", "unpicked_position"]

_POSITIONS = frozenset({"first", "last"})
# "the last item", "its first part": a position claimed of something.
_BEFORE_POSITION = frozenset({"the", "its", "their"})
# "the first argument": the order of the signature, not a place the code picks.
_SIGNATURE_WORDS = frozenset(
    {"argument", "arguments", "parameter", "parameters", "operand", "operands", "positional"}
)
# Calls that take one end of a sequence or find one place in it.
_POSITION_CALLS = frozenset(
    str.split("""next pop popleft popitem appendleft insert index rindex find rfind startswith
    endswith split rsplit partition rpartition min max sorted reversed bisect bisect_left
    bisect_right peek""")
)
# Words of a name that say where in a sequence it is.
_POSITION_NAMES = frozenset(
    str.split("""first last head tail front back rear start end begin beginning top bottom prev
    previous next final initial leading trailing latest earliest oldest newest""")
)
# The calls and the names that show one end; the other position calls and names may take
# either (``min``, ``insert``, ``sorted``, ``next`` of a name, ``top``).
_FIRST_CALLS = frozenset(str.split("next index find startswith bisect_left popleft appendleft"))
_LAST_CALLS = frozenset(str.split("rindex rfind endswith bisect_right rsplit rpartition"))
_FIRST_NAMES = frozenset(
    str.split("first head front start begin beginning initial leading earliest oldest")
)
_LAST_NAMES = frozenset(str.split("last tail back rear end final trailing latest newest"))
# A summary's words for more than one, beyond plurals: "the given number of", "n times".
_COUNT_WORDS = frozenset({"number", "count", "times", "many", "several", "amount"})
# Words that end in s without being plurals.
_NOT_PLURAL = frozenset({"does", "always", "perhaps", "towards", "whereas", "besides"})
_LOOPS = (ast.For, ast.AsyncFor, ast.While)

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _parameters(definition: Function) -> list[str]:
    args = definition.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    return [a.arg for a in every]


def _fixed_place(index: ast.expr) -> bool:
    """``[0]``, ``[-1]``, ``[2]``, or any slice: a place in the sequence, not a key."""
    if isinstance(index, ast.Slice):
        return True
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
        index = index.operand
    return isinstance(index, ast.Constant) and type(index.value) is int


def _place_end(index: ast.expr) -> str:
    """Which end a fixed place is at: ``[0]``, ``[2]`` "first", ``[-1]`` "last", a slice
    "either"."""
    if isinstance(index, ast.Slice):
        return "either"
    return "last" if isinstance(index, ast.UnaryOp) else "first"


def _call_end(call: ast.Call) -> str:
    """Which end a position call takes: ``pop()`` the last, ``pop(0)`` the first."""
    name = called_name(call)
    if name == "pop" and not call.args:
        return "last"
    if name == "pop" and isinstance(call.args[0], ast.Constant) and call.args[0].value == 0:
        return "first"
    return "first" if name in _FIRST_CALLS else "last" if name in _LAST_CALLS else "either"


def _picked_ends(definition: Function) -> set[str]:
    """The ends the code shows it picks (see the module's docstring): "first", "last",
    "either"; empty where it picks no position."""
    words = name_words(definition.name)
    for parameter in _parameters(definition):
        words |= name_words(parameter)
    ends: set[str] = set()
    for item in own_nodes(definition.body):
        if isinstance(item, ast.Subscript) and _fixed_place(item.slice):
            ends.add(_place_end(item.slice))
        elif isinstance(item, ast.Call) and called_name(item) in _POSITION_CALLS:
            ends.add(_call_end(item))
        elif isinstance(item, _LOOPS) and any(
            isinstance(inner, ast.Return | ast.Break) for inner in own_nodes(item.body)
        ):
            ends.add("first")
        elif isinstance(item, ast.Name):
            words |= name_words(item.id)
        elif isinstance(item, ast.Attribute):
            words |= name_words(item.attr)
    named = words & _POSITION_NAMES
    ends |= {"first" for w in named if w in _FIRST_NAMES}
    ends |= {"last" for w in named if w in _LAST_NAMES}
    return ends | ({"either"} if named - _FIRST_NAMES - _LAST_NAMES else set())


def _claimed_position(summary: str) -> str:
    """The position the summary claims ('' when none): "first" or "last" after "the"."""
    tokens = word_tokens(summary)
    for at, token in enumerate(tokens):
        if token not in _POSITIONS or at == 0 or tokens[at - 1] not in _BEFORE_POSITION:
            continue
        after = tokens[at + 1] if at + 1 < len(tokens) else ""
        if after in _SIGNATURE_WORDS or after.endswith("ed"):  # "the last modified time"
            continue
        return token
    return ""


def unpicked_position(node: SourceNode, summary: str) -> str:
    """Why ``summary`` claims a position the function's code never picks ('' if it does not)."""
    definition = node_definition(node)
    if definition is None or not (claimed := _claimed_position(summary)):
        return ""
    ends = _picked_ends(definition)
    if not ends:
        return (
            f"it speaks of the {claimed} one, but the code picks no position (no index, end "
            "or early exit); say what it does with every item"
        )
    if ends & {claimed, "either"}:
        return ""
    other = "first" if claimed == "last" else "last"
    return f"it speaks of the {claimed} one, but the code picks the {other}; say which it takes"


def _repeat_counts(definition: Function) -> list[str]:
    """The parameters the body repeats by: an argument of ``range(…)``, alone or in a sum."""
    parameters = set(_parameters(definition)) - {"self", "cls"}
    found: list[str] = []
    for item in own_nodes(definition.body):
        if not (isinstance(item, ast.Call) and called_name(item) == "range"):
            continue
        for argument in item.args:
            sides = [argument.left, argument.right] if isinstance(argument, ast.BinOp) else []
            for side in [argument, *sides]:
                if isinstance(side, ast.Name) and side.id in parameters and side.id not in found:
                    found.append(side.id)
    return found


def _speaks_of_many(tokens: list[str], count: str) -> bool:
    own = {stem(w) for w in name_words(count)} | {count.lower()}
    for token in tokens:
        if token in own or stem(token) in own or token in _COUNT_WORDS or token.isdigit():
            return True
        if (
            len(token) >= 4
            and token.endswith("s")
            and not token.endswith(("ss", "us", "is"))
            and token not in _NOT_PLURAL
        ):
            return True
    return False


def uncounted_repeats(node: SourceNode, summary: str) -> str:
    """Why ``summary`` speaks of one item where the body repeats by a parameter ('' if not)."""
    definition = node_definition(node)
    if definition is None:
        return ""
    tokens = word_tokens(summary)
    for count in _repeat_counts(definition):
        if not _speaks_of_many(tokens, count):
            return (
                f"it speaks of one item, but the body repeats {count} times "
                f"(range({count})); say what it does {count} times"
            )
    return ""
