"""A summary that only restates the node's name, refused: it tells a reader nothing.

"Parse a basic string." on ``parse_basic_str``, "Finalize pending flags." on
``Flags.finalize_pending``, "Bump the major version of the given version number." on
``bump_major(version)``: every word is the name's, its owner's (the class or function
it is defined in), a parameter's, or a general word (vocabulary.py's: articles,
prepositions, "given", "number", the verbs every program uses). A maintainer rejects
such a docstring as noise; what the name hides is what a summary is for: what it
returns, what it changes, when it raises, what a term means.

A summary word matches a name word by its stem ("flags" is "flag"), as an abbreviation
spelled out ("str" is "string", "ws" "whitespace", "pos" "position": the name word's
letters in order, from the same first letter), or as a part of a compound name word
("line" of ``multiline``); two summary words spell one name word ("no-op" is
``noop``, "full name" ``fullname``, "right shift" ``rshift``: each shortened to its
opening letters; three or more spell one by their initials, "JSON Web Key" ``jwk``).
The signature's types are the code's words too: "Convert a JWK string or dictionary to
an AllowedECKeys object." on ``from_jwk(jwk: str | JWKDict) -> AllowedECKeys`` says what
the annotations say (pyjwt's blind reviewers: noise). Saying that the node returns a
value ("Return …") is something the name does not say, unless the name itself is a
returning verb (``get_…``) or names what is returned ("Return a copy of the object." on
``copy``). The reason says what to write instead, from the body's facts
(what it returns, what it raises), so the model's one retry can fix it. Words of no subject
("Refresh the state of the object with the given positional and keyword arguments." on
``refresh(self, *values, **options)``: "state", and ``*values``/``**options`` by the names
prose gives them or by their own) add nothing either (:func:`vacuous`). :func:`repeats_name` is
the same matching for any piece and its one subject (a parameter's text and its name):
prose.py refuses such a piece before this, the summary's check, which knows the node.
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from remora import python_ast
from remora.code.docstring.behaviour import body_facts, node_definition
from remora.code.docstring.claims import RETURNING_VERBS
from remora.code.docstring.facts import name_words, word_tokens
from remora.code.docstring.sections import documented_parameters
from remora.code.docstring.vocabulary import (
    FUNCTION_STEMS,
    GENERAL_STEMS,
    matches_word,
    stem,
)
from remora.code.parsing import SourceNode, node_returns

__all__ = ["name_reason", "parameter_words", "repeats_name", "restating", "vacuous"]

# The verbs by which a summary says what a node hands back, by stem: a name made of
# nouns ("max_days_in_month") does not say it.
_RETURNING = frozenset(stem(w) for w in RETURNING_VERBS)
# How a summary names the instance itself: "of the current object".
_INSTANCE_STEMS = frozenset(
    stem(w) for w in ("object", "instance", "current", "self", "given", "this")
)
# Words around a returned name that add nothing to it: "Return the value of the ttu
# attribute." on the property ``ttu``, "Return the current choice." on ``choice``
# (cachetools' reviewer: "only repeats the name", both rejected).
_WRAPPING = frozenset(stem(w) for w in ("value", "current", "attribute", "property"))
# The longest returned expression a reason quotes.
_QUOTED = 40
# Words that say nothing of any particular code: every method changes "the state of the
# object"; "the behaviour", "the information" name no subject either.
_VACUOUS = frozenset(
    stem(w) for w in ("state", "behaviour", "behavior", "information", "functionality")
)
# What "return" hands back when the sentence names nothing: "return the result".
# ("return it" names what came before it: "Fetch the url and return it.")
_UNNAMED_RESULTS = frozenset(stem(w) for w in ("result", "results", "output"))
# How prose names ``*args`` and ``**kwargs``, whatever they are called: naming them says
# nothing of what they hold, nor how the arguments go together.
_VARIADIC = {
    "var_positional": frozenset({"positional", "argument", "arg"}),
    "var_keyword": frozenset({"keyword", "argument", "arg", "option"}),
}


def _words(name: str) -> set[str]:
    """A name's words, digits dropped (``ver1``: "ver")."""
    return {re.sub(r"\d+", "", w) for w in name_words(name)} - {""}


def _spells(known: str, first: str, second: str) -> bool:
    """Whether ``first`` and ``second`` spell ``known``: whole ("no-op" is ``noop``), or
    each shortened to its opening letters ("right shift" is ``rshift``, "rotate left"
    ``rotl``, "true division" ``truediv``). A first word that is the name word already
    ("reading" of ``read``) takes nothing from the second."""
    if first + second == known:
        return True
    if len(known) < 4 or first.startswith(known):  # "set": "s" and "et…" only by chance
        return False
    for cut in range(1, min(len(first), len(known) - 1) + 1):
        rest = known[cut:]
        if first[:cut] == known[:cut] and second.startswith(rest):
            return True
    return False


