"""What a summary claims about the code, checked against what the code does.

One place for every check of a summary against the node's facts (prose.py judges the
words alone): its verb ("Return …" needs a value returned, "Print …" a call that prints,
"Raise …" a ``raise``, "Register …" an item stored, "Run …" a call of what it was given;
a builder, whose value returns are all ``return self``, returns the instance, not what
it sets), a predicate's sense (``a <= b`` is not "above") and a comparison dunder's
comparison (comparisons.py), its subject and objects (the node's own words:
vocabulary.py; no file or database the code never touches, nor a place it removes from),
the type, the None and the thing it says is returned (returned_kind.py, returned_noun.py),
a string where the code has bytes (text_kinds.py),
that it is a decorator (decorator_claim.py), that a function which only returns a function
it defines says so (returned_function.py), the position and the count it speaks of
(extent.py), an object the code never names (named_objects.py), uniqueness it does not
ensure (unique_claims.py), a means ("by …", "using …") its code never says
(means_claims.py), its form (a function's summary says what a call does, not what a
thing is) and a copy of another docstring or of a comment (copied.py). Each
reason says what was wrong, so the model can try again.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence

from remora.code.docstring.behaviour import BodyFacts, body_facts
from remora.code.docstring.comparisons import COMPARISONS, inverted, wrong_comparison
from remora.code.docstring.context_managers import yielding_context_manager
from remora.code.docstring.copied import copied_text
from remora.code.docstring.copies import changed_copy
from remora.code.docstring.decorator_claim import unshown_decorator
from remora.code.docstring.default_claims import not_optional, unconditional_flag
from remora.code.docstring.deprecated import unsaid_deprecation
from remora.code.docstring.effect_places import claimed_verbs, unfounded_source, unfounded_target
from remora.code.docstring.extent import uncounted_repeats, unpicked_position
from remora.code.docstring.facts import word_tokens
from remora.code.docstring.means_claims import unshown_means
from remora.code.docstring.missing_methods import missing_method
from remora.code.docstring.named_objects import unnamed_object
from remora.code.docstring.noun_names import name_as_verb
from remora.code.docstring.order_claims import unfounded_order
from remora.code.docstring.returned_function import unsaid_returned_function
from remora.code.docstring.returned_kind import (
    collection_for_number,
    returning_generator,
    unshown_kind,
    unshown_none,
)
from remora.code.docstring.returned_noun import unnamed_return
from remora.code.docstring.shadowed import builtin_meaning
from remora.code.docstring.style_nouns import lent_style_noun
from remora.code.docstring.text_kinds import bytes_called_string
from remora.code.docstring.unique_claims import unshown_uniqueness
from remora.code.docstring.unread_parameters import chosen_by_chance, named_unread
from remora.code.docstring.vocabulary import (
    class_nouns,
    foreign_words,
    stem,
    unfounded_places,
)
from remora.code.docstring.yes_no_claims import unanswered_question
from remora.code.parsing import SourceNode, ast_definitions, node_returns

__all__ = ["contradiction", "description_claim"]

RETURNING_VERBS = frozenset({"return", "returns", "get", "gets", "compute", "computes"})

# A verb that claims an effect, by stem, and the fact of the body that shows it.
_EVIDENCE: dict[str, tuple[str, Callable[[BodyFacts], bool]]] = {
    "print": ("call that prints", lambda f: f.prints),
    "writ": ("call that writes", lambda f: f.writes),
    "sav": ("call that writes or saves", lambda f: f.writes),
    "dump": ("call that writes", lambda f: f.writes),
    "read": ("call that reads", lambda f: f.reads),
    "load": ("call that reads", lambda f: f.reads),
    "rais": ("raise statement", lambda f: f.raises),
    "throw": ("raise statement", lambda f: f.raises),
    "register": ("item it stores", lambda f: f.stores),
    "run": ("call of what it runs", lambda f: f.runs),
    "sleep": (
        "call that sleeps or waits",
        lambda f: any("sleep" in c or c == "wait" for c in f.calls),
    ),
    "execut": ("call of what it runs", lambda f: f.runs),
    "invok": ("call of what it runs", lambda f: f.runs),
}
# "Name is a …": a definition of another thing than a function or a method.
_DEFINES = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*) (?:is|are) (?:a|an|the)\b")
# "Name: a …": a class's entry, as a glossary writes it.
_LABELLED = re.compile(r"([A-Z][A-Za-z0-9_]*):\s")
_INSTANCE_WORDS = frozenset({"self", "instance", "itself", "object", "builder", "chain"})
# The parts of a summary's first word before its last hyphen: "pretty-" of "pretty-print".
_COMPOUND_VERB = re.compile(r"^(?:[a-z]+-)+(?=[a-z])")


def _module_class(node: SourceNode, name: str) -> bool:
    """Whether ``name`` is a class the node's module defines, other than the node's own."""
    own = node.ref.full_name.split(".")
    classes = {d.name for d in ast_definitions(node.file.text) if isinstance(d, ast.ClassDef)}
    return name in classes and name not in own


def _tokens(text: str) -> list[str]:
    """Words of ``text``, with "at most"/"at least" read as the comparisons they are."""
    low = " ".join(text.lower().split())
    low = low.replace("at most", "below or equal").replace("at least", "above or equal")
    # A compound verb claims what its last part does: "Pretty-print the tree." prints
    # (parsimonious's ``prettily`` returns the text: false), "Re-raise" raises.
    return word_tokens(_COMPOUND_VERB.sub("", low))


def _unsupported_verb(facts: BodyFacts, tokens: list[str], name: str) -> str:
    for verb in claimed_verbs(tokens):
        found = _EVIDENCE.get(stem(verb))
        if found is not None and not (facts.readable and found[1](facts)):
            return f"it says the code does {verb!r}, but {name} has no {found[0]}; say what it does"
    return ""


def _builder(facts: BodyFacts, tokens: list[str]) -> str:
    if (
        facts.builder
        and tokens
        and tokens[0] in RETURNING_VERBS
        and not set(tokens) & (_INSTANCE_WORDS)
    ):
        return (
            "it returns only the instance itself (`return self`): say what it sets, "
            "and that it returns the instance"
        )
    return ""


_RETURN_FORMS = frozenset({"return", "returns", "returned", "returning"})


def _new_from_builder(facts: BodyFacts, tokens: list[str]) -> str:
    """A builder (``return self`` only), or code that hands back its argument (changed),
    said, anywhere in a sentence, to return a new thing."""
    if not facts.hands_back or "new" in facts.parameters:  # ``new``: the argument's name
        return ""
    if any(t in _RETURN_FORMS and "new" in tokens[i + 1 : i + 4] for i, t in enumerate(tokens)):
        back = facts.hands_back
        return f"it says a new object is returned, but the code hands back {back}; say what it sets"
    return ""


# How a phrase that names a thing begins: an article or a possessive ("The cache of ..."), an
# acronym ("HTTP client for ..."), a participle before a noun ("Cached copy of ..."). A
# function's summary says what a call does, as a command (PEP 257); a noun phrase names
# what it returns ("A validator that ..." on a factory, a property's "The path to ..."),
# or, where it returns nothing, other code: its class or its module. A participle before a
# preposition says when the call happens ("Called when ..."), and imperative verbs that end
# in -ed are no participles.
_THING_OPENERS = frozenset({"a", "an", "the", "this", "these", "those", "its", "their"})
_AFTER_CLAUSE = frozenset(
    str.split("when whenever by if after before on once for from to with as in at upon while")
)
_VERBS_IN_ED = frozenset(
    str.split(
        """embed exceed proceed succeed feed seed need speed shed bleed breed shred heed weed"""
    )
)


def names_a_thing(summary: str) -> str:
    """The first word of ``summary`` when it opens a noun phrase ('' when it may be a verb):
    an article or a possessive, an acronym in capitals, a participle in -ed."""
    words = [w.strip(".,;:!?`'\"()") for w in summary.split()[:2]] + ["", ""]
    first, low, after = words[0], words[0].lower(), words[1].lower()
    if low in _THING_OPENERS or (len(first) >= 2 and first.isalpha() and first.isupper()):
        return first
    if (
        low.isalpha()
        and len(low) > 4
        and low.endswith("ed")
        and low not in _VERBS_IN_ED
        and after not in _AFTER_CLAUSE
    ):
        return first
    return ""


def description_claim(node: SourceNode, name: str, description: str) -> str:
    """Why a sentence of ``description`` is false of this node ('' when none is).

    The claims that hold whatever a sentence's form or subject: a return where the code
    returns no value, a builder said to return something else or a new thing, a shadowed
    builtin's meaning. These refuse 18 of 1,668 descriptions people wrote (stdlib
    and six packages; abstract stubs, left alone anyway), the summary's other checks 80 (a
    raise through a callee, a comment's words, "the first one")."""
    kind = node.ref.node_type
    callable_kind = kind in ("function", "method")
    facts = body_facts(node) if callable_kind else None
    returned = node_returns(node) if callable_kind else None
    for sentence in re.split(r"(?<=[.!?])\s+", " ".join(description.split())):
        tokens = _tokens(sentence)
        reason = ""
        if facts is not None and returned is not None:
            gives = returned["returns_value"] or returned["is_generator"]
            if tokens[:1] and tokens[0] in RETURNING_VERBS and not gives:
                return f"it says the code returns something, but {name} returns no value"
            reason = _builder(facts, tokens) or _new_from_builder(facts, tokens)
        if reason := reason or builtin_meaning(node, sentence):
            return reason
    return ""


