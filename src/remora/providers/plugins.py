"""A provider that an installed package adds through an entry point (config/provider_plugins.py).

The entry point names a class with ``from_config(model: ModelConfig, profile: ModelProfile)``
returning a :class:`~remora.providers.base.Provider`, as the built-in adapters have. What
can go wrong in someone else's package (it does not import, names no such class, builds
no provider) is a :class:`ModelUnavailableError` naming the entry point and its
distribution, with the original exception chained.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint
from typing import Any

from remora.config import PROVIDER_NAMES, ModelConfig
from remora.config.provider_plugins import PROVIDER_ENTRY_POINT_GROUP, provider_entry_points
from remora.errors import ModelUnavailableError, RemoraError
from remora.profiles import ModelProfile
from remora.providers.base import Provider

__all__ = ["plugin_provider"]

_FIX = "fix or reinstall the package that declares it, or uninstall it"
_PROVIDER_PARTS = ("profile", "complete", "check", "aclose")


def _describe(entry: EntryPoint) -> str:
    """``entry point 'mine = pkg.mod:Cls' (group remora.providers, distribution pkg 1.0)``."""
    dist = entry.dist
    owner = f"distribution {dist.name} {dist.version}" if dist is not None else "no distribution"
    return (
        f"entry point '{entry.name} = {entry.value}' (group {PROVIDER_ENTRY_POINT_GROUP}, {owner})"
    )


def _one_entry(name: str) -> EntryPoint:
    entries = provider_entry_points().get(name, [])
    if not entries:
        raise ModelUnavailableError(
            f"unknown provider {name!r}",
            f"use one of: {', '.join(PROVIDER_NAMES)}, or install a package that adds it "
            f"(entry points {PROVIDER_ENTRY_POINT_GROUP!r})",
        )
    if len(entries) > 1:
        raise ModelUnavailableError(
            f"provider {name!r} is declared twice: {'; '.join(_describe(e) for e in entries)}",
            "uninstall all but one of those packages",
        )
    return entries[0]


def plugin_provider(model: ModelConfig, profile: ModelProfile) -> Provider:
    """The provider of the installed plugin named ``model.provider``."""
    entry = _one_entry(model.provider)
    where = _describe(entry)
    try:
        target: Any = entry.load()
    except Exception as exc:  # someone else's import: any failure is the plugin's
        raise ModelUnavailableError(
            f"the provider plugin {where} does not load: {type(exc).__name__}: {exc}", _FIX
        ) from exc
    from_config = getattr(target, "from_config", None)
    if not callable(from_config):
        raise ModelUnavailableError(
            f"the provider plugin {where} names {target!r}, which has no from_config()",
            "the entry point must name a class with a classmethod "
            "from_config(model: ModelConfig, profile: ModelProfile) returning the provider",
        )
    try:
        provider: object = from_config(model, profile)
    except RemoraError:
        raise  # the plugin's own error, with its hint
    except Exception as exc:
        raise ModelUnavailableError(
            f"the provider plugin {where} failed in from_config: {type(exc).__name__}: {exc}",
            _FIX,
        ) from exc
    if not isinstance(provider, Provider):
        lacking = ", ".join(part for part in _PROVIDER_PARTS if not hasattr(provider, part))
        raise ModelUnavailableError(
            f"the provider plugin {where} made a {type(provider).__name__}, which is not a "
            f"Provider (it lacks {lacking})",
            "from_config must return an object with profile, complete(), check() and aclose() "
            "(remora.providers.Provider)",
        )
    return provider
