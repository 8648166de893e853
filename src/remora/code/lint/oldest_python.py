"""Ruff's rules that assume a newer Python than the project supports are held back.

The project's oldest Python is read by :mod:`remora.code.python_floor`. Ruff's oldest
target is Python 3.7. For a project that supports an older one, ruff runs at ``py37``
and the findings of rules that assume a newer Python (pyupgrade's ``UP``, ``FA``, and
every rule whose ruff documentation names the ``target-version`` option) are held back
with the reason: neither ruff's fix nor the model's rewrite is made; for a project that
supports Python 2.6, so are those of the rules whose fix writes 2.7's set literals and
set or dict comprehensions (C401-C405).
"""

from __future__ import annotations

import asyncio
import json
import re

from markdown_it import MarkdownIt

from remora.sandbox.commands import resolve_executable
from remora.sandbox.ending import end_process, start_in_group

__all__ = ["assumes_newer", "documented_rules"]

_FAMILIES = re.compile(r"^(UP|FA)\d+$")
# The rules whose fix writes a set literal or a set or dict comprehension: Python 2.7's
# syntax (hyperlink, which supports 2.6: "{u'%'} is a syntax error on Python 2.6").
_PY27_SYNTAX = frozenset({"C401", "C402", "C403", "C404", "C405"})

_DOCUMENTED: dict[str, frozenset[str]] = {}


def _names_target_version(explanation: str) -> bool:
    """Whether ruff's documentation of a rule names the ``target-version`` option."""
    for token in MarkdownIt().parse(explanation):
        for child in token.children or []:
            if child.type == "code_inline" and child.content == "target-version":
                return True
    return False


async def documented_rules(limit_s: float) -> frozenset[str]:
    """The rules whose ruff documentation names ``target-version`` (``ruff rule --all``),
    read once per process; empty when ruff cannot say (the UP and FA families still count),
    and then asked again next time: a ruff that timed out or failed is no answer to keep."""
    ruff = resolve_executable("ruff")
    if ruff not in _DOCUMENTED:
        argv = [ruff, "rule", "--all", "--output-format", "json"]
        process = await start_in_group(argv, None)
        try:
            out, _ = await asyncio.wait_for(process.communicate(), limit_s)
            rules = json.loads(out) if process.returncode == 0 else None
        except ValueError:
            rules = None
        except TimeoutError:
            await end_process(process, None)
            rules = None
        except asyncio.CancelledError:
            await end_process(process, None)
            raise
        if rules is None:
            return frozenset()
        _DOCUMENTED[ruff] = frozenset(
            str(rule["code"])
            for rule in rules
            if _names_target_version(str(rule.get("explanation", "")))
        )
    return _DOCUMENTED[ruff]


def assumes_newer(
    code: object, documented: frozenset[str], version: tuple[int, int] | None = None
) -> bool:
    """Whether rule ``code`` judges code for a target Python (a project below ruff's oldest
    target gets none of its findings), or its fix writes syntax newer than ``version``,
    the project's oldest Python (a set literal or comprehension before 2.7)."""
    if version is not None and version < (2, 7) and code in _PY27_SYNTAX:
        return True
    return isinstance(code, str) and (bool(_FAMILIES.match(code)) or code in documented)
