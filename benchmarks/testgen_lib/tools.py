"""The three generators, each run as a user would, on its own copy of the project.

Each gets the module and a time budget and leaves test files in a suite folder;
its wall time and its CPU time (every process it started, counted with
``process_cpu``'s subreaper so sandboxed programs are included) are recorded.

- remora: ``remora analyze MODULE -o test`` (the embedded default model unless
  provider options are passed through); at the budget it gets SIGINT, which
  keeps the finished runs. The test files of every change waiting for review
  become the suite, one file per change (each change writes the same test file,
  so accepting them in turn would conflict).
- remora-host: the same with the host alone: a scripted provider whose every
  turn is submit_result and which completes no text, so what the model adds is
  the difference between the two rows.
- remora-no-model-cases: the same model as remora, the test operation's option
  ``model_cases: false`` (the model is asked for no case: no completed call, no
  write_tests turn), so what the model's cases add is the difference.
- pynguin: DynaMOSA with ``--maximum-search-time`` = the budget; assertion
  generation (mutation analysis) runs after the search, as by default.
- ghostwriter: ``hypothesis write MODULE.FUNCTION`` for each public function,
  until the budget is spent.
"""

from __future__ import annotations

import ast
import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from competence_lib.oracles import workspace_text
from process_cpu import reap_orphans

from remora.results import ResultsDB
from remora.workspace import WorkspaceStore
from testgen_lib.corpus import Module, public_functions

TOOLS = ("remora", "remora-no-model-cases", "remora-host", "pynguin", "ghostwriter")
# More submit turns than a module has functions: the host-alone provider's script.
HOST_ONLY_TURNS = 2000
# Past its budget a tool may finish what it holds: Remora its running agents'
# bookkeeping after SIGINT, Pynguin its assertion generation after the search.
GRACE_S = 60
PYNGUIN_AFTER_SEARCH_S = 240
GHOSTWRITER_CALL_S = 60


@dataclass(slots=True)
class Generation:
    """What one tool did on one module: the suite's files and the cost of making them."""

    tool: str
    wall_s: float = 0.0
    cpu_s: float = 0.0
    exit_code: int | None = None
    stopped_at_budget: bool = False
    files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_timed(
    argv: list[str], cwd: Path, env: dict[str, str], soft_s: float, hard_s: float, log: Path
) -> tuple[int, float, float, bool]:
    """Run ``argv``; SIGINT at ``soft_s``, SIGKILL at ``hard_s``: exit, wall, CPU, interrupted.

    stdout goes to ``log``, stderr to ``log`` with the suffix ``.err``.
    """
    cpu_before, started = _children_cpu(), time.perf_counter()
    interrupted = False
    with log.open("w") as out, log.with_suffix(".err").open("w") as err:
        proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=out, stderr=err, start_new_session=True
        )
        try:
            proc.wait(timeout=soft_s)
        except subprocess.TimeoutExpired:
            interrupted = True
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=max(1.0, hard_s - soft_s))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    wall = time.perf_counter() - started
    reap_orphans(timeout_s=5.0)
    return proc.returncode, wall, _children_cpu() - cpu_before, interrupted


def _tail(log: Path, chars: int = 400) -> str:
    """The end of what the command printed, stderr last."""
    text = log.read_text(errors="replace") + log.with_suffix(".err").read_text(errors="replace")
    return text.strip()[-chars:]


def host_only_options(folder: Path) -> list[str]:
    """``remora analyze`` options for the host alone (the ``remora-host`` tool)."""
    script = folder / "host-only-turns.yaml"
    turn = "- calls: [{name: submit_result, arguments: {}}]\n"
    script.write_text(turn * HOST_ONLY_TURNS, encoding="utf-8")
    return ["--provider", "scripted", "--model", "host-only", "--model-path", str(script)]


def no_model_cases_options(folder: Path) -> list[str]:
    """``remora analyze`` options for the ``remora-no-model-cases`` tool: a configuration
    that turns the test operation's ``model_cases`` off."""
    config = folder / "no-model-cases.yaml"
    config.write_text("operations:\n  test:\n    options:\n      model_cases: false\n")
    return ["--config", str(config)]


