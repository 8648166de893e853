from __future__ import annotations

import json
from pathlib import Path

from remora.events import Event, JsonlSink, NullEmitter, build_emitter, truncate_payload


def test_truncation_says_how_long_it_was() -> None:
    cut = truncate_payload({"a": "x" * 50, "b": ["y" * 5]}, 10)
    assert cut["a"].startswith("x" * 10)
    assert "truncated 40 of 50" in cut["a"]
    assert cut["b"] == ["yyyyy"]


def test_jsonl_sink_appends_lines(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "events.jsonl"
    sink = JsonlSink(target, max_payload_chars=5)
    sink.emit(Event("tool_call", {"name": "read_file", "args": "abcdefghij"}, run_id="r1"))
    sink.emit(Event("run_end", {"status": "success"}, run_id="r1"))
    sink.close()
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert [line["kind"] for line in lines] == ["tool_call", "run_end"]
    assert lines[0]["run_id"] == "r1"
    assert lines[0]["args"].startswith("abcde…")


def test_build_emitter_off_is_null(tmp_path: Path) -> None:
    assert isinstance(build_emitter(False, str(tmp_path / "x"), 10), NullEmitter)
    assert not (tmp_path / "x").exists()


def test_build_emitter_stdout(capsys: object) -> None:
    emitter = build_emitter(True, "-", 100)
    emitter.emit(Event("warning", {"message": "hi"}))
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert json.loads(out)["message"] == "hi"
