"""Accept an analysed project's queue in several orders and check the files come out the same.

Takes a project that `remora analyze` left a queue in (it is never changed: each order works on
a copy, `.remora/` included) and prints one JSON object:

- ``files``: every file two or more changes touch, merged change by change in up to ``--orders``
  orders in process (``remora.workspace.merge.merge_file``): how many distinct results and
  conflicts (1 result, 0 conflicts: the order of accepts does not show);
- ``all``: `remora review accept --all` on one copy: changes, accepted, each conflict and why;
- ``shuffled_cli``: one `remora review accept ID` per change, in a shuffled order, on another copy;
- ``shuffled_web``: the same through a real `remora serve` on 127.0.0.1 (token, CSRF, one POST
  per change) in another shuffled order;
- ``same_files``: whether the three copies' files are byte-identical afterwards, and which differ.

    python benchmarks/accept_orders.py PROJECT --work /tmp/accept-orders [--seed 7] [--orders 80]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from remora.workspace import WorkspaceStore
from remora.workspace.merge import merge_file

_SKIPPED = {".remora", ".git", "__pycache__", ".pytest_cache"}


# The `remora` command of the interpreter running this script.
_REMORA = str(Path(sys.executable).with_name("remora"))


def _remora(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([_REMORA, *args], capture_output=True, text=True, env=env)


def _queue(root: Path) -> list[dict[str, Any]]:
    listed = _remora("review", "--project", str(root), "--format", "json")
    items: list[dict[str, Any]] = json.loads(listed.stdout)
    return items


def _copy(source: Path, dest: Path) -> Path:
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(source, dest, symlinks=True)
    return dest


def _tree(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not _SKIPPED.intersection(path.relative_to(root).parts)
    }


def _orders(count: int, limit: int, rng: random.Random) -> list[tuple[int, ...]]:
    if count < 6:
        return list(itertools.permutations(range(count)))
    return [tuple(rng.sample(range(count), count)) for _ in range(limit)]


def file_orders(root: Path, items: list[dict[str, Any]], limit: int, seed: int) -> dict[str, Any]:
    """Each file's changes merged in many orders: distinct results and conflicts."""
    store = WorkspaceStore(root)
    out: dict[str, Any] = {}
    for path in sorted({p for item in items for p in item["changed_files"]}):
        ids = [item["id"] for item in items if path in item["changed_files"]]
        if len(ids) < 2:
            continue
        base = (root / path).read_bytes() if (root / path).is_file() else b""
        news = []
        for workspace_id in ids:
            with store.open(workspace_id) as ws:
                news.append(next(c for p, c, _ in ws.overlay_rows() if p == path) or b"")
        results: set[bytes] = set()
        conflicts = 0
        orders = _orders(len(news), limit, random.Random(seed))
        for order in orders:
            text: bytes | None = base
            for index in order:
                assert text is not None
                text = merge_file(path, base, text, news[index]).content
                if text is None:
                    conflicts += 1
                    break
            if text is not None:
                results.add(text)
        out[path] = {
            "changes": len(ids),
            "orders": len(orders),
            "distinct": len(results),
            "conflicts": conflicts,
        }
    return out


def _accept(root: Path, *args: str) -> list[dict[str, Any]]:
    done = _remora("review", "accept", *args, "--project", str(root), "--format", "json")
    reports: list[dict[str, Any]] = json.loads(done.stdout)
    return reports


def accept_all(root: Path) -> dict[str, Any]:
    reports = _accept(root, "--all")
    return {
        "changes": len(reports),
        "accepted": sum(bool(r.get("accepted")) for r in reports),
        "conflicts": [
            [r["workspace_id"], c["path"], c["reason"]]
            for r in reports
            for c in r.get("conflicts", [])
        ],
    }


def accept_shuffled_cli(root: Path, seed: int) -> dict[str, Any]:
    ids = [item["id"] for item in _queue(root)]
    random.Random(seed).shuffle(ids)
    accepted = sum(bool(_accept(root, workspace_id)[0].get("accepted")) for workspace_id in ids)
    return {"changes": len(ids), "accepted": accepted}


def accept_shuffled_web(root: Path, seed: int, port: int) -> dict[str, Any]:
    ids = [item["id"] for item in _queue(root)]
    random.Random(seed).shuffle(ids)
    command = [_REMORA, "serve", str(root), "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    accepted = 0
    try:
        assert server.stdout is not None
        url = next(
            m.group(1) for line in server.stdout if (m := re.search(r"(http\S+token=\S+)", line))
        )
        base = url.split("/?")[0]
        with httpx.Client(follow_redirects=False, timeout=120) as client:
            client.get(url)  # the token, once: then a cookie
            for workspace_id in ids:
                page = client.get(f"{base}/change/{workspace_id}").text
                found = re.search(r'name="csrf_token" value="([^"]+)"', page)
                assert found is not None, page[:400]
                answer = client.post(
                    f"{base}/change/{workspace_id}/accept",
                    data={"csrf_token": found.group(1), "mode": "all"},
                    headers={"Origin": base},
                )
                accepted += answer.status_code == 303
    finally:
        server.terminate()
        server.wait()
    return {"changes": len(ids), "accepted": accepted}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--work", type=Path, required=True, help="where the copies go")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--orders", type=int, default=80)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    project = args.project.resolve()
    items = _queue(project)
    report: dict[str, Any] = {"files": file_orders(project, items, args.orders, args.seed)}
    copies = {name: _copy(project, args.work / name) for name in ("all", "cli", "web")}
    report["all"] = accept_all(copies["all"])
    report["shuffled_cli"] = accept_shuffled_cli(copies["cli"], args.seed)
    report["shuffled_web"] = accept_shuffled_web(copies["web"], args.seed + 1, args.port)
    trees = {name: _tree(root) for name, root in copies.items()}
    differ = sorted(
        path
        for path in set().union(*trees.values())
        if len({tree.get(path) for tree in trees.values()}) > 1
    )
    report["same_files"] = not differ
    report["differ"] = differ
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
