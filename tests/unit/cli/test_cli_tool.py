"""``remora tool run`` and ``remora agents check``: through typer's runner and as a process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from remora.cli import app

runner = CliRunner()
REMORA = str(Path(sys.executable).parent / "remora")

READ = """from remora.pym import Input, external

path: str = Input("path")

@external
async def read_file(path: str) -> str: ...

text = await read_file(path)
print("read", len(text))
{"first": text.splitlines()[0]}
"""
WRITE = """from remora.pym import Input, external

@external
async def read_file(path: str) -> str: ...
@external
async def write_file(path: str, content: str) -> bool: ...
@external
async def file_exists(path: str) -> bool: ...

existed = await file_exists("out.txt")
await write_file("out.txt", "written\\n")
existed
"""
NODE = """from remora.pym import external

@external
async def get_node_metadata() -> dict[str, Any]: ...
@external
async def get_node_source() -> str: ...

meta = await get_node_metadata()
[meta["full_name"], meta["node_type"], (await get_node_source()).splitlines()[0]]
"""
FAILS = "x = 1\nx / 0\n"
LOOP = "n = 0\nwhile True:\n    n += 1\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "shop").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (root / "shop" / "cart.py").write_text(
        "class Cart:\n    def add(self, item):\n        return item\n"
    )
    tools = tmp_path / "tools"
    tools.mkdir()
    for name, body in {
        "read": READ,
        "write": WRITE,
        "node": NODE,
        "fails": FAILS,
        "loop": LOOP,
    }.items():
        (tools / f"{name}.pym").write_text(body)
    return root


def tool(project: Path, name: str) -> str:
    return str(project.parent / "tools" / f"{name}.pym")


def invoke(project: Path, *args: str) -> Any:
    return runner.invoke(app, ["tool", "run", *args, "--project", str(project)])


def workspaces(project: Path) -> list[str]:
    folder = project / ".remora" / "workspaces"
    return sorted(p.name for p in folder.glob("*.db")) if folder.is_dir() else []


def test_ok_envelope_exit_zero_and_no_workspace_left(project: Path) -> None:
    result = invoke(project, tool(project, "read"), "--args", '{"path": "shop/cart.py"}')
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "ok": True,
        "result": {"first": "class Cart:"},
        "prints": "read 57\n",
    }
    assert workspaces(project) == []


def test_error_envelope_exits_one(project: Path) -> None:
    result = invoke(project, tool(project, "fails"))
    assert result.exit_code == 1
    envelope = json.loads(result.stdout)
    assert envelope["error"]["code"] == "runtime_error"
    assert envelope["error"]["details"]["line"] == 2
    missing = invoke(project, tool(project, "read"))
    assert json.loads(missing.stdout)["error"]["code"] == "invalid_inputs"


def test_changes_stay_in_a_workspace_that_a_later_run_reuses(project: Path) -> None:
    first = invoke(project, tool(project, "write"))
    assert first.exit_code == 0 and json.loads(first.stdout)["result"] is False
    assert not (project / "out.txt").exists()
    [db] = workspaces(project)
    workspace_id = db.removesuffix(".db")
    assert f"workspace {workspace_id}: 1 changed file(s)" in first.stderr
    second = invoke(project, tool(project, "write"), "--workspace", workspace_id)
    assert json.loads(second.stdout)["result"] is True
    assert workspaces(project) == [db]


def test_node_is_bound_through_discovery(project: Path) -> None:
    result = invoke(project, tool(project, "node"), "--node", "shop/cart.py::Cart.add")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["result"] == ["Cart.add", "method", "def add(self, item):"]
    whole = invoke(project, tool(project, "node"), "--node", "shop/cart.py")
    assert json.loads(whole.stdout)["result"][:2] == ["shop/cart.py", "file"]
    unbound = invoke(project, tool(project, "node"))
    assert json.loads(unbound.stdout)["error"]["code"] == "external_error"


def run_cli(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [REMORA, *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
        check=False,
    )


def test_a_timed_out_tool_exits_one_not_134(project: Path) -> None:
    # The Monty pitfall: after a feed time limit the interpreter could abort at exit.
    for _ in range(3):
        proc = run_cli(
            project,
            "tool",
            "run",
            tool(project, "loop"),
            REMORA_SANDBOX__OVERRIDES__MAX_DURATION_S="0.3",
        )
        assert proc.returncode == 1, (proc.returncode, proc.stderr)
        assert json.loads(proc.stdout)["error"]["code"] == "time_limit"


def test_usage_and_load_errors_exit_two(project: Path) -> None:
    bad_args = run_cli(project, "tool", "run", tool(project, "read"), "--args", "[1]")
    assert bad_args.returncode == 2 and "--args must be a JSON object" in bad_args.stderr
    broken = project.parent / "tools" / "broken.pym"
    broken.write_text("import subprocess\n")
    loaded = run_cli(project, "tool", "run", str(broken))
    assert loaded.returncode == 2
    assert "AGENT_001" in loaded.stderr and "broken.pym:1 unresolved-import" in loaded.stderr


def test_agents_check_lists_findings(project: Path) -> None:
    tools = project.parent / "tools"
    (tools / "bad.pym").write_text(
        "from remora.pym import Input\nx: set[int] = Input()\nclass A(Exception):\n    pass\n"
    )
    result = runner.invoke(app, ["agents", "check", str(tools)])
    assert result.exit_code == 1
    bad = str(tools / "bad.pym")
    assert result.stdout.splitlines() == [
        f"{bad}:2 pym-input Input 'x': type set[int] has no JSON schema (supported: str, "
        "int, float, bool, None, Any, list[T], dict[str, T], T | None, Literal[...])",
        f"{bad}:3 pym-unsupported The monty syntax parser does not yet support class "
        "inheritance and metaclasses",
    ]
    assert "6 script(s) checked, 1 with problems, 2 problem(s)" in result.stderr
    good = runner.invoke(app, ["agents", "check", tool(project, "read"), "--format", "json"])
    assert good.exit_code == 0
    assert json.loads(good.stdout) == [{"file": tool(project, "read"), "ok": True, "findings": []}]


def test_agents_check_without_scripts_is_a_usage_error(tmp_path: Path) -> None:
    proc = subprocess.run(
        [REMORA, "agents", "check", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2 and "no .pym files" in proc.stderr