def run_remora(
    module: Module,
    copy: Path,
    suite: Path,
    budget_s: float,
    passthrough: list[str],
    tool: str = "remora",
) -> Generation:
    gen = Generation(tool)
    argv = [sys.executable, "-c", "import sys; from remora.cli import main; sys.exit(main())"]
    argv += ["analyze", str(copy / module.file_path), "--project", str(copy), "-o", "test"]
    argv += ["--no-events", *passthrough]
    log = suite.parent / "remora.log"
    rc, gen.wall_s, gen.cpu_s, gen.stopped_at_budget = run_timed(
        argv, copy, dict(os.environ), budget_s, budget_s + GRACE_S, log
    )
    gen.exit_code = rc
    if rc not in (0, 1, 130):
        gen.notes.append(f"remora analyze exit {rc}: {_tail(log)}")
    if not (copy / ".remora").is_dir():
        return gen
    store = WorkspaceStore(copy)
    with ResultsDB(copy) as db:
        records = db.list(states=["pending"])
    for number, record in enumerate(records):
        if record.operation != "test" or not record.workspace_id:
            continue
        if not store.exists(record.workspace_id):
            continue
        ws = store.open(record.workspace_id)
        try:
            for path in ws.changed_files():
                name = PurePosixPath(path).name
                text = workspace_text(ws, path)
                if not (name.startswith("test") and name.endswith(".py")) or text is None:
                    continue
                node = record.node_name.replace(".", "_")
                target = suite / f"test_remora_{number:02d}_{node}.py"
                target.write_text(text, encoding="utf-8")
                gen.files.append(target.name)
        finally:
            ws.close()
    return gen


def run_pynguin(
    module: Module, copy: Path, suite: Path, budget_s: float, python: Path
) -> Generation:
    gen = Generation("pynguin")
    argv = [str(python.parent / "pynguin"), "--project-path", str(copy / module.import_root)]
    argv += ["--module-name", module.name, "--output-path", str(suite), "--algorithm", "DYNAMOSA"]
    argv += ["--maximum-search-time", str(int(budget_s)), "--seed", "1", "--no-rich", "-v"]
    # Its own venv, nothing of Remora's environment on the path.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYNGUIN_DANGER_AWARE"] = "1"
    log = suite.parent / "pynguin.log"
    hard = budget_s + PYNGUIN_AFTER_SEARCH_S
    rc, gen.wall_s, gen.cpu_s, gen.stopped_at_budget = run_timed(
        argv, copy, env, hard, hard + 10, log
    )
    gen.exit_code = rc
    gen.files = sorted(p.name for p in suite.glob("test_*.py"))
    if rc != 0:
        gen.notes.append(f"pynguin exit {rc}: {_tail(log)}")
    return gen


def run_ghostwriter(
    module: Module, copy: Path, suite: Path, budget_s: float, python: Path
) -> Generation:
    gen = Generation("ghostwriter")
    text = (copy / module.file_path).read_text(encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PYTHONPATH"] = str(copy / module.import_root)
    log = suite.parent / "ghostwriter.log"
    for function in public_functions(text):
        if gen.wall_s >= budget_s:
            gen.stopped_at_budget = True
            gen.notes.append(f"budget spent before {function}")
            break
        out = suite / f"test_gw_{function}.py"
        argv = [str(python.parent / "hypothesis"), "write", f"{module.name}.{function}"]
        rc, wall, cpu, _ = run_timed(argv, copy, env, GHOSTWRITER_CALL_S, GHOSTWRITER_CALL_S, log)
        gen.wall_s, gen.cpu_s = gen.wall_s + wall, gen.cpu_s + cpu
        written = log.read_text(errors="replace")
        try:
            ast.parse(written)
        except SyntaxError:
            written = ""
        if rc != 0 or not written.strip():
            said = _tail(log, 200) or "no test written"
            gen.notes.append(f"{function}: hypothesis write exit {rc}: {said}")
            continue
        out.write_text(written, encoding="utf-8")
        gen.files.append(out.name)
    gen.exit_code = 0
    return gen


__all__ = [
    "TOOLS",
    "Generation",
    "no_model_cases_options",
    "run_ghostwriter",
    "run_pynguin",
    "run_remora",
    "run_timed",
]
