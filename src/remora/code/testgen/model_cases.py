"""The model's cases for the test search: calls completed after ``assert node(``.

A code model writes a call best as code: the prompt is the node's source, a
comment listing what no test has run yet, the import, and a test function whose
body starts ``assert node(``. The completion's call is parsed with :mod:`ast`;
its arguments become a candidate like the host's (none of a kind the node's
annotations or uses exclude; run under coverage, kept only if it adds a line or a
branch), and its ``== value`` is the model's claim, kept
unmarked only when the run agrees.
"""

from __future__ import annotations

import ast
from typing import Any

from remora import python_ast
from remora.code.completion import complete
from remora.code.context import CodeContext
from remora.code.values import (
    CallTarget,
    Candidate,
    arguments_from_text,
    label,
    node_function,
    parameter_of,
    project_class_lookup,
    snake_name,
    value_from_text,
)
from remora.code.values.argument_fit import excluded_value

__all__ = ["claim_holds", "model_call_texts", "model_candidates"]

# One ask per node: each costs a few seconds of generation on 2 cores, and three asks
# made the main job 2.2x slower (benchmarks/analyze.py, 302 s against 136 s).
MAX_MODEL_ASKS = 1


def _ask_prompt(context: CodeContext, target: CallTarget, missed: str, index: int) -> str:
    node = context.bound_node()
    owner = target["owner"] or target["qualname"]
    callee = target["qualname"]
    if target["kind"] == "method" and target["method_kind"] in ("staticmethod", "classmethod"):
        callee = f"{target['owner']}.{target['name']}"
    lines = [f"# {node.file_path}", node.text, "", "# Not run by any test yet:"]
    lines += [f"# {line[3:]}" for line in missed.splitlines() if line.startswith(">> ")]
    lines += [f"# {line.strip()}" for line in missed.splitlines() if "# never went" in line]
    lines += ["", f"from {target['module']} import {owner.split('.')[0]}", "", ""]
    lines += [f"def test_{snake_name(target['name'])}_case_{index}():", f"    assert {callee}("]
    return "\n".join(lines)


def model_call_texts(completion: str, callee: str) -> tuple[str, str | None] | None:
    """(argument text, expected text or None) of ``assert callee(<completion>``."""
    text = f"{callee}({completion.strip()}"
    try:
        tree = python_ast.parse_expression(text)
    except SyntaxError:
        return None
    call = tree.left if isinstance(tree, ast.Compare) else tree
    if not isinstance(call, ast.Call):
        return None
    parts = [ast.get_source_segment(text, a) for a in [*call.args, *call.keywords]]
    arguments = ", ".join(p for p in parts if p is not None)
    expected = None
    if isinstance(tree, ast.Compare) and isinstance(tree.ops[0], ast.Eq):
        expected = ast.get_source_segment(text, tree.comparators[0])
    return arguments, expected


async def model_candidates(
    context: CodeContext, target: CallTarget, missed: str
) -> tuple[list[Candidate], dict[str, str], list[str]]:
    """Round two: the model's calls aimed at what is missed; (candidates, claims, problems)."""
    asks = sum(1 for line in missed.splitlines() if line.startswith(">> ") or "# never" in line)
    candidates: list[Candidate] = []
    claims: dict[str, str] = {}
    problems: list[str] = []
    params = [parameter_of(p) for p in target["parameters"]]
    lookup = project_class_lookup(context)
    function = node_function(context)
    module = python_ast.parse(context.node_file_text())
    for index in range(1, min(asks, MAX_MODEL_ASKS) + 1):
        prompt = _ask_prompt(context, target, missed, index)
        asked = await complete(context, prompt, stop=["\n"], max_tokens=64)
        if asked["error"] is not None:
            problems.append(f"the model did not answer: {asked['error']}")
            break
        parsed = model_call_texts(asked["texts"][0], target["qualname"].split(".")[-1])
        if parsed is None:
            problems.append(f"not a call: {asked['texts'][0][:120]!r}")
            continue
        try:
            args = arguments_from_text(parsed[0], params, lookup)
        except ValueError as exc:
            problems.append(f"arguments {parsed[0][:80]!r}: {exc}")
            continue
        # No value the node's annotations or uses exclude, as for the host's own calls.
        if why := excluded_value(function, params, args, lookup, module):
            problems.append(f"arguments {parsed[0][:80]!r}: {why}")
            continue
        words = "_".join(f"{k}_{label(v)}" for k, v in args.items())[:40] or "no_arguments"
        candidates.append(Candidate(args, f"model_{words}"))
        if parsed[1] is not None:
            claims[f"model_{words}"] = parsed[1]
    return candidates, claims, problems


def claim_holds(context: CodeContext, row: dict[str, Any], claim: str | None) -> bool:
    """Whether the model's ``== value`` (``claim``) is what the probed call ``row`` returned."""
    returned = row.get("returned")
    if claim is None or not returned or not returned["literal"]:
        return False
    try:
        return bool(
            value_from_text(claim, project_class_lookup(context))
            == python_ast.literal_eval(returned["repr"])
        )
    except (ValueError, SyntaxError):
        return False
