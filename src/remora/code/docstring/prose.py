"""Checks of the model's docstring prose: why a piece cannot be used, and what to write.

Each check looks at the words only where no parser can help (prose is not
code); facts about the code come from LibCST and ``ast``: its numeric literals
and the words it names (facts.py), whether a text parses as Python (``_is_code``).
"""

from __future__ import annotations

import re
from collections import Counter

from remora import python_ast
from remora.code.docstring.facts import CodeFacts, word_tokens
from remora.code.docstring.restating import repeats_name
from remora.code.docstring.vocabulary import stem

__all__ = ["MAX_PIECE_CHARS", "MAX_SUMMARY_CHARS", "REPEATS", "problem"]

MAX_SUMMARY_CHARS = 120
MAX_PIECE_CHARS = 400
_ARTICLES = {"a", "an", "the", "of", "this", "given", "value", "object", "instance"}
# A piece made of its subject's name words and these says nothing (restating.py matches
# the name words); the general words beyond them ("check", "less than") are judged only
# for a summary, by restating.py, which knows the node.
_FILLER = frozenset(stem(w) for w in _ARTICLES | {"returns", "return", "is", "if", "true"})
# How the reason for such a piece begins.
REPEATS = "it only repeats the name"
# Words of the bundled agent's instructions (and of the refusal reasons below)
# that tiny models copy into summaries ...
_PROMPT_PHRASES = (
    "one sentence",
    "what the code does",
    "document the",
    "write_docstring",
    "submit_result",
    "read_docstring",
    "in the imperative",
    "your own words",
    # ... and of the tools' own answers.
    "returns no value",
    "no usable summary",
    "the summary",
    "summary of",
    "docstring",
    "params {",
    "{name",
    "{exception",
    "description of the return value",
    "optional description",
    "optional longer",
)
# "summary: description, returns: description, raises: {}": the tool's fields, the
# keys of its answers, or any "key: value" list, copied instead of a sentence.
_FIELD_LIST = re.compile(r"\b([a-z_]+)\s*:\s*(?:[{\[]|[a-z_]+\b(?=\s*[,.;]|$))")
# A file of the project named in prose: the task line's "inventory/orders.py".
_FILE_PATH = re.compile(r"[\w./-]*\w\.py\b")
# A number in prose: "1.00", "20", not the digits of a name such as "sha256".
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")
# Words a finished sentence does not end on: "..., and the current line is."
_DANGLING = {"a", "an", "the", "is", "are", "was", "be", "of", "to", "and", "or", "with"}
_DANGLING |= {"for", "in", "on", "by", "from", "that", "which", "its", "their", "this"}
# ... nor on a preposition or a conjunction that opens a clause: a line the model wrapped,
# cut at the completion's newline stop ("Count the rows of the table, excluding.").
_DANGLING |= {"excluding", "including", "except", "without", "than", "as", "at", "into"}
_DANGLING |= {"but", "if", "when", "whether", "until", "unless", "because", "via"}
# Talk about the code instead of its job: "The function X is a function that ...".
_ABOUT_THE_CODE = (
    "the code",
    "this code",
    "the function",
    "this function",
    "the method",
    "this method",
)
_CALLABLE = ("function", "method", "")
# Words of the prompt's material, not of code: what a tiny model describes when it
# describes the prompt ("The document contains a JSON object." on a module of
# products). Used only when the code itself names none of them.
_PROMPT_WORDS = ("document", "json", "schema", "prompt", "tool")
# The placeholders of the examples a summary's reasons give ('Return …'): copied, not filled in.
_PLACEHOLDERS = ("…", "...")


def _how_to_start(kind: str) -> str:
    """How a summary of a node of ``kind`` reads (PEP 257: a function's says what it does,
    as a command; Google style: a class's says what an instance is)."""
    if kind == "class":
        return "say what one instance is: 'A … that …'"
    if kind == "file":
        return "say what the module provides: 'Helpers for …'"
    return "start with a verb in the imperative: 'Return …', 'Build …', 'Check …'"


def _repeated(tokens: list[str]) -> str:
    """The words said more than once, with how often: "'count' 3 times, 'stock' 3 times"."""
    counts = Counter(w for w in tokens if w not in _ARTICLES)
    top = [(w, n) for w, n in counts.most_common(3) if n > 1]
    return ", ".join(f"{w!r} {n} times" for w, n in top)


def _about_the_prompt(tokens: list[str], words: frozenset[str]) -> list[str]:
    """The prompt's words in the piece that the code does not name ("documents" too)."""
    found = [t for t in tokens if t.startswith(_PROMPT_WORDS)]
    return [t for t in dict.fromkeys(found) if not any(w.startswith(t[:4]) for w in words)]


def _unfounded(text: str, numbers: frozenset[float] | None, names: frozenset[str]) -> str:
    """Why ``text`` says something the code does not, or stops short ('' if neither).

    ``names``: the parameters' names, which may end a sentence ("... the same a.").
    """
    if numbers is not None:
        stated = [n for n in _NUMBER.findall(text) if float(n) not in numbers]
        if stated:
            return (
                f"it states {stated[0]}, a number the code does not hold; "
                "say only what the code shows"
            )
    tokens = word_tokens(text)
    if tokens and tokens[-1] in _DANGLING - names:
        return f"it stops mid-sentence (ends with {tokens[-1]!r}); finish the sentence"
    return ""


