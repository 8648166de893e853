"""Model providers: one adapter per wire format behind the Provider protocol."""

from remora.providers.base import Availability, Provider, ProviderError
from remora.providers.profiles import BUILTIN_PROFILES, ModelProfile, resolve_profile

__all__ = [
    "BUILTIN_PROFILES",
    "Availability",
    "ModelProfile",
    "Provider",
    "ProviderError",
    "resolve_profile",
]
