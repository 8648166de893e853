"""The library's arguments checked at its edge (``remora.analyze``, ``remora.review``).

Python does not check annotations, and Remora's internals trusted them: a string where
a list was expected was read letter by letter (``node_types="function"`` as ``f, u, n``),
``auto_accept="no"`` was true and rewrote a project file, and ``analyze(123)`` raised a
raw ``TypeError`` from deep inside. Each public function checks its arguments here
first, strictly (no truthiness, no coercion but the documented ones), and a wrong one is
a :class:`UsageError` naming the argument, what it takes and what it got.

Documented conveniences: a path is a ``str`` or an ``os.PathLike``; where a list of
names is taken, one ``str`` is a comma-separated list (``"lint,docstring"``, as the
CLI's ``-o`` and ``--type``); where a list of ids is taken, one ``str`` is one id.
Where a section of the configuration is taken, the typed object of this package
(``ModelConfig``, ``RemoraConfig``) stands for the fields it was given, and a mapping
for its keys: either is an override layered over remora.yaml and the environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from remora.config.model import ModelConfig
from remora.config.sections import RemoraConfig
from remora.errors import UsageError

__all__ = [
    "check_bool",
    "check_config",
    "check_ids",
    "check_int_list",
    "check_mapping",
    "check_model",
    "check_names",
    "check_path",
    "check_paths",
    "check_text",
]


def _got(value: object) -> str:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"{type(value).__name__} {shown}"


def _wrong(name: str, wants: str, value: object) -> UsageError:
    return UsageError(f"{name}: expected {wants}, got {_got(value)}", f"pass {name} as {wants}")


def check_bool(name: str, value: object) -> bool:
    """``True`` or ``False`` only: ``"no"``, ``0`` and ``None`` are not booleans here."""
    if type(value) is not bool:
        raise _wrong(name, "True or False", value)
    return value


def check_path(name: str, value: object) -> Path:
    """A ``str`` or ``os.PathLike[str]`` path, not empty."""
    if isinstance(value, str | os.PathLike):
        text = os.fspath(value)
        if isinstance(text, str) and text:
            return Path(text)
    raise _wrong(name, "a path (str or pathlib.Path)", value)


def check_paths(name: str, value: object) -> list[Path]:
    """One path, or a list or tuple of them (at least one)."""
    if isinstance(value, str | os.PathLike):
        return [check_path(name, value)]
    if isinstance(value, list | tuple) and value:
        return [check_path(f"{name}[{index}]", item) for index, item in enumerate(value)]
    raise _wrong(name, "a path or a non-empty list of paths", value)


def check_names(name: str, value: object) -> list[str] | None:
    """``None``, a comma-separated ``str``, or a list, tuple or set of ``str``."""
    if value is None:
        return None
    if isinstance(value, str):
        items = [part.strip() for part in value.split(",") if part.strip()]
    elif isinstance(value, list | tuple | set | frozenset):
        items = list(value)
    else:
        raise _wrong(name, 'a list of names (or "a,b")', value)
    for index, item in enumerate(items):
        if not isinstance(item, str) or not item.strip():
            raise _wrong(f"{name}[{index}]", "a name (str)", item)
    if not items:
        raise _wrong(name, 'at least one name (or "a,b")', value)
    return items


def check_ids(name: str, value: object) -> list[str]:
    """One id (a ``str``), or a list or tuple of ids (may be empty)."""
    if isinstance(value, str):
        return [check_text(name, value)]
    if isinstance(value, list | tuple):
        return [check_text(f"{name}[{index}]", item) for index, item in enumerate(value)]
    raise _wrong(name, "an id or a list of ids (str)", value)


def check_text(name: str, value: object, *, optional: bool = False) -> str:
    """A non-empty ``str`` (``optional``: any ``str``, or ``None`` returned as "")."""
    if optional and (value is None or isinstance(value, str)):
        return value or ""
    if isinstance(value, str) and value:
        return value
    raise _wrong(name, "a non-empty str" + (" or None" if optional else ""), value)


def check_int_list(name: str, value: object) -> list[int] | None:
    """``None`` or a list or tuple of integers (``True`` is not one)."""
    if value is None:
        return None
    if isinstance(value, list | tuple) and all(type(item) is int for item in value):
        return list(value)
    raise _wrong(name, "a list of integers", value)


def check_mapping(name: str, value: object) -> Mapping[str, Any] | None:
    """``None`` or a mapping with ``str`` keys."""
    if value is None:
        return None
    if isinstance(value, Mapping) and all(isinstance(key, str) for key in value):
        return value
    raise _wrong(name, "a dict with str keys", value)


def _given(section: BaseModel) -> dict[str, Any]:
    """The fields a typed section was given (nested ones too), not its defaults: the
    rest comes from remora.yaml and the environment, as with a mapping."""
    return section.model_dump(exclude_unset=True)


def check_model(name: str, value: object) -> str | Mapping[str, Any] | None:
    """``None``, a model id (``str``), a ``ModelConfig`` or the model section as a mapping."""
    if value is None or (isinstance(value, str) and value):
        return value
    if isinstance(value, ModelConfig):
        return _given(value)
    if isinstance(value, Mapping):
        return check_mapping(name, value)
    raise _wrong(name, "a model id (str), a remora.ModelConfig or a dict of its keys", value)


def check_config(name: str, value: object) -> Mapping[str, Any] | None:
    """``None``, a ``RemoraConfig`` or a mapping nested as remora.yaml is."""
    if isinstance(value, RemoraConfig):
        return _given(value)
    if value is None or isinstance(value, Mapping):
        return check_mapping(name, value)
    raise _wrong(name, "a remora.RemoraConfig or a dict nested as remora.yaml", value)
