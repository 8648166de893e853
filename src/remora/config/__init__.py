"""RemoraConfig: defaults < remora.yaml < REMORA_* environment < command-line flags.

``model.py`` holds the model section, ``sections.py`` the others and their
defaults, ``loading.py`` the layering, the source of every value and the errors
that name file, line and key.
"""

from remora.config.loading import (
    CONFIG_FILENAME,
    ENV_PREFIX,
    LoadedConfig,
    find_config_file,
    load_config,
)
from remora.config.model import (
    DEFAULT_EMBEDDED_MODEL,
    DEFAULT_PROMPT_CACHE_MIB,
    PROVIDER_NAMES,
    ModelConfig,
    ProviderName,
    RequestRetryConfig,
)
from remora.config.sections import (
    AssistantConfig,
    DiscoveryConfig,
    EventsConfig,
    LspConfig,
    OperationConfig,
    RemoraConfig,
    RunnerConfig,
    SandboxConfig,
    SandboxLimitOverrides,
    TurnPolicyConfig,
    WatchConfig,
    default_operations,
)

__all__ = [
    "CONFIG_FILENAME",
    "DEFAULT_EMBEDDED_MODEL",
    "DEFAULT_PROMPT_CACHE_MIB",
    "ENV_PREFIX",
    "PROVIDER_NAMES",
    "AssistantConfig",
    "DiscoveryConfig",
    "EventsConfig",
    "LoadedConfig",
    "LspConfig",
    "ModelConfig",
    "OperationConfig",
    "ProviderName",
    "RemoraConfig",
    "RequestRetryConfig",
    "RunnerConfig",
    "SandboxConfig",
    "SandboxLimitOverrides",
    "TurnPolicyConfig",
    "WatchConfig",
    "default_operations",
    "find_config_file",
    "load_config",
]
