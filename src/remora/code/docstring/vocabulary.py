"""The words prose about a node may use, and the nouns it may not borrow.

A summary's subject and objects are the node's own: its name, its parameters,
the attributes it reads and writes, the names it calls, what its class is and
holds, and its module's name. A small model shown documented code as the style
copies that code's nouns ("Calculate the total value of the order." on a method
of a class that holds no order, the order coming from a neighbour's docstring;
"the stack" from the fixed examples' class). The nouns a project names are its
classes: a summary word that is a word of a class named in the node's module,
its folder's other files or the style examples (defined or imported there),
and none of the node's own words (nor a general word of English or of
programming), is borrowed and refused by :mod:`remora.code.docstring.claims`.
A word that names nothing in sight ("variance", "shell") is the model's
description, not a borrowed noun, and stays. Words are compared by a light stem
("warehouses" is "warehouse", "reordered" is "reorder"), never by a prefix
("order" is not "reorder").

A word for where data lives outside the program (a file, a directory, a database, the
network, a configuration) is a claim about what the code touches:
"Return the path of the file." on a property that joins a pointer's parts invents a
file. Such a word is kept only when the node's own words name it, or, for a file or a
directory, when the body reads or writes (``open``, ``read*``, ``write*`` calls); else it
is refused by :mod:`remora.code.docstring.claims` like a borrowed noun. So is a word for a
condition the code would have to show (an overflow, a timeout, a thread) that
none of the node's own words names.
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from remora.code.docstring.behaviour import body_facts, node_definition
from remora.code.docstring.facts import code_facts, name_words, word_tokens
from remora.code.parsing import SourceNode, ast_definitions, ast_tree, per_node, per_text

__all__ = [
    "FUNCTION_STEMS",
    "GENERAL_STEMS",
    "class_nouns",
    "foreign_words",
    "matches_word",
    "own_stems",
    "stem",
    "subject_stems",
    "unfounded_places",
]


def _listed(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Words that carry no subject: articles, pronouns, prepositions, conjunctions, auxiliaries.
_FUNCTION_WORDS = _listed(
    """a an the this that these those each every all any some no none not its it itself
    their they them one two three four five first second last next other another both either
    neither such same own of to in on at by for from with without into onto over under about
    above below between within across through after before during until upon via per than then
    and or but nor so if else when whenever where whether while unless because as is are was
    were be been being has have had do does did can could may might must shall should will
    would there here which who whom whose what how why also only just even more most less least
    many much few several very too again already still yet up down out off away back true false
    whose otherwise instead went gone got made done taken kept held found left lost sent put
    came become became"""
)
# General words of programming and of plain English that name no particular subject.
_GENERAL_WORDS = _listed(
    """value values result number numbers count list lists dict dictionary dictionaries mapping
    set sets tuple tuples sequence string strings text name names key keys object objects
    instance instances class type types copy default defaults data index length size element
    elements entry entries pair pairs field fields attribute attributes argument arguments
    parameter parameters option options flag error errors exception exceptions message file
    files path paths line lines character characters word words format representation part
    parts total sum kind way case time given new current existing empty single multiple optional
    specified provided possible valid invalid boolean positive negative zero equal greater smaller
    larger lower higher whole entire different original unique available specific particular
    certain appropriate corresponding respective
    return get set add remove update create build make check compute calculate find look read
    load store keep convert format parse compare sort filter join split apply call use hold
    contain raise give take pass initialize initialise construct describe represent print write
    save run register start stop open close clear reset exceed fewer reach differ match mark
    identical distinct helper utility function method operation routine procedure tool module
    package constant mean median
    average maximum minimum largest smallest"""
)


_SUFFIXES = (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))


def stem(word: str) -> str:
    """A light stem: plural, past and -ing endings and a final ``e`` or doubled consonant
    removed, the same on both sides of a comparison ("placed" and "place" are "plac")."""
    out = word.lower()
    for _ in range(2):  # "exceeds" -> "exceed" -> "exce", as "exceed" -> "exce"
        for suffix, replacement in _SUFFIXES:
            if out.endswith(suffix) and len(out) - len(suffix) >= 3:
                out = out[: len(out) - len(suffix)] + replacement
                break
    if len(out) > 3 and out.endswith("e"):
        out = out[:-1]
    if len(out) > 3 and out[-1] == out[-2] and out[-1] not in "aeiouls":
        out = out[:-1]
    return out


GENERAL_STEMS = frozenset(stem(w) for w in _GENERAL_WORDS | _FUNCTION_WORDS)
FUNCTION_STEMS = frozenset(stem(w) for w in _FUNCTION_WORDS)


def _abbreviates(short: str, word: str) -> bool:
    """``short`` is ``word`` shortened: its letters in order, from the same first letter."""
    if len(short) < 2 or len(short) >= len(word) or short[0] != word[0]:
        return False
    rest = iter(word)
    return all(letter in rest for letter in short)


def matches_word(known: str, word: str) -> bool:
    """Whether a summary ``word`` says no more than the code's word ``known``: the same stem,
    a longer form of it ("parsing"), an abbreviation spelled out ("str" is "string"), or a
    part of a compound word ("line" of ``multiline``)."""
    root = stem(known)
    if root == stem(word) or (len(root) >= 4 and word.startswith(root)):  # "parsing"
        return True
    if root in GENERAL_STEMS:  # "in", "is", "set": too short or general to expand
        return False
    return _abbreviates(known, word) or (len(word) >= 3 and word in known)


def _names_of_class(definition: ast.ClassDef) -> set[str]:
    """A class's own words: its name, bases, docstring, and the names it defines and holds
    (methods, class attributes and fields, ``self.X`` attributes its methods assign)."""
    words = name_words(definition.name)
    words |= set(word_tokens(ast.get_docstring(definition) or ""))
    for base in definition.bases:
        words |= {w for part in ast.unparse(base).split(".") for w in name_words(part)}
    for item in ast.walk(definition):
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words |= name_words(item.name)
        elif isinstance(item, ast.AnnAssign | ast.Assign) and item in definition.body:
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            words |= {w for t in targets if isinstance(t, ast.Name) for w in name_words(t.id)}
        elif (
            isinstance(item, ast.Attribute)
            and isinstance(item.ctx, ast.Store)
            and isinstance(item.value, ast.Name)
            and item.value.id == "self"
        ):
            words |= name_words(item.attr)
    return words


def _enclosing_classes(tree: ast.Module, full_name: str, line: int) -> list[ast.ClassDef]:
    """The classes around the definition at ``line`` named by ``full_name``'s outer parts."""
    outer = full_name.split(".")[:-1]
    found: list[ast.ClassDef] = []
    body: list[ast.stmt] = tree.body
    for name in outer:
        match = next(
            (
                n
                for n in body
                if isinstance(n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                and n.name == name
                and n.lineno <= line <= (n.end_lineno or n.lineno)
            ),
            None,
        )
        if match is None:
            break
        if isinstance(match, ast.ClassDef):
            found.append(match)
        body = match.body
    return found


def _module_words(node: SourceNode) -> set[str]:
    """The module's name: its folders and file name. Not its docstring, which speaks of the
    whole module ("Products and the stock kept of them." lent "products" to a method that
    returns stock items)."""
    path = PurePosixPath(node.file.path)
    return {w for part in [*path.parent.parts, path.stem] for w in name_words(part)}


@per_node
def own_stems(node: SourceNode) -> frozenset[str]:
    """The stems of every word the node may be described with (see the module's docstring)."""
    words = set(code_facts(node).words)
    words |= _module_words(node)
    tree = ast_tree(node.file.text)
    if node.definition is not None and tree is not None:
        line = node.file.positions[node.definition].start.line
        for outer in _enclosing_classes(tree, node.ref.full_name, line):
            words |= _class_words(node.file.text, outer.lineno)
    return frozenset(stem(w) for w in words)


def subject_stems(node: SourceNode) -> frozenset[str]:
    """The stems of the words that may name the node's subject, fewer than
    :func:`own_stems`: its module's name, its own and its enclosing classes' names and
    bases, and its parameters; not what its class holds (``self._outer_stack``)."""
    words = _module_words(node) | {
        w for part in node.ref.full_name.split(".") for w in name_words(part)
    }
    definition = node_definition(node)
    if definition is not None:
        args = ast.walk(definition.args)
        words |= {w for a in args if isinstance(a, ast.arg) for w in name_words(a.arg)}
    tree = ast_tree(node.file.text)
    if node.definition is not None and tree is not None:
        line = node.file.positions[node.definition].start.line
        for outer in _enclosing_classes(tree, node.ref.full_name, line):
            words |= {w for base in outer.bases for w in name_words(ast.unparse(base))}
    return frozenset(stem(w) for w in words)


# Once per text and class: each method of a large class would walk the whole class.
@per_text()
def _class_words(text: str, line: int) -> frozenset[str]:
    found = next(
        d for d in ast_definitions(text) if isinstance(d, ast.ClassDef) and d.lineno == line
    )
    return frozenset(_names_of_class(found))


@per_text()
def class_nouns(text: str) -> frozenset[str]:
    """The stems of the nouns of the classes ``text`` defines or imports by name (``from
    models import Warehouse``: a capitalised name), general words left out. A class's noun
    is the last word of its name: an ``OrderLine`` is a line, an ``IllegalMonthError`` an
    error; the words before it only say which."""
    tree = ast_tree(text)
    if tree is None:
        return frozenset()
    names = [d.name for d in ast_definitions(text) if isinstance(d, ast.ClassDef)]
    for item in ast.walk(tree):
        if isinstance(item, ast.ImportFrom):
            names += [a.asname or a.name for a in item.names if a.name[:1].isupper()]
    stems = {stem(_head(name)) for name in names if _head(name)}
    return frozenset(stems - GENERAL_STEMS)


def _head(name: str) -> str:
    """The last word of a class's name: ``OrderLine`` -> "line", ``HTTPServer`` -> "server"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name).replace("_", " ")
    words = word_tokens(spaced)
    return words[-1] if words else ""


def foreign_words(
    text: str, node: SourceNode, borrowable: frozenset[str], *, skip_first: bool
) -> list[str]:
    """The words of ``text`` that are nouns of other code (``borrowable``: class nouns,
    :func:`class_nouns`) and none of the node's own words.

    ``skip_first``: the first word is the summary's verb, judged on its own. Words
    ending in -ing, -ed or -ly are verb forms and adverbs, not subjects.
    """
    own = own_stems(node)
    tokens = [t for t in word_tokens(text) if t.isalpha()]
    if skip_first:
        tokens = tokens[1:]
    foreign = []
    for token in tokens:
        if len(token) < 3 or token.endswith(("ing", "ed", "ly")):
            continue
        stemmed = stem(token)
        if stemmed in borrowable and stemmed not in own and token not in foreign:
            foreign.append(token)
    return foreign


# Words for where data lives outside the program; True: a read or a write shows it too.
_PLACES = {
    "file": True,
    "directory": True,
    "folder": True,
    "disk": True,
    "database": False,
    "network": False,
    "server": False,
    "socket": False,
    "url": False,
    "configuration": False,
    "config": False,
    "environment": False,
}
# Words for a condition the code guards against or a guarantee it gives: "Safe power
# function to prevent overflow." on a function that refuses large operands (Python's
# integers do not overflow) tells a reader of a failure no line handles.
_CONDITIONS = (
    "overflow",
    "underflow",
    "timeout",
    "deadlock",
    "thread",
    "concurrent",
    "concurrency",
    "atomic",
    "atomically",
    "retry",
    "encrypt",
    "encrypted",
)
# Units of measure: "every interval seconds" of a function that sets no unit at all (the
# caller picks one afterwards) states a unit the code never names.
_UNITS = (
    "millisecond",
    "milliseconds",
    "second",
    "seconds",
    "minute",
    "minutes",
    "hour",
    "hours",
    "byte",
    "bytes",
    "kilobytes",
    "megabytes",
    "percent",
    "percentage",
)
_PLACE_STEMS = {stem(word): io for word, io in _PLACES.items()} | {
    stem(word): False for word in (*_CONDITIONS, *_UNITS)
}


def unfounded_places(text: str, node: SourceNode) -> list[str]:
    """The words of ``text`` for a place outside the program (a file, a database, a
    configuration), a condition the code would have to show (an overflow, a timeout, a
    thread) or a unit of measure (seconds, bytes) that neither the node's own words name
    nor, for a file or a directory, a read or write of its body shows."""
    own = own_stems(node)
    facts = body_facts(node)
    touches = facts.reads or facts.writes
    found: list[str] = []
    for token in word_tokens(text):
        stemmed = stem(token)
        shown_by_io = _PLACE_STEMS.get(stemmed, False) and touches
        if stemmed in _PLACE_STEMS and stemmed not in own | {stem(f) for f in found}:
            found += [] if shown_by_io else [token]
    return found
