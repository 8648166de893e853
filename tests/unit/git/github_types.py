"""Checks of request bodies against GitHub's published types (githubkit's generated models)."""

from __future__ import annotations

import typing
from typing import Any

__all__ = ["strict"]


def _models(annotation: Any) -> list[type[Any]]:
    """The pydantic models inside an annotation (``Missing[list[Item]]`` -> [Item])."""
    from pydantic import BaseModel

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models(arg)]


def strict(model: type[Any], data: Any) -> None:
    """``data`` validates against the githubkit model and has no key the model lacks."""
    model.model_validate(data)
    known = {f.alias or n for n, f in model.model_fields.items()}
    assert set(data) <= known, set(data) - known
    for name, field in model.model_fields.items():
        value = data.get(field.alias or name)
        for inner in _models(field.annotation):
            for item in value if isinstance(value, list) else [value] if value else []:
                if isinstance(item, dict):
                    strict(inner, item)