def problem(
    text: str,
    name: str,
    *,
    summary: bool,
    node: str = "",
    kind: str = "",
    facts: CodeFacts | None = None,
    names: frozenset[str] = frozenset(),
) -> str:
    """Why ``text`` cannot be used and what to write instead ('' when it can be used).

    ``node`` is the qualified name and ``kind`` the node type; a summary's
    reasons say how a summary of that kind of node starts. ``facts``: the
    code's numeric literals, the only numbers a text may state, and the words it
    names (a text may speak of JSON only where the code does); ``names``: the
    parameters' names.
    """
    clean = " ".join(text.split())
    start = "; " + _how_to_start(kind) if summary else ""
    letters = sum(ch.isalpha() for ch in clean)
    if letters < 0.6 * len(clean.replace(" ", "")):
        return "it is mostly digits or punctuation; write it in words" + start
    if summary and (placeholder := next((m for m in _PLACEHOLDERS if m in clean), "")):
        return f"it keeps the placeholder {placeholder!r} of an example; write what it stands for"
    tokens = word_tokens(clean)
    if repeats_name(clean, name, _FILLER):
        return f"{REPEATS} {name!r}; say what it does or holds" + start
    if len(tokens) >= 4 and len(set(tokens)) < 0.6 * len(tokens):
        return f"it repeats itself ({_repeated(tokens)}); say each thing once"
    low = clean.lower()
    if summary and len(tokens) < 2:
        return f"it has under two words, too short to say what the code does{start}"
    if _is_code(text):
        return "it is Python code, not words about what the code does" + (
            start or "; describe it in words"
        )
    if len(fields := _FIELD_LIST.findall(low)) >= 2:
        listed = ", ".join(f"'{name}:'" for name in fields[:3])
        return (
            f"it copies the tool's fields ({listed}) instead of saying what the code does; "
            "write plain words" + start
        )
    if "{" in clean:
        return "it holds braces, like the tool's JSON; write plain words" + start
    if opened := _left_open(clean):
        return f"a {opened} is opened and never closed; close it or leave it out"
    if re.search(r"\b[a-z_]+\s*:\W*$", low):
        return (
            "it ends on a field name and a colon, like the tool's JSON; write plain words" + start
        )
    if echoed := next((phrase for phrase in _PROMPT_PHRASES if phrase in low), ""):
        return (
            f"it echoes the instructions ({echoed!r}) instead of describing this code; "
            "write your own words" + start
        )
    if path := _FILE_PATH.search(clean):
        return f"it names the file {path.group()!r}; say what the code does" + start
    if about := next((phrase for phrase in _ABOUT_THE_CODE if phrase in low), ""):
        unlike = (
            ", not 'The function … is a function that …'" if start and kind in _CALLABLE else ""
        )
        return f"it talks about {about!r} instead of saying what it does{start}{unlike}"
    short = node.rsplit(".", 1)[-1].lower()
    # A name with an underscore is no English word: "Return the result of dumb_sort."
    spelled = "_" in short.strip("_") and re.search(rf"(?<!['\"`])\b{re.escape(short)}\b", low)
    if (
        spelled
        or ("." in node and node.lower() in low)
        or re.search(
            rf"\b({re.escape(short)}(\(\))?\s+(method|function|class)|(method|function|class)\s+{re.escape(short)})\b",
            low,
        )
    ):
        return f"it names {node} instead of saying what it does; leave the name out" + start
    if unfounded := _unfounded(clean, facts.numbers if facts else None, names):
        return unfounded
    if facts is not None and (prompt := _about_the_prompt(tokens, facts.words)):
        listed = ", ".join(repr(w) for w in prompt[:3])
        return (
            f"it describes the prompt ({listed}), not this code, which names no such thing; "
            "say what the code does" + start
        )
    if summary:
        if len(clean) > MAX_SUMMARY_CHARS:
            return (
                f"it is longer than {MAX_SUMMARY_CHARS} characters ({len(clean)}); keep the "
                "main point in one short sentence and put the rest in description"
            )
        if found := re.search(r"[.!?]\s+\S", clean):
            first = clean[: found.start() + 1]
            return (
                f"it runs past one sentence; make the first ({first!r}) the summary and "
                "put the rest in description"
            )
    elif len(clean) > MAX_PIECE_CHARS:
        return f"it is longer than {MAX_PIECE_CHARS} characters ({len(clean)}); shorten it"
    return ""


def _left_open(text: str) -> str:
    """The mark a text opens and never closes: a double quotation mark or a backtick counted
    odd (a string copied from the code with its closing quote: ``connects."``); single
    quotes are left alone, being apostrophes too."""
    for mark, called in (('"', "quotation mark"), ("`", "backtick")):
        if text.count(mark) % 2:
            return f"{called} ({mark})"
    return ""


def _is_code(text: str) -> bool:
    """Python's parser accepts it (prose does not: "Fold the items." is no statement)."""
    if "```" in text:
        return True
    try:
        python_ast.parse(text.strip())
    except (SyntaxError, ValueError):
        return False
    return True
