"""A ruff rule's own example, before and after: the pattern a code model continues best.

Asked to "fix UP031", a small code model copies the statement back unchanged:
it does not know what the code means. Shown the rule's example from ruff's own
documentation (``ruff rule CODE``: the "Example" block and the "Use instead"
block after it) and then the statement to fix in the same shape, it continues
the pattern. The documentation is markdown, read with a markdown parser
(markdown-it-py); a one-function example (RET504's) is shown as its body, read
with ``ast``, the shape of the statements to fix.
"""

from __future__ import annotations

import asyncio
import json
import textwrap
from typing import Any

from markdown_it import MarkdownIt

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.parsing import sole_function
from remora.sandbox.commands import resolve_executable

__all__ = ["example_pair"]

# Rule code -> (name, before, after) or None: the documentation is the same for every node.
_EXAMPLES: dict[str, tuple[str, str, str] | None] = {}


def example_pair(explanation: str) -> tuple[str, str] | None:
    """(before, after): the first Python block under the "Example" heading and the one after it."""
    blocks: list[str] = []
    heading = ""
    in_heading = False
    for token in MarkdownIt().parse(explanation):
        if token.type in ("heading_open", "heading_close"):
            in_heading = token.type == "heading_open"
        elif token.type == "inline" and in_heading:
            heading = token.content.strip().lower()
        elif token.type == "fence" and heading == "example" and token.info.strip() == "python":
            blocks.append(token.content)
            if len(blocks) == 2:
                return blocks[0], blocks[1]
    return None


async def _rule_documentation(code: str) -> dict[str, Any] | None:
    """``ruff rule CODE`` as JSON; None for a code ruff has no rule for (a syntax error's)."""
    process = await asyncio.create_subprocess_exec(
        resolve_executable("ruff"),
        "rule",
        code,
        "--output-format",
        "json",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    if process.returncode != 0:
        if b"invalid value" in err or b"unknown rule" in err.lower():
            return None
        raise RuntimeError(f"ruff rule {code} failed: {err.decode(errors='replace')[:300]}")
    document: dict[str, Any] = json.loads(out)
    return document


async def _rule_example(code: str) -> tuple[str, str, str] | None:
    """(rule name, before, after) for ``code``, read once per process."""
    if code not in _EXAMPLES:
        document = await _rule_documentation(code)
        pair = None if document is None else example_pair(str(document.get("explanation", "")))
        name = code if document is None else str(document.get("name", code))
        _EXAMPLES[code] = None if pair is None else (name, *pair)
    return _EXAMPLES[code]


def _statements(example: str) -> str:
    """A one-function example as its body's statements: the shape of the unit to fix."""
    function = sole_function(example)
    if function is None:
        return example
    lines = example.splitlines(keepends=True)
    first, last = function.body[0].lineno, function.body[-1].end_lineno or len(lines)
    return textwrap.dedent("".join(lines[first - 1 : last]))


@host_function
async def lint_example_prompt(context: CodeContext, code: str, statement: str) -> str | None:
    """The text a code model continues to fix ``code`` in ``statement``, after ruff's example.

    The rule's documented example before and after (a function's body when the
    example is a function, as RET504's is: the same shape as a unit of
    statements), then ``statement`` dedented and ``# after:``. None when ruff
    documents no example for the rule.
    """
    del context  # the example does not depend on the run
    example = await _rule_example(code)
    if example is None:
        return None
    name, before, after = example
    shown = textwrap.dedent(statement).strip("\n") + "\n"
    return (
        f"# ruff {code}: {name}\n# before:\n{_statements(before)}# after:\n{_statements(after)}\n"
        f"# before:\n{shown}# after:\n"
    )
