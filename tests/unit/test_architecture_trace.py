"""docs/architecture.md's trace of one docstring run matches the code.

The trace is the doc's fenced ``trace`` block: one ``module:qualname`` a line (a tool
script is named by its module alone), indented under the step that calls it. Each step
must exist (found with ``ast``) and be called by name (``name(...)`` or ``x.name(...)``)
in its caller's body, or in the body of a private helper (``_name``) of the caller's
module that the caller reaches. Naming it is not enough: ``dispatch`` has a parameter
called ``call``, and would still "name" ``SandboxToolExecutor.call`` without calling it.
A method is matched by its own name, not its class's.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
MAX_STEPS = 20
MAX_WORDS = 3000  # issue 53: a doc a newcomer reads through; figures go to performance.md
INDENT = 4

Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True, slots=True)
class Step:
    target: str  # "package.module:Class.method", or "package.script" for a tool script
    depth: int
    line: int

    @property
    def module(self) -> str:
        return self.target.partition(":")[0]

    @property
    def qualname(self) -> str:
        return self.target.partition(":")[2]

    @property
    def name(self) -> str:
        return self.qualname.rpartition(".")[2] or self.module.rpartition(".")[2]


def trace_steps(markdown: str) -> list[Step]:
    """The steps of the first fenced ``trace`` block (comments after ``#`` dropped)."""
    steps: list[Step] = []
    inside = False
    for number, raw in enumerate(markdown.splitlines(), 1):
        if not inside:
            inside = raw.strip() == "```trace"
            continue
        if raw.strip() == "```":
            return steps
        text = raw.partition("#")[0].rstrip()
        if text:
            indent = len(text) - len(text.lstrip(" "))
            steps.append(Step(text.strip(), indent // INDENT, number))
    raise AssertionError("no closed ```trace block")


def source_file(module: str, src: Path) -> Path:
    base = src.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base.with_suffix(".pym"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    raise AssertionError(f"module {module} not found under {src}")


def _definitions(tree: ast.Module) -> dict[str, Function]:
    """Every function of the module by qualname (top level and class members)."""
    found: dict[str, Function] = {}
    for node in tree.body:
        if isinstance(node, Function):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, Function):
                    found[f"{node.name}.{member.name}"] = member
    return found


def _names(node: ast.AST) -> set[str]:
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            names.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            names.add(sub.attr)
    return names


def _called(node: ast.AST) -> set[str]:
    """The names ``node`` calls: ``f`` of ``f(...)``, ``m`` of ``x.m(...)``."""
    called: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            if isinstance(sub.func, ast.Name):
                called.add(sub.func.id)
            elif isinstance(sub.func, ast.Attribute):
                called.add(sub.func.attr)
    return called


def calls(tree: ast.Module, body: ast.AST) -> set[str]:
    """Names ``body`` calls, with those called by the module's private helpers it reaches
    (a helper is reached when named at all: it may be handed to ``gather`` or a task)."""
    private: dict[str, list[Function]] = {}
    for qualname, function in _definitions(tree).items():
        leaf = qualname.rpartition(".")[2]
        if leaf.startswith("_") and not leaf.startswith("__"):
            private.setdefault(leaf, []).append(function)
    seen: set[str] = set()
    names = _names(body)
    called = _called(body)
    todo = [name for name in names if name in private]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for helper in private[name]:
            more = _names(helper)
            todo.extend(n for n in more - names if n in private)
            names |= more
            called |= _called(helper)
    return called


def check_trace(steps: list[Step], src: Path) -> list[str]:
    """What is wrong with the trace: each problem one line naming the doc's line."""
    problems: list[str] = []
    bodies: list[tuple[ast.Module, ast.AST] | None] = []
    for index, step in enumerate(steps):
        try:
            path = source_file(step.module, src)
        except AssertionError as exc:
            problems.append(f"line {step.line}: {exc}")
            bodies.append(None)
            continue
        tree = ast.parse(path.read_text(), str(path))
        body: ast.AST | None = tree
        if step.qualname:
            body = _definitions(tree).get(step.qualname)
            if body is None:
                problems.append(f"line {step.line}: no {step.qualname} in {path.name}")
        bodies.append(None if body is None else (tree, body))
        caller = next((i for i in range(index - 1, -1, -1) if steps[i].depth < step.depth), None)
        if step.depth and caller is None:
            problems.append(f"line {step.line}: indented with no step above to call it")
        if caller is None or body is None or (found := bodies[caller]) is None:
            continue
        if step.name not in calls(*found):
            problems.append(f"line {step.line}: {steps[caller].target} does not call {step.name}")
    return problems


def test_the_trace_names_existing_functions_each_called_by_the_step_above() -> None:
    steps = trace_steps(DOC.read_text())
    assert 10 <= len(steps) <= MAX_STEPS, [s.target for s in steps]
    assert check_trace(steps, ROOT / "src") == []


def test_the_traced_tool_script_is_the_agents_first_host_step() -> None:
    """The trace's second root (a bundled tool script) is reached through configuration,
    not a call: ``run_host_steps`` runs the agent's ``host_steps`` in order."""
    roots = [step for step in trace_steps(DOC.read_text()) if step.depth == 0]
    scripts = [step for step in roots if ".agents.bundled." in step.module]
    assert scripts, [step.target for step in roots]
    for step in scripts:
        agent, _, script = step.module.partition(".agents.bundled.")[2].partition(".tools.")
        definition = yaml.safe_load(
            (ROOT / "src/remora/agents/bundled" / agent / "agent.yaml").read_text()
        )
        first = definition["host_steps"][0]["tool"]
        pym = {tool["name"]: tool["pym"] for tool in definition["tools"]}[first]
        assert pym == f"tools/{script}.pym", (step.target, first, pym)


def test_a_trace_step_gone_or_no_longer_called_is_reported(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "first.py").write_text(
        "def start():\n    _helper()\n\n\ndef _helper():\n    second.middle()\n"
    )
    (package / "second.py").write_text(
        "class Runner:\n    def middle(self):\n        return 1\n\n\ndef end():\n    pass\n"
    )
    # Names the next step without calling it: a parameter, an attribute read, a reference.
    (package / "third.py").write_text(
        "def dispatch(call, runner):\n    log(call.name, runner.middle, end)\n"
    )
    doc = """```trace
pkg.first:start
    pkg.second:Runner.middle   # through first._helper
```"""
    assert check_trace(trace_steps(doc), tmp_path) == []
    broken = """```trace
pkg.first:start
    pkg.second:end
    pkg.second:gone
pkg.missing:thing
pkg.third:dispatch
    pkg.second:Runner.middle
    pkg.second:end
```"""
    assert check_trace(trace_steps(broken), tmp_path) == [
        "line 3: pkg.first:start does not call end",
        "line 4: no gone in second.py",
        "line 5: module pkg.missing not found under " + str(tmp_path),
        "line 7: pkg.third:dispatch does not call middle",
        "line 8: pkg.third:dispatch does not call end",
    ]


def test_the_doc_is_short_and_opens_with_the_layers_then_the_trace() -> None:
    text = DOC.read_text()
    words = len(text.split())  # as ``wc -w`` counts them
    assert words < MAX_WORDS, f"docs/architecture.md has {words} words; move detail out"
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections[:2] == ["## Layers and data flow", "## One docstring run, in twenty steps"]


@pytest.mark.parametrize("fence", ["```text", "```"])
def test_only_a_trace_fence_is_read(fence: str) -> None:
    with pytest.raises(AssertionError, match="no closed"):
        trace_steps(f"{fence}\npkg.first:start\n```\n")
