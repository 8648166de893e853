"""A summary copied from text already in sight: another definition's docstring, or a comment.

A small model that fills in a docstring continues what it was shown: a neighbour's
docstring ("lines can change until it is placed" from a class's docstring on its
method), or the comment that opens the body below the gap ("The default `float` callable
never returns illegal types." on the function whose first comment it is). A copy
describes the other code, or one line of this code's implementation, not what this code
does; blind reviewers rejected both kinds. Six words in a row shared with such a text
make a copy, not a coincidence; two in a row with one of the fixed style examples shown
to a file without documented code, neither a function word and not both the node's own
("return its datetime without line endings"), lend that example's meaning. Within the
node's own body a shorter comment is enough: a summary holding a whole comment of three
words or more, in a body of two statements or more, names one step ("Lock the gate."
from the comment over the last of two statements) and leaves the rest out. A string the
body holds is text the code shows someone (a parser's ``description=``, a message, a
prompt): a summary that is such a string of three words or more, or repeats six of its
words in a row (a ``doc=`` argument aside: that one documents what the body returns),
says what the program tells its user, not what this function does ("One line jokes for
programmers" on the function that builds the argument parser). Nor may it hold a note
to a tool among the node's comments: its ``# type:`` comment (hyperlink's "Type: () ->
bool.": ten such summaries, all rejected as noise) or the word that opens a directive
(isbnlib's "Pragma: no cover.", from ``# pragma: no cover``). Comments are read with
:mod:`tokenize`, strings with :mod:`ast`, never by scanning the text.
"""

from __future__ import annotations

import ast
import tokenize
from collections.abc import Sequence

from remora import python_ast
from remora.code.docstring.behaviour import node_definition
from remora.code.docstring.draft import FIXED_EXAMPLES
from remora.code.docstring.facts import word_tokens
from remora.code.docstring.summaries import file_docstring_summaries
from remora.code.docstring.vocabulary import FUNCTION_STEMS, own_stems, stem
from remora.code.parsing import SourceNode, per_text, python_tokens

__all__ = ["copied_text"]

# Words in a row shared with another text that make a copy, not a coincidence.
_COPIED_RUN = 6
# Words in a row shared with a fixed style example that are lent, not the node's own
# ("line endings" from the example that reads a file's lines).
_LENT_RUN = 2
# The words that open a comment meant for a tool (coverage.py, flake8/ruff, pylint, mypy,
# bandit, black, isort): a summary never has a reason to hold one.
_DIRECTIVES = frozenset(("pragma", "noqa", "pylint", "mypy", "nosec", "fmt", "isort", "pyright"))
# The fewest words of a comment in the node's own body that a summary may not hold whole.
_STEP_WORDS = 3


def _shared_run(words: list[str], other: list[str]) -> str:
    """The first run of _COPIED_RUN words of ``words`` that ``other`` holds too ('' if none)."""
    runs = {tuple(other[i : i + _COPIED_RUN]) for i in range(len(other) - _COPIED_RUN + 1)}
    for i in range(len(words) - _COPIED_RUN + 1):
        if tuple(words[i : i + _COPIED_RUN]) in runs:
            return " ".join(words[i : i + _COPIED_RUN])
    return ""


@per_text()
def file_comments(text: str) -> tuple[tuple[int, str], ...]:
    """The line and text of each comment of ``text`` ('#' dropped); none when it does not
    tokenize."""
    return tuple(
        (token.start[0], token.string.lstrip("#").strip())
        for token in python_tokens(text)
        if token.type == tokenize.COMMENT
    )


def _holds(words: list[str], run: list[str]) -> bool:
    return any(words[i : i + len(run)] == run for i in range(len(words) - len(run) + 1))


def _one_step(node: SourceNode, said: list[str]) -> str:
    """The comment of the node's own body that ``said`` holds whole, when the body has
    more steps than that one ('' when none)."""
    if node.definition is None or len(node.body_statements) < 2:
        return ""
    span = node.file.positions[node.definition]
    for line, comment in file_comments(node.file.text):
        words = word_tokens(comment)
        inside = span.start.line < line <= span.end.line
        if inside and len(words) >= _STEP_WORDS and _holds(said, words):
            return comment
    return ""