# The fewest words whose initials, read together, spell a name word ("JSON Web Key").
_INITIALS = 3


def _joined(tokens: list[str], known: set[str]) -> list[str]:
    """``tokens`` with two neighbours that spell one ``known`` name word read as that word:
    "no-op" is ``noop``, "full name" ``fullname``, "right shift" ``rshift``; and as many
    neighbours as a known word of three letters or more has, none a function word, whose
    initials spell it: "json web key" is ``jwk`` ("to a given" is never ``tag``)."""
    out: list[str] = []
    for token in tokens:
        joined = next((k for k in known if out and _spells(k, out[-1], token)), None)
        if joined is not None:
            out[-1] = joined
            continue
        out.append(token)
        spelt = next(
            (
                k
                for k in known
                if _INITIALS <= len(k) <= len(out)
                and "".join(t[0] for t in out[-len(k) :]) == k
                and not any(stem(t) in FUNCTION_STEMS for t in out[-len(k) :])
            ),
            None,
        )
        if spelt is not None:
            out[-len(spelt) :] = [spelt]
    return out


# A hyphenated compound, or two of them beside each other ("first-in, first-out").
_COMPOUNDS = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+(?:,? [A-Za-z]+(?:-[A-Za-z]+)+)?")


def _compounds_spelled(summary: str, known: set[str]) -> str:
    """``summary`` with each hyphenated compound whose initials spell a ``known`` name word
    read as that word: "A least-frequently-used cache." on ``lfu_cache``, "A first-in,
    first-out cache." on ``fifo_cache`` (cachetools' reviewer: "they are decorators, not
    caches"); the compound is the writer's term, function words and all ("in", "to")."""

    def spelled(found: re.Match[str]) -> str:
        initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", found[0])).lower()
        return initials if initials in known and len(initials) >= _INITIALS - 1 else found[0]

    return _COMPOUNDS.sub(spelled, summary)


def repeats_name(text: str, name: str, filler: frozenset[str]) -> bool:
    """Whether every word of ``text`` is a word of ``name`` (matched as a summary's words
    are) or has its stem in ``filler``: a piece that says nothing of its subject ("The
    skip whitespace." on ``skip_ws``)."""
    words = _words(name)
    return all(
        stem(t) in filler or any(matches_word(k, t) for k in words) for t in word_tokens(text)
    )


def _names(node: SourceNode) -> tuple[set[str], set[str], list[set[str]]]:
    """The words of the node's own name, of its owners' (the class or function it is
    defined in) and of each of its parameters."""
    *owners, own = node.ref.full_name.split(".")
    if node.ref.node_type == "file":
        owners, own = [], PurePosixPath(node.ref.full_name).stem
    parameters = documented_parameters(node).parameters or []
    return (
        _words(own),
        {w for owner in owners for w in _words(owner)},
        [_words(p["name"]) for p in parameters],
    )


def parameter_words(node: SourceNode) -> list[set[str]]:
    """The words of each of the node's parameters (``base_path``: "base", "path")."""
    return _names(node)[2]


def _annotation_words(node: SourceNode) -> set[str]:
    """The words of the names in the node's parameter and return annotations (a quoted
    annotation read as code): ``str | JWKDict`` gives "str", "jwk", "dict"."""
    definition = node_definition(node)
    if definition is None:
        return set()
    arguments = definition.args
    given = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    given += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    annotations = [a.annotation for a in given if a.annotation is not None]
    annotations += [definition.returns] if definition.returns is not None else []
    words: set[str] = set()
    for annotation in annotations:
        for inner in ast.walk(annotation):
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                try:
                    quoted: ast.AST = python_ast.parse_expression(inner.value)
                except SyntaxError:
                    continue
                names = [n for n in ast.walk(quoted) if isinstance(n, ast.Name | ast.Attribute)]
            else:
                names = [inner] if isinstance(inner, ast.Name | ast.Attribute) else []
            for name in names:
                words |= _words(name.id if isinstance(name, ast.Name) else name.attr)
    return words


def vacuous(node: SourceNode, word: str) -> bool:
    """Whether a summary ``word`` says nothing of ``node``: a word of no subject ("state"),
    or a name for its ``*args`` or ``**kwargs`` ("keyword arguments")."""
    if stem(word) in _VACUOUS:
        return True
    for parameter in documented_parameters(node).parameters or []:
        spoken = _VARIADIC.get(parameter["kind"], frozenset())
        if spoken and (
            stem(word) in {stem(s) for s in spoken}
            or any(matches_word(k, word) for k in _words(parameter["name"]))
        ):
            return True
    return False


