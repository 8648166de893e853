"""One project analysed by Remora's own CLI, and every change exported for a blind reviewer.

The export of a project (``OUT/<project>/``) is all a reviewer gets:
``changes/<id>.diff`` (``remora review show ID`` with ``NO_COLOR=1``, as a person
piping it sees it), ``index.json`` (id, operation, node, file, the diff's hash)
and ``project-before/`` (the stripped project before the analysis, read-only).
What the run itself reported (``remora analyze --format json``, wall time, load)
goes to ``OUT/_meta/<project>.json``, outside what a reviewer is handed.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import remora.review
from remora.config import DEFAULT_EMBEDDED_MODEL, default_operations
from review_lib.corpus import MAX_DEFINITIONS, ReviewProject, prepare, read_only_copy, remove_tree
from review_lib.labels import diff_sha256

OPERATIONS = ("lint", "docstring", "test", "sample_data")
# Under load (2 shared cores) a model turn can wait minutes for the CPU; every request
# is greedy, so longer limits change no figure but the seconds (docs/competence.md).
PATIENT_LIMITS = {
    "REMORA_MODEL__TIMEOUT": "900",
    "REMORA_RUNNER__PER_TURN_TIMEOUT": "900",
    "REMORA_RUNNER__TOTAL_TIMEOUT": "3600",
}


class ExportError(Exception):
    """Remora's CLI failed on a project; the message carries its stderr."""


@dataclass(frozen=True, slots=True)
class ModelArgs:
    """What selects the model, passed through to ``remora analyze`` unchanged."""

    provider: str | None = None
    base_url: str | None = None
    model: str | None = None
    config: Path | None = None

    def argv(self) -> list[str]:
        out: list[str] = []
        for flag, value in (
            ("--provider", self.provider),
            ("--base-url", self.base_url),
            ("--model", self.model),
            ("--config", self.config),
        ):
            if value is not None:
                out += [flag, str(value)]
        return out


@dataclass(slots=True)
class IndexEntry:
    """One exported change."""

    id: str
    operation: str
    node: str
    node_type: str
    file: str
    diff_sha256: str


@dataclass(slots=True)
class ProjectExport:
    """What ``export_project`` made: the entries and how the run went."""

    project: str
    key: str
    part: str
    files: list[str]
    entries: list[IndexEntry] = field(default_factory=list)
    wall_s: float = 0.0
    load_before: str = ""
    load_after: str = ""
    exit_code: int = 0
    report: dict[str, Any] = field(default_factory=dict)


def remora_argv() -> list[str]:
    """Remora's CLI from this interpreter's environment (the venv's ``remora`` script)."""
    script = Path(sys.executable).parent / "remora"
    if not script.is_file():
        raise ExportError(f"{script} not found: install Remora into this venv (make install)")
    return [str(script)]


