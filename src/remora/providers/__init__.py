"""Model providers: one adapter per wire format behind the Provider protocol."""

from remora.profiles import BUILTIN_PROFILES, ModelProfile, resolve_profile
from remora.providers.base import Availability, Provider, ProviderError

__all__ = [
    "BUILTIN_PROFILES",
    "Availability",
    "ModelProfile",
    "Provider",
    "ProviderError",
    "resolve_profile",
]