def _returns(node: SourceNode) -> bool:
    if node.ref.node_type not in ("function", "method") or node.definition is None:
        return False
    returned = node_returns(node)
    return bool(returned["returns_value"] or returned["is_generator"])


def _what_to_say(node: SourceNode) -> str:
    """What the reason asks for instead, with the body's facts where there are any."""
    kind = node.ref.node_type
    if kind == "class":
        return "say what one instance holds or is for that its name does not say"
    if kind == "file":
        return "say what the module provides that its name does not say"
    facts = body_facts(node)
    seen = dict.fromkeys(ast.unparse(e) for e in facts.returned)
    shown = [f"`{code}`" for code in seen if len(code) <= _QUOTED][:2]
    found = []
    if shown:
        found.append("it returns " + " or ".join(shown))
    if facts.raise_conditions:
        found.append("it raises " + ", ".join(sorted(facts.raise_conditions)[:2]))
    ask = "say what it returns or changes, or when it raises"
    return f"{ask}, from the body: {'; '.join(found)}" if found else ask


def _said_after(tokens: list[str], at: int) -> list[str]:
    """The words after ``at`` that say something (function words left out)."""
    return [t for t in tokens[at + 1 :] if stem(t) not in FUNCTION_STEMS]


def _returns_the_name(
    tokens: list[str], at: int, own: set[str], others: set[str], parameters: set[str]
) -> bool:
    """Whether the returning verb at ``at`` hands back what the node's name names and the
    rest names only the name's other words, its owner, the instance or a parameter (a
    general word may say more: "made on first use"): "Return a copy of the current
    object." on ``copy``, "Return the head of the last child of the given label." on
    ``last_child_head(label)``, "Return the value of the ttu attribute." on ``ttu``."""
    after = _said_after(tokens, at)
    while len(after) > 1 and stem(after[0]) in _WRAPPING:
        after = after[1:]  # "the value of the ttu attribute", "the current choice"
    if not after or not any(stem(k) == stem(after[0]) for k in own):
        return False
    known = own | others | parameters
    return all(
        stem(w) in _INSTANCE_STEMS | _WRAPPING or any(matches_word(k, w) for k in known)
        for w in after[1:]
    )


def _returns_nothing_named(tokens: list[str], at: int) -> bool:
    """Whether the returning verb at ``at`` hands back nothing a reader can name: "return
    the result", "return the output" (sqlparse's five filters: "Process the statement and return
    the result.", every one rejected as boilerplate)."""
    after = _said_after(tokens, at)
    return bool(after) and stem(after[0]) in _UNNAMED_RESULTS


def restating(node: SourceNode, summary: str) -> str:
    """Why ``summary`` says nothing beyond the node's name ('' when it says more).

    It says more with a word of its own; by leaving out a word of the name and saying
    it in other words ("Convert …" on ``want_bytes``); by saying that it returns a
    value where the name does not; or by naming two of the parameters, which says how
    the arguments go together ("from the string starting at the given position"; two
    words of one parameter, "full name" of ``fullname``, name one).
    """
    own, owners, parameters = _names(node)
    types = _annotation_words(node)
    known = own | owners | types | {w for p in parameters for w in p}
    tokens = _joined(word_tokens(_compounds_spelled(summary, known)), known)
    if any(
        stem(w) not in GENERAL_STEMS and not any(matches_word(w, t) for t in tokens) for w in own
    ):
        return ""
    says_return = _returns(node) and not any(stem(w) in _RETURNING for w in own | owners)
    named: set[int] = set()
    for at, word in enumerate(tokens):
        if (
            says_return
            and stem(word) in _RETURNING
            and not _returns_nothing_named(tokens, at)
            and not _returns_the_name(tokens, at, own, owners, set().union(*parameters))
        ):
            return ""
        if any(matches_word(k, word) for k in own | owners) or vacuous(node, word):
            continue
        found = {
            i for i, words in enumerate(parameters) if any(matches_word(k, word) for k in words)
        }
        if found:
            named |= found
        elif stem(word) not in GENERAL_STEMS and not any(matches_word(k, word) for k in types):
            return ""
    if len(named) >= 2:
        return ""
    return name_reason(node)


def name_reason(node: SourceNode) -> str:
    """The reason a summary that restates ``node``'s name gets: what to write instead."""
    file = node.ref.node_type == "file"
    name = PurePosixPath(node.ref.full_name).stem if file else node.ref.full_name.split(".")[-1]
    return f"it restates the name {name!r}; {_what_to_say(node)}"
