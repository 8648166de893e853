"""The tools and question both local-provider tests (embedded, openai) put to the default model."""

from __future__ import annotations

from remora.conversation import Message, ToolSpec

__all__ = ["QUESTION", "SUBMIT", "WEATHER"]

WEATHER = ToolSpec(
    "get_weather",
    "Get the current weather for a city.",
    {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    },
)
SUBMIT = ToolSpec(
    "submit_result",
    "Finish and report what you found.",
    {
        "type": "object",
        "properties": {"summary": {"type": "string"}},
        "required": ["summary"],
        "additionalProperties": False,
    },
)
QUESTION = (
    Message.system("You answer questions by calling tools."),
    Message.user("What is the weather in Paris?"),
)
