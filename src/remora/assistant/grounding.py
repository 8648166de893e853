"""Whether an answer's values come from the session: the check on the final answer.

A small model fills gaps with plausible values ("The value of total is 100").
Before an answer is printed, each value it states must appear in what a
capability returned during the question (the host's facts and the model's
calls) or in the question itself; otherwise the answer is replaced by
"I could not find that out".

What counts as a value in the answer, and when it is supported:

- a number (``6``, ``-2``, ``28.27``, ``1e-3``): equal to a number in the
  sources, or one rounded to as many decimals as the answer gives (28.27 for
  28.274333882308138); rounding to a whole number does not count;
- a quoted string (``'port'``, ``"Hi, Bo!"``, “x”): its text occurs in a source;
- the name of a builtin exception (``KeyError``) or of a builtin type that is
  not also an English word (``int``, ``str``, ``NoneType``): it occurs in a source.

Answers and capability results are prose and display text (reprs, tracebacks),
not code, so they are scanned as text; there is no program to parse.
"""

from __future__ import annotations

import builtins
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from remora.assistant.executor import CallRecord

__all__ = ["NOT_FOUND", "Grounding", "answer_values", "check_answer", "source_texts"]

NOT_FOUND = "I could not find that out."

_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?!\w)")
# Quote pairs that open after a non-word character and close before one, so the
# apostrophes of "don't" or "the user's" open nothing.
_QUOTED = re.compile(r"(?<!\w)(?:'([^'\n]+)'|\"([^\"\n]+)\"|“([^”\n]+)”|‘([^’\n]+)’)(?!\w)")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TYPE_WORDS = frozenset(
    {"int", "float", "str", "bool", "dict", "tuple", "bytes", "bytearray", "frozenset", "NoneType"}
)


@dataclass(frozen=True, slots=True)
class AnswerValue:
    kind: str  # "number", "string" or "name"
    text: str


@dataclass(frozen=True, slots=True)
class Grounding:
    """The answer's values and those no source supports (empty: the answer may be shown)."""

    values: tuple[AnswerValue, ...]
    unsupported: tuple[AnswerValue, ...]

    @property
    def ok(self) -> bool:
        return not self.unsupported

    def reason(self) -> str:
        shown = ", ".join(f"{v.kind} {v.text}" for v in self.unsupported)
        return f"the answer states values no function returned: {shown}"


def _is_builtin_exception(word: str) -> bool:
    found = getattr(builtins, word, None)
    return isinstance(found, type) and issubclass(found, BaseException)


def answer_values(answer: str) -> list[AnswerValue]:
    """The numbers, quoted strings and builtin type or exception names of ``answer``."""
    found: list[AnswerValue] = []

    def add(value: AnswerValue) -> None:
        if value not in found:
            found.append(value)

    for match in _QUOTED.finditer(answer):
        text = next(group for group in match.groups() if group is not None)
        add(AnswerValue("string", text))
    for match in _NUMBER.finditer(answer):
        add(AnswerValue("number", match.group()))
    for match in _WORD.finditer(answer):
        word = match.group()
        if word in _TYPE_WORDS or _is_builtin_exception(word):
            add(AnswerValue("name", word))
    return found


def _strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON-shaped value (keys too: a dict's repr holds its keys)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def source_texts(records: Iterable[CallRecord], question: str) -> list[str]:
    """What the answer may rest on: every string the capabilities returned (results
    and errors alike: a raised exception is a finding), what they were asked
    (``eval_expr(total * 7)`` returning 42 is a fact about 7 too), and the question."""
    texts = [question]
    for record in records:
        payload = record.envelope.get("result") if record.ok else record.envelope.get("error")
        texts.extend(_strings(record.arguments))
        texts.extend(_strings(payload))
    return texts


def _decimals(number: str) -> int:
    mantissa = number.lower().split("e", 1)[0]
    return len(mantissa.split(".", 1)[1]) if "." in mantissa else 0


def _number_supported(text: str, known: list[float]) -> bool:
    value = float(text)
    places = _decimals(text)
    for candidate in known:
        if candidate == value:
            return True
        if places and math.isfinite(candidate) and round(candidate, places) == value:
            return True
    return False


def check_answer(answer: str, sources: list[str]) -> Grounding:
    """Which of the answer's values no source supports."""
    values = answer_values(answer)
    known = [float(m.group()) for text in sources for m in _NUMBER.finditer(text)]
    joined = "\n".join(sources)
    unsupported = tuple(value for value in values if not _supported(value, known, joined))
    return Grounding(tuple(values), unsupported)


def _supported(value: AnswerValue, known: list[float], joined: str) -> bool:
    if value.kind == "number":
        return _number_supported(value.text, known)
    if value.kind == "name":  # a whole word: "int" is not in "print"
        return re.search(rf"(?<!\w){re.escape(value.text)}(?!\w)", joined) is not None
    return value.text in joined
