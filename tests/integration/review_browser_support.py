"""For the browser tests: a project whose analyze leaves real diffs, `remora serve`, Chromium.

The project has its own small agent (``edit``: replace a text in the node's
file, then submit) driven by the scripted provider, so `remora analyze` runs
the real loop, sandbox and workspaces and leaves two changes: one of three
hunks in ``pkg/shop.py`` and one in ``pkg/tax.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

__all__ = [
    "SHOP",
    "SHOP_HUNKS_1_AND_3",
    "TAX",
    "chromium",
    "make_project",
    "remora",
    "remora_background",
    "script_retry",
    "serve",
]

REMORA = str(Path(sys.executable).with_name("remora"))
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
)

SHOP = "".join(
    [
        '"""Shop helpers."""\n',
        "\n",
        "RATE = 0.2\n",
        *(f"STEP_{i} = {i}\n" for i in range(12)),
        "\n",
        "\n",
        "def total(prices):\n",
        "    return sum(prices)\n",
        *(f"LIMIT_{i} = {i * 10}\n" for i in range(12)),
        "\n",
        "\n",
        "def label(name):\n",
        "    return name.upper()\n",
    ]
)
# The three edits the scripted model makes, in hunk order.
SHOP_EDITS = (
    ("RATE = 0.2\n", "RATE = 0.25\n"),
    ("    return sum(prices)\n", "    return round(sum(prices), 2)\n"),
    ("    return name.upper()\n", "    return name.strip().upper()\n"),
)
SHOP_HUNKS_1_AND_3 = SHOP.replace(*SHOP_EDITS[0]).replace(*SHOP_EDITS[2])
TAX = '"""Tax."""\n\n\ndef tax(amount):\n    return amount * 0.2\n'

EDIT_AGENT = """\
name: edit
description: Replaces a text in the node's file.
node_types: [file]
max_turns: 6
initial_context:
  system_prompt: You improve Python files.
  node_context: "File {{ file_path }}"
tools:
  - name: replace_text
    pym: tools/replace_text.pym
    description: Replace the first occurrence of a text in the node's file.
    parameters:
      type: object
      properties:
        old: {type: string}
        new: {type: string}
      required: [old, new]
      additionalProperties: false
  - name: submit_result
    pym: tools/submit.pym
    description: Finish.
    parameters:
      type: object
      properties:
        summary: {type: string}
      required: [summary]
      additionalProperties: false
"""
REPLACE_TEXT = """\
from typing import Any

from remora.pym import Input, external

old: str = Input("old")
new: str = Input("new")


@external
async def get_node_metadata() -> dict[str, Any]: ...


@external
async def read_file(path: str) -> str: ...


@external
async def write_file(path: str, content: str) -> bool: ...


meta = await get_node_metadata()
path = str(meta["file_path"])
text = await read_file(path)
if old not in text:
    raise ValueError("text not found: " + old)
await write_file(path, text.replace(old, new, 1))
{"replaced_in": path}
"""
SUBMIT = """\
from remora.pym import Input

summary: str = Input("summary")

{"summary": summary}
"""


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"calls": [{"name": name, "arguments": arguments}]}


def make_project(root: Path, delay_s: float = 0.0) -> Path:
    """The project, its agent and the scripted turns (files in path order: shop, tax).

    ``delay_s`` makes the scripted model wait that long before each turn.
    """
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1"\n')
    (root / "pkg" / "shop.py").write_text(SHOP)
    (root / "pkg" / "tax.py").write_text(TAX)
    tools = root / "agents" / "edit" / "tools"
    tools.mkdir(parents=True)
    (root / "agents" / "edit" / "agent.yaml").write_text(EDIT_AGENT)
    (tools / "replace_text.pym").write_text(REPLACE_TEXT)
    (tools / "submit.pym").write_text(SUBMIT)
    turns = [_call("replace_text", old=old, new=new) for old, new in SHOP_EDITS]
    turns.append(_call("submit_result", summary="rate 0.25, rounded total, stripped label"))
    turns.append(_call("replace_text", old="amount * 0.2", new="amount * RATE"))
    turns.append(_call("submit_result", summary="tax uses RATE"))
    if delay_s:
        turns = [{**turn, "delay_s": delay_s} for turn in turns]
    (root / "turns.yaml").write_text(yaml.safe_dump(turns))
    (root / "remora.yaml").write_text(
        "agents_dir: agents\n"
        "model:\n  provider: scripted\n  id: scripted-edits\n  path: turns.yaml\n"
        "sandbox:\n  max_concurrent_agents: 1\n"
        "operations:\n  edit: {}\n"
    )
    return root


def script_retry(root: Path) -> None:
    """The model's turns for `analyze --retry-rejected` of pkg/tax.py: another change."""
    turns = [
        _call("replace_text", old="amount * 0.2", new="round(amount * 0.2, 2)"),
        _call("submit_result", summary="tax rounded to cents, 0.2 kept"),
    ]
    (root / "turns.yaml").write_text(yaml.safe_dump(turns))


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}


def remora(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [REMORA, *args], cwd=root, capture_output=True, text=True, timeout=300, env=_env()
    )


def remora_background(root: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [REMORA, *args],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )


@contextmanager
def serve(root: Path) -> Iterator[str]:
    """`remora serve` on a free port; yields the printed URL (with its token)."""
    process = subprocess.Popen(
        [REMORA, "serve", str(root), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        printed: list[str] = []
        deadline = time.monotonic() + 60
        url = None
        while url is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            printed.append(line)
            found = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", line)
            url = found.group(1) if found else None
        assert url is not None, "remora serve printed no URL:\n" + "".join(printed)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextmanager
def chromium() -> Iterator[webdriver.Chrome]:
    """Debian's headless Chromium through its chromedriver; nothing is downloaded."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    assert not missing, f"{missing} missing: apt-get install chromium chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    with tempfile.TemporaryDirectory(prefix="remora-chromium-") as profile:
        for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        try:
            driver.implicitly_wait(5)
            yield driver
        finally:
            driver.quit()
