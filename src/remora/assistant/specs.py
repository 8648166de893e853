"""What the model is told about each capability: names, descriptions, schemas.

Schemas are strict (``additionalProperties: false``) so a wrong argument name
comes back as ``invalid_args`` the model can read, instead of being ignored.
"""

from __future__ import annotations

from typing import Any

from remora.conversation import ToolSpec

__all__ = ["CAPABILITY_NAMES", "CAPABILITY_SPECS", "DEFAULT_LIMITS", "spec_for"]

# Default caps on what one result may carry (the model's context is small).
DEFAULT_LIMITS = {
    "repr_chars": 2000,
    "doc_chars": 2000,
    "dir_members": 200,
    "globals": 200,
    "stream_chars": 4000,
}

_EXPR: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "description": "A variable name or Python expression in the session, e.g. data or data.keys",
}


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return schema


CAPABILITY_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "list_globals",
        "List the global variables of the live Python session with their type names.",
        _object(
            {
                "include_private": {
                    "type": "boolean",
                    "description": "Also list names starting with an underscore",
                }
            },
            [],
        ),
    ),
    ToolSpec(
        "get_type",
        "Get the type of a value in the session: name, module and qualified name.",
        _object({"expr": _EXPR}, ["expr"]),
    ),
    ToolSpec(
        "get_repr",
        "Get repr() of a value in the session, truncated to max_chars.",
        _object(
            {
                "expr": _EXPR,
                "max_chars": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 20000,
                    "description": "Longest repr to return",
                },
            },
            ["expr"],
        ),
    ),
    ToolSpec(
        "get_dir",
        "List the attributes of a value in the session (public ones unless include_private).",
        _object(
            {
                "expr": _EXPR,
                "include_private": {
                    "type": "boolean",
                    "description": "Also list names starting with an underscore",
                },
            },
            ["expr"],
        ),
    ),
    ToolSpec(
        "get_doc",
        "Get the docstring of a value in the session, or null when it has none.",
        _object({"expr": _EXPR}, ["expr"]),
    ),
    ToolSpec(
        "eval_expr",
        "Evaluate one Python expression in the session; returns its repr and printed output.",
        _object(
            {"expr": {**_EXPR, "description": "One Python expression, e.g. len(data)"}}, ["expr"]
        ),
    ),
    ToolSpec(
        "get_last_exception",
        "Get the last exception raised in the session (type, message, traceback), or null.",
        _object({}, []),
    ),
)

CAPABILITY_NAMES: tuple[str, ...] = tuple(spec.name for spec in CAPABILITY_SPECS)
_BY_NAME = {spec.name: spec for spec in CAPABILITY_SPECS}


def spec_for(name: str) -> ToolSpec | None:
    return _BY_NAME.get(name)
