"""What every assistant front end shares: a checked provider, the limits, an event
loop, and how an answer is shown.

``remora repl``, ``remora ask`` and IPython's ``%ask`` each build one
:class:`AssistantService` from the configuration and ask it questions
synchronously; each question is independent (memory per question only).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from remora.assistant.bridge import LoopBridge
from remora.assistant.capabilities import Capabilities
from remora.assistant.executor import describe_call
from remora.assistant.session import AssistantAnswer, AssistantLimits, ask, assistant_profile
from remora.assistant.startup import check_model
from remora.config import AssistantConfig, ModelConfig, RemoraConfig
from remora.errors import error_for
from remora.events import EventEmitter, NullEmitter, build_emitter
from remora.providers.base import Provider, ProviderError
from remora.providers.factory import create_provider

__all__ = ["AssistantService", "limits_from_config", "render_answer"]


def limits_from_config(config: RemoraConfig) -> AssistantLimits:
    section: AssistantConfig = config.assistant
    return AssistantLimits(
        max_steps=section.max_steps,
        step_timeout_s=section.step_timeout,
        total_timeout_s=section.total_timeout,
        invalid_response_retries=section.invalid_response_retries,
        max_tokens=config.runner.max_tokens,
        temperature=config.runner.temperature,
        repeat_guard=config.runner.policy.repeat_guard,
    )


def render_answer(answer: AssistantAnswer) -> str:
    return answer.text


class AssistantService:
    """One provider for the life of a console; questions run on its event loop."""

    def __init__(
        self,
        provider: Provider,
        model: ModelConfig,
        limits: AssistantLimits,
        *,
        emitter: EventEmitter | None = None,
        show_call: Callable[[str], None] | None = None,
    ) -> None:
        # Text answers are always allowed for the assistant, whatever the profile.
        provider.profile = assistant_profile(provider.profile)
        self.provider = provider
        self.model = model
        self.limits = limits
        self.emitter: EventEmitter = emitter or NullEmitter()
        self.show_call = show_call
        self._bridge = LoopBridge()
        self._closed = False

    @classmethod
    def from_config(
        cls, config: RemoraConfig, *, show_call: Callable[[str], None] | None = None
    ) -> AssistantService:
        provider = create_provider(config.model, config.runner.model_profile)
        emitter = build_emitter(
            config.events.enabled, config.events.output, config.events.max_payload_chars
        )
        return cls(
            provider, config.model, limits_from_config(config), emitter=emitter, show_call=show_call
        )

    def check(self) -> None:
        """The startup check: RemoraError (AGENT_002) when the model cannot serve.

        An in-process model is loaded here too, so that loading it (and fetching
        it on first use) does not eat the first question's 8-second step.
        """
        self._bridge.run(lambda: check_model(self.provider, self.model))
        load = getattr(self.provider, "engine", None)
        if callable(load):
            try:
                self._bridge.run(load)
            except ProviderError as exc:
                raise error_for(
                    exc.code,
                    f"model {self.model.id} ({self.model.provider}) "
                    f"could not be loaded: {exc.message}",
                    "check model.path / model.id (`remora models`)",
                ) from exc

    def _on_call(self, name: str, arguments: dict[str, Any]) -> None:
        if self.show_call is not None:
            self.show_call(describe_call(name, arguments))

    def ask(self, question: str, capabilities: Capabilities) -> AssistantAnswer:
        return self._bridge.run(
            lambda: ask(
                question,
                self.provider,
                capabilities,
                self.limits,
                emitter=self.emitter,
                on_call=self._on_call,
            )
        )

    def ask_text(self, question: str, capabilities: Capabilities) -> str:
        return render_answer(self.ask(question, capabilities))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._bridge.close(self.provider.aclose)
        self.emitter.close()
