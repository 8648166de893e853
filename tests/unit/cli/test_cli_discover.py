"""``remora discover`` through typer's runner and through ``main()``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remora.cli import app, main
from remora.errors import RemoraError

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample_project"

runner = CliRunner()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "cart.py").write_text(
        "class Cart:\n    def add(self, item):\n        pass\n\n"
        "    async def checkout(self):\n        pass\n\n\ndef empty_cart():\n    return Cart()\n"
    )
    (tmp_path / "shop" / "broken.py").write_text("def ok():\n    pass\n\ndef bad(:\n")
    return tmp_path


def test_table_lists_nodes_with_locations(project: Path) -> None:
    result = runner.invoke(app, ["discover", str(project)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["type", "full_name", "location"]
    rows = [line.split() for line in lines[1:]]
    assert ["method", "Cart.checkout", "shop/cart.py:5-6"] in rows
    assert ["function", "empty_cart", "shop/cart.py:9-10"] in rows
    assert ["file", "shop/broken.py", "shop/broken.py:1-4"] in rows


def test_warnings_go_to_stderr(project: Path) -> None:
    result = runner.invoke(app, ["discover", str(project)])
    assert "warning: shop/broken.py:4: syntax error" in result.stderr
    assert "warning" not in result.stdout
    assert "nodes in 2 files" in result.stderr


def test_json_without_text_by_default(project: Path) -> None:
    result = runner.invoke(app, ["discover", str(project / "shop" / "cart.py"), "--format", "json"])
    assert result.exit_code == 0, result.output
    nodes = json.loads(result.stdout)
    assert [(n["node_type"], n["full_name"]) for n in nodes] == [
        ("file", "shop/cart.py"),
        ("class", "Cart"),
        ("method", "Cart.add"),
        ("method", "Cart.checkout"),
        ("function", "empty_cart"),
    ]
    assert all("text" not in n for n in nodes)
    checkout = nodes[3]
    assert checkout["is_async"] is True
    assert checkout["file_path"] == "shop/cart.py"
    assert len(checkout["node_id"]) == 16


def test_json_with_text_and_type_filter(project: Path) -> None:
    result = runner.invoke(
        app, ["discover", str(project), "-f", "json", "--with-text", "--type", "function, method"]
    )
    assert result.exit_code == 0, result.output
    nodes = json.loads(result.stdout)
    assert {n["node_type"] for n in nodes} == {"function", "method"}
    add = next(n for n in nodes if n["full_name"] == "Cart.add")
    assert add["text"] == "def add(self, item):\n        pass"


def test_unknown_type_is_a_usage_error(project: Path) -> None:
    result = runner.invoke(app, ["discover", str(project), "--type", "module"])
    assert result.exit_code == 2
    assert "unknown node type 'module'" in result.output


def test_missing_path_raises_disc_001(project: Path) -> None:
    result = runner.invoke(app, ["discover", str(project / "missing")])
    assert isinstance(result.exception, RemoraError)
    assert result.exception.code == "DISC_001"


def test_missing_path_through_main_is_one_line_and_exit_2(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["remora", "discover", str(project / "missing")])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[0] == f"error[DISC_001]: path does not exist: {project / 'missing'}"
    assert "Traceback" not in err


def test_defaults_to_the_current_directory(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project / "shop")
    result = runner.invoke(app, ["discover", "-f", "json", "-t", "class"])
    assert result.exit_code == 0, result.output
    assert [n["full_name"] for n in json.loads(result.stdout)] == ["Cart"]


def test_config_ignore_and_events(project: Path) -> None:
    (project / "remora.yaml").write_text(
        "discovery:\n  ignore: ['broken.py']\nevents:\n  enabled: true\n"
    )
    result = runner.invoke(app, ["discover", str(project), "-f", "json", "-t", "file"])
    assert result.exit_code == 0, result.output
    assert [n["file_path"] for n in json.loads(result.stdout)] == ["shop/cart.py"]
    events = [
        json.loads(line) for line in (project / ".remora" / "events.jsonl").read_text().splitlines()
    ]
    assert events[-1]["kind"] == "discovery_done" and events[-1]["files"] == 1


def test_sample_project_json() -> None:
    result = runner.invoke(app, ["discover", str(SAMPLE), "--format", "json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    nodes = json.loads(result.stdout)
    names = {n["full_name"] for n in nodes}
    assert {"Warehouse.total_value", "Order.place", "orders_csv", "tests/test_pricing.py"} <= names
