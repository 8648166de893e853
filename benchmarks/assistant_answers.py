"""Does the assistant answer correctly? Questions over small scripts, scored against the
sessions' real values.

Each question of ``assistant_questions/questions.yaml`` names a script of
``assistant_questions/scripts``. The script is run as ``remora ask --exec`` runs
it, the question is asked about the session it left (a fresh run per
question), and the printed answer is scored against values the scorer computes
itself: it runs the script again and evaluates the question's ``expect``
expressions there (``_exc`` is the exception the script raised).

The rule: an answer is correct when every expected value appears in it, and it
is not a degraded answer (a limit's report or "I could not find that out"):

- an int: a number in the answer equal to it;
- a float: a number equal to it, or equal to it rounded to as many decimals
  as the answer gives (at least one);
- a str: the text itself, case-sensitive, anywhere in the answer;
- a bool or None: its Python spelling as a word;
- anything else: its repr.

The model is the configured one (``REMORA_MODEL__*`` or remora.yaml as for the
CLI), with the assistant's default limits unless overridden. Prints one line
per question and a summary: share correct, by kind, seconds per question,
load average before and after.

    .venv/bin/python benchmarks/assistant_answers.py [--only cart.py] [--limit N]
        [--step-timeout S --total-timeout S] [--json-out FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import statistics
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from remora.assistant.capabilities import Capabilities
from remora.assistant.script import ScriptRun, run_script
from remora.assistant.service import AssistantService
from remora.config import load_config

HERE = Path(__file__).resolve().parent / "assistant_questions"
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?!\w)")


@dataclass(frozen=True)
class Question:
    script: str
    kind: str
    question: str
    expect: tuple[str, ...]


def load_questions(path: Path) -> list[Question]:
    data = yaml.safe_load(path.read_text())
    questions = []
    for index, item in enumerate(data, 1):
        missing = {"script", "kind", "question", "expect"} - set(item)
        if missing:
            raise SystemExit(f"{path}: question {index}: missing {', '.join(sorted(missing))}")
        script = HERE / "scripts" / item["script"]
        if not script.is_file():
            raise SystemExit(f"{path}: question {index}: no script {script}")
        expect = tuple(str(e) for e in item["expect"])
        questions.append(Question(item["script"], item["kind"], item["question"], expect))
    return questions


def quiet_run(script: Path) -> ScriptRun:
    """The script's session, its printing kept off the report."""
    with contextlib.redirect_stdout(io.StringIO()):
        return run_script(script)


def real_values(question: Question) -> list[Any]:
    """The expected values, from a run of the script the assistant never touched."""
    run = quiet_run(HERE / "scripts" / question.script)
    namespace = {**run.namespace, "_exc": run.error}
    return [eval(expr, namespace) for expr in question.expect]


def _numbers(answer: str) -> list[str]:
    return [m.group() for m in _NUMBER.finditer(answer)]


def value_in_answer(value: Any, answer: str) -> bool:
    if isinstance(value, bool) or value is None:
        return re.search(rf"\b{value!r}\b", answer) is not None
    if isinstance(value, int):
        return any(float(n) == value for n in _numbers(answer))
    if isinstance(value, float):
        for number in _numbers(answer):
            places = len(number.split(".", 1)[1]) if "." in number else 0
            if float(number) == value or (places and round(value, places) == float(number)):
                return True
        return False
    if isinstance(value, str):
        return value in answer
    return repr(value) in answer


def ask_one(service: AssistantService, question: Question) -> dict[str, Any]:
    expected = real_values(question)
    run = quiet_run(HERE / "scripts" / question.script)
    error = run.error
    capabilities = Capabilities(run.namespace, last_exception=lambda: error)
    began = time.perf_counter()
    try:
        answer = service.ask(question.question, capabilities)
    except Exception:  # a crash is a result here: counted, shown, never hidden
        return {
            "script": question.script,
            "kind": question.kind,
            "question": question.question,
            "expected": [repr(v) for v in expected],
            "correct": False,
            "seconds": round(time.perf_counter() - began, 2),
            "traceback": traceback.format_exc(),
        }
    seconds = time.perf_counter() - began
    correct = not answer.degraded and all(value_in_answer(v, answer.text) for v in expected)
    return {
        "script": question.script,
        "kind": question.kind,
        "question": question.question,
        "expected": [repr(v) for v in expected],
        "answer": answer.text,
        "model_answer": answer.model_answer,
        "stopped_by": answer.stopped_by,
        "correct": correct,
        "seconds": round(seconds, 2),
        "steps": answer.steps,
        "calls": [c.name for c in answer.calls],
        "tokens": answer.usage.to_dict(),
    }


def summary(rows: list[dict[str, Any]], load_before: tuple[float, ...]) -> dict[str, Any]:
    kinds: dict[str, list[bool]] = {}
    for row in rows:
        kinds.setdefault(row["kind"], []).append(row["correct"])
    seconds = [row["seconds"] for row in rows]
    return {
        "questions": len(rows),
        "correct": sum(row["correct"] for row in rows),
        "share_correct": round(sum(row["correct"] for row in rows) / max(1, len(rows)), 3),
        "tracebacks": sum("traceback" in row for row in rows),
        "by_kind": {k: f"{sum(v)}/{len(v)}" for k, v in sorted(kinds.items())},
        "seconds_per_question_mean": round(statistics.mean(seconds), 2) if seconds else None,
        "seconds_per_question_median": round(statistics.median(seconds), 2) if seconds else None,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="only the questions of this script")
    parser.add_argument("--limit", type=int, help="only the first N questions")
    parser.add_argument("--step-timeout", type=float)
    parser.add_argument("--total-timeout", type=float)
    parser.add_argument("--json-out", type=Path)
    args = parser.parse_args()
    questions = load_questions(HERE / "questions.yaml")
    if args.only:
        questions = [q for q in questions if q.script == args.only]
    questions = questions[: args.limit] if args.limit else questions
    assistant: dict[str, Any] = {}
    if args.step_timeout:
        assistant["step_timeout"] = args.step_timeout
    if args.total_timeout:
        assistant["total_timeout"] = args.total_timeout
    # A project root without a remora.yaml: the model comes from the defaults and env.
    loaded = load_config(None, {"assistant": assistant} if assistant else {}, project_root=HERE)
    service = AssistantService.from_config(loaded.config)
    load_before = os.getloadavg()
    began = time.perf_counter()
    service.check()
    load_s = time.perf_counter() - began
    rows = []
    try:
        for question in questions:
            row = ask_one(service, question)
            rows.append(row)
            mark = "ok  " if row["correct"] else "MISS"
            said = row.get("answer", "<traceback>").replace("\n", " ")[:140]
            where = f"{question.script}: {question.question}"
            print(f"{mark} {row['seconds']:6.2f}s {where}", flush=True)
            print(f"       -> {said}  (expected {', '.join(row['expected'])})", flush=True)
            if row.get("model_answer"):
                print(f"       (the model said: {row['model_answer']!r})", flush=True)
    finally:
        service.close()
    report = {
        "model": str(loaded.config.model.path or loaded.config.model.id),
        "profile": service.provider.profile.name,
        "limits": {
            "step_timeout_s": service.limits.step_timeout_s,
            "total_timeout_s": service.limits.total_timeout_s,
            "max_steps": service.limits.max_steps,
        },
        "load_s": round(load_s, 2),
        **summary(rows, load_before),
    }
    print(json.dumps(report, indent=2))
    if args.json_out:
        args.json_out.write_text(json.dumps({"summary": report, "questions": rows}, indent=2))
    if report["tracebacks"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
