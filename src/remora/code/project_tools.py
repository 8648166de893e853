"""The tools a project declares: its ``pyproject.toml`` tables, pre-commit hooks, requirements.

``[tool.mypy]``, ``[tool.black]``: the names of ``pyproject.toml``'s ``[tool]`` tables
(:mod:`tomllib`); the ids of its ``.pre-commit-config.yaml`` hooks (:mod:`yaml`); the
packages it requires, tox's deps among them
(:func:`remora.code.probes.project_requirements.project_requirements`). What the type
check (:mod:`remora.code.lint.type_checks`) and the formatter
(:mod:`remora.code.formatter`) ask before using a tool the project runs.
"""

from __future__ import annotations

import tomllib
from typing import Any

import yaml

from remora.code.context import CodeContext
from remora.code.probes.project_requirements import project_requirements

__all__ = ["declared_tools", "pyproject_tool", "text_of"]


def text_of(context: CodeContext, path: str) -> str:
    """The project's file ``path`` ('' where it has none or it is not text)."""
    if not context.workspace.exists(path):
        return ""
    try:
        return context.read_text(path)
    except (OSError, ValueError):
        return ""


def pyproject_tool(context: CodeContext) -> dict[str, Any]:
    """``pyproject.toml``'s ``[tool]`` table (empty where there is none or it does not parse)."""
    try:
        tool = tomllib.loads(text_of(context, "pyproject.toml")).get("tool", {})
    except tomllib.TOMLDecodeError:
        return {}
    return tool if isinstance(tool, dict) else {}


def _hooks(context: CodeContext) -> set[str]:
    """The ids of the project's pre-commit hooks."""
    try:
        config = yaml.safe_load(text_of(context, ".pre-commit-config.yaml") or "{}")
    except yaml.YAMLError:
        return set()
    repos = config.get("repos", []) if isinstance(config, dict) else []
    return {
        str(hook.get("id"))
        for repo in repos
        if isinstance(repo, dict)
        for hook in repo.get("hooks") or []
        if isinstance(hook, dict)
    }


def declared_tools(context: CodeContext) -> set[str]:
    """Every tool name the project declares: its ``[tool.X]`` tables, hook ids, requirements."""
    return set(pyproject_tool(context)) | _hooks(context) | set(project_requirements(context))
