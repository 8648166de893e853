"""What ``remora agents`` shows: every agent, validated, with its model's availability."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from remora.agents.definition import SubagentDefinition
from remora.agents.loader import AgentLoadError
from remora.agents.registry import AGENT_FILENAME, AgentRegistry
from remora.config import ModelConfig, RemoraConfig
from remora.profiles import resolve_profile
from remora.providers.base import Availability
from remora.providers.factory import check_availability

__all__ = ["agent_yaml_files", "describe_agents"]


async def _check_models(
    models: Iterable[tuple[str, ModelConfig]], profile_name: str | None
) -> dict[str, Availability]:
    distinct = dict(models)
    results = await asyncio.gather(
        *(check_availability(m, profile_name) for m in distinct.values())
    )
    return dict(zip(distinct, results, strict=True))


def _profile_name(explicit: str | None, model_id: str) -> str:
    try:
        return resolve_profile(explicit, model_id).name
    except ValueError as exc:  # an agent's model override may name an unknown profile
        return f"invalid ({exc})"


def _key(model: ModelConfig) -> str:
    return json.dumps(model.model_dump(mode="json"), sort_keys=True)


def describe_agents(
    config: RemoraConfig, project_root: Path, *, check_models: bool = True
) -> list[dict[str, Any]]:
    """One entry per agent (bundled and user), each validated; plain data for tables/JSON."""
    registry = AgentRegistry(config.agents_dir, project_root=project_root)
    profile_name = config.runner.model_profile
    rows: list[dict[str, Any]] = []
    models: list[tuple[str, ModelConfig]] = []
    for entry, outcome in zip(registry.entries(), registry.validate().values(), strict=True):
        definition = outcome if isinstance(outcome, SubagentDefinition) else None
        model = config.model_for(entry.name, definition.model if definition else None)
        models.append((_key(model), model))
        row: dict[str, Any] = {
            "name": entry.name,
            "origin": entry.origin,
            "overrides_bundled": entry.overrides,
            "path": str(entry.path),
            "valid": definition is not None,
            "problems": outcome.findings if isinstance(outcome, AgentLoadError) else [],
            "description": definition.description if definition else "",
            "node_types": list(definition.node_types) if definition else [],
            "tools": [t.name for t in definition.tools] if definition else [],
            "max_turns": definition.max_turns if definition else None,
            "model": {
                "provider": model.provider,
                "id": model.id,
                "profile": _profile_name(profile_name or model.profile, model.id),
            },
            "_model_key": _key(model),
        }
        rows.append(row)
    availability = asyncio.run(_check_models(models, profile_name)) if check_models else {}
    for row in rows:
        found = availability.get(row.pop("_model_key"))
        if found is not None:
            row["model"].update(available=found.ok, reason=found.reason, hint=found.hint)
    return rows


def agent_yaml_files(paths: Iterable[Path]) -> list[Path]:
    """Agent definitions named by ``paths``: YAML files as given, ``agent.yaml`` in directories."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(path.rglob(AGENT_FILENAME)))
        elif path.suffix in (".yaml", ".yml"):
            found.append(path)
    return found
