"""Subagent definitions: YAML + tool scripts, loaded and validated."""

from remora.agents.definition import (
    NODE_TEMPLATE_VARIABLES,
    SUBMIT_RESULT,
    InitialContext,
    SubagentDefinition,
    ToolDefinition,
    node_template_vars,
)
from remora.agents.loader import AgentLoadError, load_agent
from remora.agents.registry import BUNDLED_AGENTS_DIR, AgentEntry, AgentRegistry

__all__ = [
    "BUNDLED_AGENTS_DIR",
    "NODE_TEMPLATE_VARIABLES",
    "SUBMIT_RESULT",
    "AgentEntry",
    "AgentLoadError",
    "AgentRegistry",
    "InitialContext",
    "SubagentDefinition",
    "ToolDefinition",
    "load_agent",
    "node_template_vars",
]
