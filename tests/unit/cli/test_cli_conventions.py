"""What a CLI user tries first: --version, completion, NO_COLOR, tables at 80 columns."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

from remora import __version__
from remora.cli import app
from remora.cli.output import print_table

RUN_MAIN = "import sys; from remora.cli import main; sys.argv[0] = 'remora'; main()"


def remora(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The real entry point in a child process (its own consoles, its own environment)."""
    return subprocess.run(
        [sys.executable, "-c", RUN_MAIN, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, **env},
    )


def test_version_long_and_short() -> None:
    runner = CliRunner()
    for flag in ("--version", "-V"):
        result = runner.invoke(app, [flag])
        assert result.exit_code == 0
        assert result.output == f"remora {__version__}\n"


def test_shell_completion_completes_commands() -> None:
    done = remora(_REMORA_COMPLETE="complete_bash", COMP_WORDS="remora rev", COMP_CWORD="1")
    assert done.stdout.split() == ["review"]


def test_no_color_removes_colour_codes(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing")
    coloured = remora("discover", missing, FORCE_COLOR="1")
    plain = remora("discover", missing, FORCE_COLOR="1", NO_COLOR="1")
    assert coloured.returncode == plain.returncode == 2
    assert "\x1b[31m" in coloured.stderr  # the red "error" when colour is allowed
    assert "\x1b[" not in plain.stderr
    assert "error[DISC_001]: path does not exist" in plain.stderr


def test_an_id_column_is_never_wrapped_or_cut_at_80_columns() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False, force_terminal=True, color_system=None)
    long_id = "lint-" + "0123456789abcdef" * 5  # 85 characters: wider than the terminal
    table = Table(box=None)
    table.add_column("id", no_wrap=True)
    table.add_column("summary", overflow="fold")
    table.add_row(long_id, "a summary long enough that it has to wrap onto several lines here")
    table.add_row("docstring-1", "short")
    print_table(table, console)
    assert long_id in out.getvalue().splitlines()[1]


def _summary_table() -> Table:
    table = Table(box=None)
    table.add_column("id", no_wrap=True)
    table.add_column("summary", overflow="fold")
    table.add_row("lint-c0286d0643059404", "word " * 40)
    return table


def test_a_table_that_fits_stays_within_80_columns() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False, force_terminal=True, color_system=None)
    print_table(_summary_table(), console)
    lines = out.getvalue().splitlines()
    assert "lint-c0286d0643059404" in lines[1]
    assert max(len(line) for line in lines) <= 80


def test_a_piped_table_wraps_nothing() -> None:
    """A log or a file has no width to fit: each row stays on its line."""
    out = io.StringIO()
    print_table(_summary_table(), Console(file=out, width=80, highlight=False))
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and ("word " * 39 + "word") in lines[1]


def test_a_piped_table_cuts_no_header() -> None:
    # The README's main command printed "docst…" and "sample_…" over the result columns.
    table = Table(box=None)
    table.add_column("node", no_wrap=True)
    for name in ("lint", "docstring", "test", "sample_data"):
        table.add_column(name)
    table.add_row(
        "method ReportWriter.write_all in inventory/reports.py, line 40", "✓", "–", "✓", "✓"
    )
    out = io.StringIO()
    print_table(table, Console(file=out, width=80, highlight=False))
    assert out.getvalue().splitlines()[0].split() == [
        "node",
        "lint",
        "docstring",
        "test",
        "sample_data",
    ]


def test_discover_keeps_names_and_locations_whole_at_80_columns(tmp_path: Path) -> None:
    package = tmp_path / "a_rather_long_package_name" / "with_a_long_subpackage"
    package.mkdir(parents=True)
    module = package / "and_a_module_with_a_long_name.py"
    module.write_text("def compute_the_total_of_everything(values):\n    return sum(values)\n")
    done = remora(
        "discover", str(tmp_path), "--project", str(tmp_path), "--no-events", COLUMNS="80"
    )
    assert done.returncode == 0, done.stderr
    rel = "a_rather_long_package_name/with_a_long_subpackage/and_a_module_with_a_long_name.py"
    lines = done.stdout.splitlines()
    assert any("compute_the_total_of_everything" in line and f"{rel}:1-2" in line for line in lines)