def _shown_text(node: SourceNode, said: list[str]) -> str:
    """The string of the function's body that ``said`` is, or repeats a run of ('' when
    none)."""
    definition = node_definition(node)
    if definition is None:
        return ""
    body = python_ast.body_statements(definition)
    tree = ast.Module(body=body, type_ignores=[])
    documents = {
        id(k.value) for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg == "doc"
    }
    for item in ast.walk(tree):
        if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
            continue
        if id(item) in documents:  # ``Signal(doc="Emitted after ...")``: what it documents
            continue
        words = word_tokens(item.value)
        if (len(words) >= _STEP_WORDS and words == said) or _shared_run(said, words):
            return item.value
    return ""


def _directive(node: SourceNode, summary: str) -> str:
    """The tool directive among the node's comments that ``summary`` holds ('' when none):
    a ``# type:`` comment's annotation ("Type: () -> bool." on a property annotated ``#
    type: () -> bool``), or the word that opens any other directive ("Pragma: no cover."
    on ``def fields():  # pragma: no cover``)."""
    if node.definition is None:
        return ""
    span = node.file.positions[node.definition]
    said = " ".join(summary.split())
    words = set(word_tokens(summary))
    for line, comment in file_comments(node.file.text):
        if not span.start.line <= line <= span.end.line:
            continue
        kind, colon, annotation = comment.partition(":")
        annotation = " ".join(annotation.split())
        if colon and kind.strip() == "type":
            if annotation and annotation in said:
                return f"the type comment {annotation!r}"
        elif (opening := next(iter(word_tokens(comment)), "")) in _DIRECTIVES & words:
            return f"the {opening!r} comment {comment!r}"
    return ""


def _lent_phrase(node: SourceNode, said: list[str], others: Sequence[str]) -> str:
    """Two words in a row of a fixed style example's summary, neither a function word, that
    ``said`` holds and the node does not own both of ('' when none)."""
    own = own_stems(node)
    for example in set(others) & set(FIXED_EXAMPLES):
        for summary in file_docstring_summaries(example).values():
            words = word_tokens(summary)
            for at in range(len(words) - _LENT_RUN + 1):
                run = words[at : at + _LENT_RUN]
                stems = {stem(w) for w in run}
                if _holds(said, run) and not stems & FUNCTION_STEMS and not stems <= own:
                    return " ".join(run)
    return ""


def copied_text(node: SourceNode, summary: str, others: Sequence[str]) -> str:
    """Why ``summary`` is a copy of another docstring or of a comment ('' when it is not).

    ``others``: texts of other code the completion may have been shown (the folder's
    other files, the fixed examples); the node's own file always counts, and its
    comments too.
    """
    summaries: dict[str, str] = {}
    for text in others:
        summaries.update(file_docstring_summaries(text))
    summaries.pop("the module", None)
    summaries.update(file_docstring_summaries(node.file.text))
    own = node.definition.name.value if node.definition is not None else "the module"
    said = word_tokens(summary)
    for other, text in summaries.items():
        if other == own:
            continue
        if word_tokens(text) == said:
            return f"it copies the docstring of {other}; say what this code does"
        if copied := _shared_run(said, word_tokens(text)):
            return f"it repeats {copied!r} from the docstring of {other}; say what this code does"
    if directive := _directive(node, summary):
        return f"it copies {directive}, a note to a tool; say what a call does in words"
    if lent := _lent_phrase(node, said, others):
        return f"it borrows {lent!r} from a style example; say what this code does"
    for _, comment in file_comments(node.file.text):
        if copied := _shared_run(said, word_tokens(comment)):
            return f"it repeats {copied!r} from a comment of the code; say what this code does"
    if shown := _shown_text(node, said):
        return (
            f"it repeats {shown!r}, a text the code shows its user, not what {own} does; "
            "say what a call does"
        )
    if step := _one_step(node, said):
        return (
            f"it repeats the comment {step!r}, one step of the body; say what the whole code does"
        )
    return ""
