"""Parsing FunctionGemma calls out of model output (see ``functiongemma``).

A recursive-descent reader over ``<start_function_call>call:NAME{...}`` bodies:
``<escape>`` strings, bare keys (escaped or quoted keys are accepted too), nested
objects and lists, numbers, booleans and null. It is lenient where a model's
output may be (whitespace, a bare unescaped word, a stripped end tag at the very
end) and strict where the structure is broken: an unterminated call is an error,
never a guess.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "CALL_END",
    "CALL_START",
    "ESCAPE",
    "RESPONSE_END",
    "RESPONSE_START",
    "ParseResult",
    "ParsedCall",
    "parse_calls",
]

CALL_START = "<start_function_call>"
CALL_END = "<end_function_call>"
RESPONSE_START = "<start_function_response>"
RESPONSE_END = "<end_function_response>"
ESCAPE = "<escape>"


@dataclass(frozen=True, slots=True)
class ParsedCall:
    """A tool call read out of text (FunctionGemma tags or JSON)."""

    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ParseResult:
    """Calls found, the text outside them, and what could not be parsed.

    ``errors`` non-empty means some of the output looked like a call but was
    broken; the caller decides whether that makes the turn invalid.
    """

    calls: list[ParsedCall] = field(default_factory=list)
    text: str = ""
    errors: list[str] = field(default_factory=list)


class _SyntaxError(ValueError):
    def __init__(self, message: str, pos: int) -> None:
        super().__init__(f"{message} at offset {pos}")
        self.pos = pos


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_KEY = re.compile(r"[A-Za-z0-9_.\-$]+")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$")
_BARE_END = ",}]"


class _Reader:
    """A recursive-descent reader over one call body."""

    def __init__(self, text: str, pos: int) -> None:
        self.text = text
        self.pos = pos

    def _ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def _expect(self, token: str) -> None:
        self._ws()
        if not self.text.startswith(token, self.pos):
            found = self.text[self.pos : self.pos + 12] or "end of text"
            raise _SyntaxError(f"expected {token!r}, found {found!r}", self.pos)
        self.pos += len(token)

    def _peek(self, token: str) -> bool:
        self._ws()
        return self.text.startswith(token, self.pos)

    def escaped(self) -> str:
        self._expect(ESCAPE)
        end = self.text.find(ESCAPE, self.pos)
        if end < 0:
            raise _SyntaxError("unterminated <escape> string", self.pos)
        value = self.text[self.pos : end]
        self.pos = end + len(ESCAPE)
        return value

    def key(self) -> str:
        if self._peek(ESCAPE):
            return self.escaped()
        if self._peek('"'):
            decoder = json.JSONDecoder()
            value, self.pos = decoder.raw_decode(self.text, self.pos)
            return str(value)
        match = _KEY.match(self.text, self.pos)
        if not match:
            raise _SyntaxError("expected a key", self.pos)
        self.pos = match.end()
        return match.group()

    def obj(self) -> dict[str, Any]:
        self._expect("{")
        result: dict[str, Any] = {}
        if self._peek("}"):
            self.pos += 1
            return result
        while True:
            key = self.key()
            self._expect(":")
            result[key] = self.value()
            if self._peek(","):
                self.pos += 1
                continue
            self._expect("}")
            return result

    def array(self) -> list[Any]:
        self._expect("[")
        items: list[Any] = []
        if self._peek("]"):
            self.pos += 1
            return items
        while True:
            items.append(self.value())
            if self._peek(","):
                self.pos += 1
                continue
            self._expect("]")
            return items

    def value(self) -> Any:
        self._ws()
        if self._peek(ESCAPE):
            return self.escaped()
        if self._peek("{"):
            return self.obj()
        if self._peek("["):
            return self.array()
        if self._peek('"'):
            try:
                value, self.pos = json.JSONDecoder().raw_decode(self.text, self.pos)
            except json.JSONDecodeError as exc:
                raise _SyntaxError("bad quoted string", self.pos) from exc
            return value
        return self._bare()

    def _bare(self) -> Any:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in _BARE_END:
            if self.text.startswith("<", self.pos):
                break
            self.pos += 1
        raw = self.text[start : self.pos].strip()
        if not raw:
            raise _SyntaxError("expected a value", start)
        if raw in ("true", "false"):
            return raw == "true"
        if raw in ("null", "None"):
            return None
        if _NUMBER.match(raw):
            return float(raw) if any(c in raw for c in ".eE") else int(raw)
        # A bare word the model did not escape: keep it as the string it means.
        return raw


def _parse_one(text: str, start: int) -> tuple[ParsedCall, int]:
    """Parse the call whose ``<start_function_call>`` begins at ``start``."""
    reader = _Reader(text, start + len(CALL_START))
    reader._expect("call:")
    reader._ws()
    match = _NAME.match(text, reader.pos)
    if not match:
        raise _SyntaxError("expected a function name after 'call:'", reader.pos)
    reader.pos = match.end()
    arguments = reader.obj()
    reader._ws()
    if text.startswith(CALL_END, reader.pos):
        reader.pos += len(CALL_END)
    elif text[reader.pos :].strip() and not text.startswith(
        (RESPONSE_START, CALL_START), reader.pos
    ):
        # Something other than the end tag, the engine's stop sequence or the
        # next call follows: the structure is broken.
        raise _SyntaxError(f"expected {CALL_END!r}", reader.pos)
    return ParsedCall(match.group(), arguments), reader.pos


def parse_calls(text: str) -> ParseResult:
    """Every ``<start_function_call>`` block in ``text``, in order.

    A body that closes but lacks ``<end_function_call>`` at the very end of the
    text is accepted (engines often strip the stop sequence). A body that never
    closes, or has broken syntax, becomes an entry in ``errors``; the text after
    it is not guessed at.
    """
    calls: list[ParsedCall] = []
    errors: list[str] = []
    outside: list[str] = []
    pos = 0
    while True:
        start = text.find(CALL_START, pos)
        if start < 0:
            outside.append(text[pos:])
            break
        outside.append(text[pos:start])
        try:
            call, pos = _parse_one(text, start)
        except (_SyntaxError, json.JSONDecodeError) as exc:
            snippet = text[start : start + 60]
            errors.append(f"malformed FunctionGemma call ({exc}): {snippet!r}")
            break
        calls.append(call)
    rest = "".join(outside)
    for token in (RESPONSE_START, RESPONSE_END, CALL_END):
        rest = rest.replace(token, "")
    return ParseResult(calls=calls, text=rest.strip(), errors=errors)
