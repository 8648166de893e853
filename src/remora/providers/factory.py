"""Build a Provider from the model config section.

Adapters are imported lazily by name, so a missing optional SDK only matters
when its provider is chosen, and each adapter lives in its own module. The
embedded and scripted providers need nothing beyond Remora's own dependencies;
the others need an extra (``pip install 'remora[openai]'``), and choosing one
without it is an error that names the extra. A provider name that is not built in is
an installed package's, found through its entry point (:mod:`remora.providers.plugins`).
"""

from __future__ import annotations

import importlib
from typing import Any, assert_never

from remora.config import PROVIDER_NAMES, ModelConfig, ProviderName
from remora.errors import ModelUnavailableError, RemoraError
from remora.profiles import ModelProfile, resolve_profile
from remora.providers.base import Availability, Provider
from remora.providers.plugins import plugin_provider

__all__ = ["PROVIDER_CLASSES", "PROVIDER_EXTRAS", "check_availability", "create_provider"]


def _adapter(name: ProviderName) -> str:
    """ "module:Class" of a provider's adapter; each class has
    ``from_config(model: ModelConfig, profile: ModelProfile) -> Provider``.

    The names are config's ``ProviderName``: mypy refuses a name left out here.
    """
    match name:
        case "embedded":
            return "remora.providers.embedded:EmbeddedProvider"
        case "openai":
            return "remora.providers.openai_compat:OpenAIProvider"
        case "llm":
            return "remora.providers.llm_provider:LLMProvider"
        case "gemini":
            return "remora.providers.gemini:GeminiProvider"
        case "scripted":
            return "remora.providers.scripted:ScriptedProvider"
        case _:
            assert_never(name)


# provider name -> "module:Class", in the order `remora models` lists them
PROVIDER_CLASSES: dict[str, str] = {name: _adapter(name) for name in PROVIDER_NAMES}

# provider name -> (the extra that installs its SDK, the SDK's top-level modules)
PROVIDER_EXTRAS: dict[str, tuple[str, frozenset[str]]] = {
    "openai": ("openai", frozenset({"aiohttp"})),  # its own HTTP client (openai_http)
    "llm": ("llm", frozenset({"llm", "openai", "httpx"})),
    "gemini": ("gemini", frozenset({"google"})),
}


def create_provider(model: ModelConfig, profile_name: str | None = None) -> Provider:
    """The provider for ``model``; its profile from ``profile_name``, else the model's name.

    The name is the GGUF file's when the embedded provider has ``model.path`` (it
    loads that file whatever ``model.id`` says), else ``model.id``.
    """
    embedded_file = model.provider == "embedded" and model.path is not None
    name = model.path.name if embedded_file and model.path is not None else model.id
    profile: ModelProfile = resolve_profile(profile_name or model.profile, name)
    target = PROVIDER_CLASSES.get(model.provider)
    if target is None:
        return plugin_provider(model, profile)
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = _missing_sdk(model.provider, exc)
        if missing is None:  # not the provider's SDK: a broken install or a bug
            raise
        raise missing from exc
    cls: Any = getattr(module, class_name)
    provider: Provider = cls.from_config(model, profile)
    return provider


def _missing_sdk(provider: str, exc: ModuleNotFoundError) -> ModelUnavailableError | None:
    """The error naming the extra to install when ``exc`` is the provider's SDK missing."""
    extra, modules = PROVIDER_EXTRAS.get(provider, ("", frozenset()))
    missing = (exc.name or "").split(".", 1)[0]
    if missing not in modules:
        return None
    return ModelUnavailableError(
        f"the {provider} provider needs the {missing!r} package, which is not installed",
        f"pip install 'remora[{extra}]' (or 'remora[all]' for every provider)",
    )


async def check_availability(model: ModelConfig, profile_name: str | None = None) -> Availability:
    """Whether ``model`` can serve now; a provider that cannot even be built (unknown
    provider or profile, missing model file) is reported as unavailable, not raised,
    so listings can show every model's state side by side."""
    try:
        provider = create_provider(model, profile_name)
    except RemoraError as exc:
        return Availability(False, model.id, model.provider, exc.message, exc.hint)
    try:
        return await provider.check()
    finally:
        await provider.aclose()