def load_average() -> str:
    """``uptime``'s three load averages, to quote beside a wall time."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def remora_commit() -> str:
    """The commit of the Remora code that makes the changes (the ``remora`` this runs).

    A checkout answers with ``git`` (``+dirty`` when ``src`` has local edits); a
    snapshot made with ``git archive`` (docs/competence.md, "Review benchmark")
    carries its commit in a ``REMORA_COMMIT`` file beside ``src``.
    """
    root = Path(remora.__file__).resolve().parents[2]
    stamp = root / "REMORA_COMMIT"
    if stamp.is_file():
        return stamp.read_text(encoding="utf-8").strip()
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
    )
    if head.returncode != 0:
        return "unknown"
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=normal", "--", "src"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def _child_env() -> dict[str, str]:
    env = {**PATIENT_LIMITS, **os.environ}
    env["NO_COLOR"] = "1"
    return env


def _analyze(
    repo: Path, files: list[str], operations: list[str], model: ModelArgs
) -> tuple[int, dict[str, Any]]:
    argv = [*remora_argv(), "analyze", *files, "-o", ",".join(operations), "--format", "json"]
    argv += ["--project", str(repo), *model.argv()]
    run = subprocess.run(argv, cwd=repo, env=_child_env(), stdout=subprocess.PIPE, text=True)
    if run.returncode not in (0, 1, 2):
        raise ExportError(
            f"{repo}: remora analyze exited {run.returncode} (3: configuration error, "
            "130: interrupted); its message is above"
        )
    try:
        report: dict[str, Any] = json.loads(run.stdout) if run.stdout.strip() else {}
    except json.JSONDecodeError:
        report = {"unparsed_stdout": run.stdout[-4000:]}
    return run.returncode, report


def _show(repo: Path, workspace_id: str) -> str:
    argv = [*remora_argv(), "review", "show", workspace_id, "--project", str(repo)]
    run = subprocess.run(argv, cwd=repo, env=_child_env(), capture_output=True, text=True)
    if run.returncode != 0:
        raise ExportError(f"{repo}: remora review show {workspace_id} failed: {run.stderr[-600:]}")
    return run.stdout


def _node_types(repo: Path, files: list[str]) -> dict[tuple[str, str], str]:
    from remora.discovery import discover

    found = discover([repo / f for f in files], project_root=repo).nodes
    return {(n.file_path, n.full_name): n.node_type for n in found}


def export_project(
    project: ReviewProject,
    out: Path,
    work: Path,
    operations: list[str],
    model: ModelArgs,
    max_definitions: int = MAX_DEFINITIONS,
    analyze: bool = True,
) -> ProjectExport:
    """Prepare ``project`` in ``work``, analyse it and write its export under ``out``.

    Only the changes of the files chosen are exported: a repository kept from an
    earlier run with a larger file limit may hold others. ``analyze=False``
    exports the queue of a repository kept from an interrupted run as it stands.
    """
    repo = work / project.name
    files = prepare(project, repo, max_definitions)
    folder = out / project.name
    remove_tree(folder)
    (folder / "changes").mkdir(parents=True)
    read_only_copy(repo, folder / "project-before")
    result = ProjectExport(project.name, project.key, project.part, files)
    result.load_before = load_average()
    started = time.monotonic()
    if analyze:
        result.exit_code, result.report = _analyze(repo, files, operations, model)
    else:
        result.exit_code, result.report = -1, {"analyze": "not run: the queue as it stood"}
    result.wall_s = round(time.monotonic() - started, 1)
    result.load_after = load_average()
    types = _node_types(repo, files)
    items = sorted(
        remora.review.list_changes(repo), key=lambda i: (i.file_path, i.node, i.operation)
    )
    for item in (i for i in items if i.file_path in files and _this_runs(i, operations, result)):
        diff = _show(repo, item.id)
        (folder / "changes" / f"{item.id}.diff").write_text(diff, encoding="utf-8")
        node_type = types.get(
            (item.file_path, item.node), "file" if item.node == item.file_path else ""
        )
        result.entries.append(
            IndexEntry(
                item.id, item.operation, item.node, node_type, item.file_path, diff_sha256(diff)
            )
        )
    index = [asdict(e) for e in result.entries]
    (folder / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    return result


def _this_runs(item: Any, operations: list[str], done: ProjectExport) -> bool:
    """Whether a queued change is this run's: of an operation it asked for and, where it
    analysed, of a node and operation whose result this run changed. A repository kept from
    a run with another model or other operations still queues that run's changes (the
    1.5B's export held the 0.5B's docstrings)."""
    if item.operation not in operations:
        return False
    results = done.report.get("results") if isinstance(done.report, dict) else None
    if not isinstance(results, list):  # not analysed here: the queue as it stood
        return True
    return any(
        r.get("node") == item.node
        and r.get("operation") == item.operation
        and r.get("changed_files")
        for r in results
    )


def failed_results(done: ProjectExport) -> list[str]:
    """Each failed result of the run, as "node (operation): why" (what exit 1 means)."""
    results = done.report.get("results") if isinstance(done.report, dict) else None
    return [
        f"{r.get('node')} ({r.get('operation')}): {str(r.get('summary') or '')[:160]}"
        for r in results or []
        if isinstance(r, dict) and r.get("status") == "failed"
    ]


def write_meta(out: Path, done: ProjectExport, model: ModelArgs, commit: str) -> None:
    """The run's own record, beside (not inside) what a reviewer gets."""
    meta = out / "_meta"
    meta.mkdir(parents=True, exist_ok=True)
    record = asdict(done)
    record["model"] = model_label(model)
    record["remora_commit"] = commit
    (meta / f"{done.project}.json").write_text(
        json.dumps(record, indent=1) + "\n", encoding="utf-8"
    )


