"""RemoraConfig: defaults < remora.yaml < REMORA_* environment < command-line flags.

``sections.py`` holds the sections and their defaults, ``loading.py`` the
layering, the source of every value and the errors that name file, line and key.
"""

from remora.config.loading import (
    CONFIG_FILENAME,
    ENV_PREFIX,
    LoadedConfig,
    find_config_file,
    load_config,
)
from remora.config.sections import (
    DEFAULT_EMBEDDED_MODEL,
    DEFAULT_PROMPT_CACHE_MIB,
    PROVIDER_NAMES,
    AssistantConfig,
    DiscoveryConfig,
    EventsConfig,
    LspConfig,
    ModelConfig,
    OperationConfig,
    ProviderName,
    RemoraConfig,
    RequestRetryConfig,
    RunnerConfig,
    SandboxConfig,
    SandboxLimitOverrides,
    TurnPolicyConfig,
    WatchConfig,
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
    "find_config_file",
    "load_config",
]
