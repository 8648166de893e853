"""The fixture file of example argument sets: ``tests/fixtures/<module>/<name>_samples.json``.

The document is ``{"target": "module:qualname", "file", "parameters": [{name,
annotation, default}], "samples": [{"name", "args"}]}``; ``*args`` and
``**kwargs`` parameters are named with their stars. Sets are only ever added
(one whose arguments are already there is skipped), so a person's own sets and
any other keys of an existing file stay as they are.
"""

from __future__ import annotations

import json
from typing import Any

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.probes import node_call_target
from remora.code.samples.sample_results import AddedSamples, SampleFixture
from remora.code.values import CallParameter, CallTarget

__all__ = ["fixture_document", "fixture_path"]


def fixture_path(file_path: str, full_name: str) -> str:
    stem = file_path.rsplit("/", 1)[-1].removesuffix(".py")
    if stem == "__init__":
        stem = file_path.rsplit("/", 2)[-2] if "/" in file_path else "package"
    return f"tests/fixtures/{stem}/{full_name}_samples.json"


def _described(parameter: CallParameter) -> dict[str, Any]:
    stars = {"var_positional": "*", "var_keyword": "**"}.get(parameter["kind"], "")
    return {
        "name": stars + parameter["name"],
        "annotation": parameter["annotation"],
        "default": parameter["default"],
    }


def fixture_document(
    existing: dict[str, Any], target: CallTarget, file_path: str, sets: list[dict[str, Any]]
) -> tuple[dict[str, Any], int]:
    """(the document with the new sets added, how many were new)."""
    document = dict(existing)
    old = [s for s in document.get("samples", []) if isinstance(s, dict)]
    known = [json.dumps(s.get("args"), sort_keys=True) for s in old]
    fresh: list[dict[str, Any]] = []
    for entry in sets:
        key = json.dumps(entry["args"], sort_keys=True)
        if key not in known:
            known.append(key)
            fresh.append({"name": entry["name"], "args": entry["args"]})
    document["target"] = f"{target['module']}:{target['qualname']}"
    document["file"] = file_path
    document["parameters"] = [_described(p) for p in target["parameters"]]
    document["samples"] = old + fresh
    return document, len(fresh)


@host_function
def sample_fixture(context: CodeContext) -> SampleFixture:
    """The node's fixture file: ``{path, exists, samples}`` (samples as stored, [] when none)."""
    node = context.bound_node()
    path = fixture_path(node.file_path, node.full_name)
    if not context.workspace.exists(path):
        return {"path": path, "exists": False, "samples": []}
    samples = _read(context, path).get("samples", [])
    if not isinstance(samples, list):
        raise ValueError(f"{path}: 'samples' is a list of sets; fix or delete the file")
    return {"path": path, "exists": True, "samples": samples}


def _read(context: CodeContext, path: str) -> dict[str, Any]:
    try:
        document = json.loads(context.read_text(path))
    except ValueError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc}); fix or delete the file") from None
    if not isinstance(document, dict):
        raise ValueError(f"{path}: expected a JSON object with 'samples'; fix or delete the file")
    return document


@host_function
def add_to_sample_fixture(context: CodeContext, sets: list[dict[str, Any]]) -> AddedSamples:
    """Add argument sets (``{name, args}``, checked beforehand) to the node's fixture file.

    Returns ``{path, added, samples}``: how many sets were new and how many the file holds.
    """
    node = context.bound_node()
    path = fixture_path(node.file_path, node.full_name)
    existing = _read(context, path) if context.workspace.exists(path) else {}
    target = node_call_target(context)
    document, added = fixture_document(existing, target, node.file_path, sets)
    if added:
        context.write_text(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    return {"path": path, "added": added, "samples": len(document["samples"])}
