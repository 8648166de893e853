"""Completion prompts: the model's FIM and chat tokens read from a real GGUF file's
metadata, and each request shape rendered the way the providers send it."""

from __future__ import annotations

from pathlib import Path

import pytest
from gguf import GGUFWriter

from remora.conversation import CompletionRequest
from remora.providers.completion_prompt import chat_messages, plain_prompt, raw_prompt
from remora.providers.gguf_vocab import GGUFFormatError, PromptTokens, prompt_tokens, read_tokens
from remora.providers.scripted import ScriptedProvider

QWEN = ("<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>")


def write_gguf(path: Path, tokens: list[str]) -> Path:
    """A GGUF file with metadata before and after the vocabulary, and no tensors."""
    writer = GGUFWriter(str(path), "llama")
    writer.add_context_length(128)
    writer.add_token_list(tokens)
    writer.add_token_scores([0.0] * len(tokens))
    writer.add_chat_template("{{ messages }}")
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_the_vocabulary_is_read_from_the_metadata(tmp_path: Path) -> None:
    tokens = ["a", "b", *QWEN, "<|im_start|>", "<|im_end|>", "ü"]
    path = write_gguf(tmp_path / "m.gguf", tokens)
    assert read_tokens(path) == tokens
    assert prompt_tokens(path) == PromptTokens(QWEN, chatml=True)


def test_a_vocabulary_without_markers_has_no_fim(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "plain.gguf", ["a", "<fim_prefix>", "<fim_suffix>"])
    assert prompt_tokens(path) == PromptTokens(None, chatml=False)


def test_a_file_that_is_not_gguf_or_is_cut_short_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "x.gguf").write_bytes(b"NOPE" + bytes(20))
    with pytest.raises(GGUFFormatError, match="not a GGUF file"):
        read_tokens(tmp_path / "x.gguf")
    whole = write_gguf(tmp_path / "w.gguf", ["a", "b"]).read_bytes()
    (tmp_path / "cut.gguf").write_bytes(whole[:40])
    with pytest.raises(GGUFFormatError, match="ends early"):
        read_tokens(tmp_path / "cut.gguf")


def test_each_shape_renders_as_the_model_was_trained() -> None:
    tokens = PromptTokens(QWEN, chatml=True)
    fim = CompletionRequest(prefix="def f():\n    ", suffix="\n    return 1\n")
    assert raw_prompt(fim, tokens) == (
        "<|fim_prefix|>def f():\n    <|fim_suffix|>\n    return 1\n<|fim_middle|>",
        "fim",
    )
    # Without FIM tokens the prefix is continued as it is.
    assert raw_prompt(fim, PromptTokens(None, False)) == ("def f():\n    ", "prefix")
    chat = CompletionRequest(prefix='def f():\n    """', instruction="Document f.", system="S")
    text, shape = raw_prompt(chat, tokens)
    assert shape == "chat"
    assert text == (
        "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nDocument f.<|im_end|>\n"
        '<|im_start|>assistant\ndef f():\n    """'
    )
    # A chat format the vocabulary does not show goes through the model's own template.
    assert raw_prompt(chat, PromptTokens(QWEN, chatml=False)) == (None, "chat")
    assert chat_messages(chat)[-1] == {"role": "assistant", "content": 'def f():\n    """'}


def test_a_chat_only_backend_is_told_what_goes_between() -> None:
    text = plain_prompt(CompletionRequest(prefix="A", suffix="C", instruction="Fill it."))
    assert text.startswith("Fill it.\n\n") and "BEFORE:\nA\nAFTER:\nC" in text


async def test_scripted_completions_answer_one_per_candidate_then_say_none_is_left() -> None:
    provider = ScriptedProvider(completions=["one", lambda r: r.prefix.upper()])
    done = await provider.complete_text(CompletionRequest(prefix="ab", n=2))
    assert done.texts == ("one", "AB") and done.shape == "prefix"
    with pytest.raises(Exception, match="no completion queued"):
        await provider.complete_text(CompletionRequest(prefix="x"))