def meta_path(out: Path, project: str) -> Path | None:
    """The run's record of ``project`` in the export at ``out``: ``_meta/<project>.json``,
    or the compressed copy an export kept in the repository holds; None when neither."""
    for name in (f"{project}.json", f"{project}.json.gz"):
        if (path := out / "_meta" / name).is_file():
            return path
    return None


def read_meta(out: Path, project: str) -> dict[str, Any]:
    """The run's record of ``project`` (:func:`meta_path`); ExportError when there is none."""
    path = meta_path(out, project)
    if path is None:
        raise ExportError(
            f"{out / '_meta' / project}.json not found: run "
            f"`benchmarks/review.py run --projects {project}`"
        )
    data = path.read_bytes()
    loaded: dict[str, Any] = json.loads(gzip.decompress(data) if path.suffix == ".gz" else data)
    return loaded


def model_label(model: ModelArgs) -> str:
    """How the model is named in labels and tables: what was asked, else the defaults (the
    docstring operation's own embedded model beside the default model)."""
    if model.model or model.provider:
        return ":".join(v for v in (model.provider, model.model) if v)
    if model.config is not None:
        return f"config:{model.config.name}"
    # The Remora being measured may predate the operation's own model (getattr).
    docstrings = getattr(default_operations()["docstring"], "embedded_model", None)
    if docstrings is None:
        return f"default (embedded {DEFAULT_EMBEDDED_MODEL})"
    return f"default (embedded {DEFAULT_EMBEDDED_MODEL}, docstrings {docstrings})"


def write_manifest(out: Path, model: ModelArgs, commit: str, projects: list[str]) -> None:
    """``OUT/manifest.json``: the model and commit every change of the export was made at."""
    manifest = {"model": model_label(model), "remora_commit": commit, "projects": projects}
    path = out / "manifest.json"
    if path.is_file():  # another run of the same model and commit into this export: both listed
        old = json.loads(path.read_text(encoding="utf-8"))
        if (old.get("model"), old.get("remora_commit")) == (manifest["model"], commit):
            manifest["projects"] = sorted({*old.get("projects", []), *projects})
    path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def read_manifest(out: Path) -> dict[str, Any]:
    path = out / "manifest.json"
    if not path.is_file():
        raise ExportError(f"{path} not found: run `benchmarks/review.py run --out {out}` first")
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def read_index(out: Path, project: str) -> list[IndexEntry]:
    path = out / project / "index.json"
    if not path.is_file():
        raise ExportError(
            f"{path} not found: export the project first (`benchmarks/review.py run "
            f"--projects {project} --out {out}`)"
        )
    return [IndexEntry(**row) for row in json.loads(path.read_text(encoding="utf-8"))]


def export_and_project(given: str) -> tuple[Path, str]:
    """``OUT:PROJECT`` (an export folder and one project of it, as the offline checks of
    the labels take them) as (OUT, PROJECT); ValueError naming the argument otherwise."""
    out, _, project = given.rpartition(":")
    if not out or not project:
        raise ValueError(f"{given!r}: expected OUT:PROJECT, an export folder and its project")
    return Path(out), project


__all__ = [
    "OPERATIONS",
    "ExportError",
    "IndexEntry",
    "ModelArgs",
    "ProjectExport",
    "export_and_project",
    "export_project",
    "load_average",
    "meta_path",
    "model_label",
    "read_index",
    "read_manifest",
    "read_meta",
    "remora_commit",
    "write_manifest",
    "write_meta",
]