def contradiction(node: SourceNode, name: str, summary: str, others: Sequence[str]) -> str:
    """Why ``summary`` cannot be about this node ('' when it can be).

    ``others``: the texts of other code the completion may have been shown or the
    project holds beside it (the folder's other files, the fixed examples), whose
    docstrings it must not copy and whose classes' nouns it must not borrow; the
    node's own file always counts.
    """
    if broken := missing_method(node):
        return broken  # dotmap's ``self._map.iterkeys()``: no call of it works
    tokens = _tokens(summary)
    kind = node.ref.node_type
    callable_kind = kind in ("function", "method")
    if tokens and tokens[0] in RETURNING_VERBS:
        if not callable_kind:
            return f"it says the {kind} returns something; say what it holds or is for"
        returned = node_returns(node)
        if not (returned["returns_value"] or returned["is_generator"]):
            return f"it says the code returns something, but {name} returns no value"
    if kind == "method" and tokens[:1] in (["the"], ["this"]) and "class" in tokens[1:3]:
        # "The SentinelNode class iterates over its nodes …" on one of its methods.
        return f"it speaks of the class, not of what {name} does; say what a call does"
    if callable_kind and (other := _DEFINES.match(summary)) and other[1] != name:
        # "UpliftingEventEmitter is a base class for emitting events." on ``def uplift``.
        return f"it says what {other[1]} is, not what {name} does; say what a call does"
    if callable_kind and (other := _LABELLED.match(summary)) and _module_class(node, other[1]):
        # "Token: a single character or a substring of a string." on ``def tokenize``.
        return f"it says what the class {other[1]} is, not what {name} does; say what a call does"
    if callable_kind and (opener := names_a_thing(summary)):
        returned = node_returns(node)
        if not (returned["returns_value"] or returned["is_generator"]):
            return (
                f"it names a thing ({opener!r} …), but {name} returns nothing: it describes "
                "other code; say what a call does, starting with a verb: 'Move …', 'Clear …'"
            )
    if callable_kind:
        facts = body_facts(node)
        if name in COMPARISONS and kind == "method" and (wrong := wrong_comparison(name, tokens)):
            return wrong
        for check in (
            _builder(facts, tokens),
            _new_from_builder(facts, tokens),
            _unsupported_verb(facts, tokens, name),
            inverted(facts, tokens),
            unfounded_target(node, tokens),
            unfounded_source(node, tokens),
            unpicked_position(node, summary),
            uncounted_repeats(node, summary),
            unfounded_order(node, summary),
            named_unread(node, summary),
            chosen_by_chance(node, summary),
            changed_copy(node, summary),
        ):
            if check:
                return check
    if optional := not_optional(node, tokens) or unconditional_flag(node, tokens):
        return optional
    if kind_claim := (
        builtin_meaning(node, summary)
        or unshown_kind(node, summary)
        or bytes_called_string(node, summary)
        or collection_for_number(node, summary)
        or returning_generator(node, summary)
        or unshown_none(node, summary)
        or unnamed_return(node, summary)
        or unshown_decorator(node, summary)
        or unsaid_returned_function(node, summary)
        or unsaid_deprecation(node, summary)
        or name_as_verb(node, summary)
        or yielding_context_manager(node, summary)
        or unanswered_question(node, summary)
        or unshown_uniqueness(node, summary)
        or unshown_means(node, summary)
    ):
        return kind_claim
    if copy := copied_text(node, summary, others):
        return copy
    nouns = frozenset().union(*(class_nouns(text) for text in (node.file.text, *others)))
    if foreign := foreign_words(summary, node, nouns, skip_first=callable_kind):
        listed = ", ".join(repr(w) for w in foreign[:3])
        return (
            f"it speaks of {listed}, another class's, which neither {name} nor its class or "
            "module names; say what this code does with its own names"
        )
    if lent := lent_style_noun(node, summary, others):
        return lent
    if unnamed := unnamed_object(node, summary):
        return unnamed
    if places := unfounded_places(summary, node):
        listed = ", ".join(repr(w) for w in places[:3])
        return f"it speaks of {listed}, which {name} never touches or names; say what it does"
    return ""
