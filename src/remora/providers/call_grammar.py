"""One tool call per turn for llama.cpp, with the model asked only for its choices.

Under a JSON-schema grammar the model still spends a decoding step on every token
the grammar forces: ``{"name": "`` before the name it chooses and, for a tool
without arguments, ``", "arguments": {}}`` after it. On the CPU a decoding step
costs 10-15 ms and a prompt token ~3 ms, so the forced opening goes into the
prompt as the start of the assistant's reply (read with the prompt) and the
grammar ends an argument-less call at its name; ``CallGrammar.output`` puts the
call back together, byte for byte what the full grammar would have produced.

The grammar is llguidance's Lark dialect, which llama.cpp's ``grammar`` field
takes with a ``%llguidance`` header; a tool's arguments keep their JSON schema
through ``%json``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from remora.providers.schema_calls import CallPlan, call_alternatives

__all__ = ["COMPACT_JSON", "CallGrammar", "call_grammar"]

# Compact JSON: with llguidance's default flexible whitespace a tiny model can emit
# blank space until max_tokens (seen on 4 of 161 runs of `remora analyze` on the
# sample project, each a 60 s per-turn timeout under load); fixed separators also
# save tokens on every call.
COMPACT_JSON = {"whitespace_flexible": False, "key_separator": ": ", "item_separator": ", "}

_OPENING = '{"name": "'
_NO_ARGUMENTS = '", "arguments": {}}'


def _takes_no_arguments(arguments: Mapping[str, Any]) -> bool:
    # Only a closed object without properties has a single value, {}.
    return not arguments.get("properties") and arguments.get("additionalProperties") is False


def _literal(text: str) -> str:
    # A JSON string is a valid Lark string literal (the same escapes).
    return json.dumps(text)


@dataclass(frozen=True, slots=True)
class CallGrammar:
    """The reply's forced opening, the grammar for the rest, and how to complete it."""

    prefill: str
    grammar: str
    argumentless: frozenset[str]

    def output(self, generated: str) -> str:
        """The whole call text from what the model generated after the prefill."""
        if generated in self.argumentless:
            return f"{self.prefill}{generated}{_NO_ARGUMENTS}"
        return f"{self.prefill}{generated}"


def call_grammar(plan: CallPlan) -> CallGrammar | None:
    """The grammar for a turn of exactly one call; None for plain text or several calls."""
    if not plan.constrained or plan.max_calls != 1:
        return None
    rules: list[str] = []
    choices: list[str] = []
    argumentless: set[str] = set()
    for index, (name, arguments) in enumerate(call_alternatives(plan)):
        if _takes_no_arguments(arguments):
            argumentless.add(name)
            choices.append(_literal(name))
            continue
        schema = json.dumps({**arguments, "x-guidance": COMPACT_JSON})
        rules.append(f"args_{index}: %json {schema}")
        opening = _literal(f'{name}", "arguments": ')
        choices.append(f'{opening} args_{index} "}}"')
    lines = ["%llguidance {}", "start: " + " | ".join(choices), *rules]
    return CallGrammar(_OPENING, "\n".join(lines) + "\n", frozenset(argumentless))
