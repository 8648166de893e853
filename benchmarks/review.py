"""Review benchmark: the share of Remora's changes a maintainer merges, from blind labels.

On each project of the review corpus (pinned PyPI sdists, split into a
development and a held-out part; ``review_lib/corpus.py``): its own tests left
out, every docstring of its package stripped by ``ast`` position, one git
commit; then ``remora analyze`` with lint, docstring, test and sample_data
through Remora's CLI (``--provider/--base-url/--model/--config`` passed
through), and every change exported for a blind reviewer
(``OUT/<project>/changes/<id>.diff``, ``index.json``, ``project-before/``). The
changes are joined with the committed labels (``benchmarks/review_labels/``,
keyed by operation, node and the diff's hash) and the verdicts printed per part,
model and operation. ``import-labels`` keeps the judged export beside the labels
(``benchmarks/review_exports/``, ``review_lib/kept_exports.py``). docs/competence.md
("Review benchmark") has the protocol.

Usage:
  python benchmarks/review.py [run] [--part dev|heldout|all] [--projects isodate,docopt]
         [--operations lint,docstring] [--out DIR] [--json-out FILE]
         [--provider P --base-url URL --model ID --config remora.yaml]
  python benchmarks/review.py report --out DIR [--part ...] [--json-out FILE]
  python benchmarks/review.py prep --project P --out DIR --group docstring-lint|test-sample
         --folder REVIEWER_DIR
  python benchmarks/review.py import-labels --project P VERDICTS.json --out DIR
         [--reviewer "blind reviewer session"]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from competence_lib.corpus import CorpusError
from review_lib.blind import GROUPS, reviewer_folder
from review_lib.corpus import (
    CACHE,
    MAX_DEFINITIONS,
    PARTS,
    ReviewCorpusError,
    ReviewProject,
    chosen,
)
from review_lib.export import (
    OPERATIONS,
    ExportError,
    ModelArgs,
    export_project,
    failed_results,
    load_average,
    meta_path,
    read_index,
    read_meta,
    remora_commit,
    write_manifest,
    write_meta,
)
from review_lib.kept_exports import keep_export, project_before
from review_lib.labels import LabelError, import_verdicts, join, load_labels, merge, save_labels
from review_lib.report import (
    Coverage,
    Joined,
    coverage_markdown,
    docstring_coverage,
    markdown,
    rows,
    write_json,
)

DEFAULT_OUT = CACHE / "export"


def _list(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


def _operations(value: str | None) -> list[str]:
    ops = _list(value) or list(OPERATIONS)
    unknown = [op for op in ops if op not in OPERATIONS]
    if unknown:
        raise SystemExit(f"unknown operation(s) {', '.join(unknown)}: {', '.join(OPERATIONS)}")
    return ops


def report(out: Path, projects: list[ReviewProject], json_out: Path | None) -> None:
    """Join the export at ``out`` with the committed labels and print the tables."""
    joined: list[Joined] = []
    coverage: list[Coverage] = []
    exported = [p for p in projects if meta_path(out, p.name) is not None]
    for project in projects:
        if project not in exported:
            print(f"{project.key}: not in {out}, left out of the report", file=sys.stderr)
    if not exported:
        raise ExportError(f"{out}: no project of those asked is exported; run `review.py run`")
    for project in exported:
        meta = read_meta(out, project.name)
        index = read_index(out, project.name)
        labels = load_labels(project.name)
        for entry, label in join(index, labels):
            joined.append(Joined(project.name, project.part, meta["model"], entry, label))
        before = project_before(out, project.name)
        coverage.append(
            docstring_coverage(
                project.name, project.part, meta["model"], before, meta["files"], index
            )
        )
    table = rows(joined)
    print(markdown(table))
    print(coverage_markdown(coverage))
    if json_out is not None:
        write_json(json_out, table, coverage, joined, {"export": str(out)})
        print(f"wrote {json_out}", file=sys.stderr)


def run(args: argparse.Namespace) -> None:
    projects = chosen(_list(args.projects), args.part)
    operations = _operations(args.operations)
    model = ModelArgs(args.provider, args.base_url, args.model, args.config)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    commit = remora_commit()
    write_manifest(out, model, commit, [p.name for p in projects])
    for project in projects:
        print(f"{project.key} ({project.part}): load {load_average()}", file=sys.stderr)
        started = time.monotonic()
        done = export_project(
            project,
            out,
            args.work,
            operations,
            model,
            args.max_definitions,
            analyze=not args.export_only,
        )
        write_meta(out, done, model, commit)
        counts: dict[str, int] = {}
        for entry in done.entries:
            counts[entry.operation] = counts.get(entry.operation, 0) + 1
        print(
            f"{project.key}: {len(done.entries)} changes {counts}, analyze {done.wall_s} s "
            f"(load {done.load_before} -> {done.load_after}), with export "
            f"{time.monotonic() - started:.0f} s; exit {done.exit_code}",
            file=sys.stderr,
        )
        for failed in failed_results(done):
            print(f"  failed: {failed}", file=sys.stderr)
    report(out, projects, args.json_out)


def import_labels(args: argparse.Namespace) -> None:
    project = chosen([args.project], "all")[0]
    out: Path = args.out
    meta = read_meta(out, project.name)
    index = read_index(out, project.name)
    verdicts = json.loads(Path(args.verdicts).read_text(encoding="utf-8"))
    if not isinstance(verdicts, list):
        raise LabelError(f"{args.verdicts}: expected a JSON list of verdicts")
    new = import_verdicts(
        verdicts,
        index,
        model=meta["model"],
        remora_commit=meta["remora_commit"],
        reviewer=args.reviewer,
        source=str(args.verdicts),
    )
    path = save_labels(project.name, merge(load_labels(project.name), new))
    kept = keep_export(out, project.name)
    print(f"{path}: {len(new)} labels imported for {len(index)} exported changes; {kept}")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    for name in ("run", "report"):
        cmd = sub.add_parser(
            name,
            help="analyse and export, then report"
            if name == "run"
            else "report an existing export against the labels",
        )
        cmd.add_argument("--part", choices=[*PARTS, "all"], default="all")
        cmd.add_argument("--projects", help="comma-separated names (default: all of the part)")
        cmd.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the export folder")
        cmd.add_argument("--json-out", type=Path)
        if name == "run":
            cmd.add_argument(
                "--operations", help=f"comma-separated (default: {','.join(OPERATIONS)})"
            )
            cmd.add_argument("--provider")
            cmd.add_argument("--base-url")
            cmd.add_argument("--model")
            cmd.add_argument("--config", type=Path)
            cmd.add_argument(
                "--max-definitions",
                type=int,
                default=MAX_DEFINITIONS,
                help="the file rule's limit of definitions per project (0: every file)",
            )
            cmd.add_argument(
                "--work",
                type=Path,
                default=CACHE / "work",
                help="where each project is prepared and analysed (one run at a time per folder)",
            )
            cmd.add_argument(
                "--export-only",
                action="store_true",
                help="no analysis: export the queue a kept (e.g. interrupted) run left",
            )
    prep = sub.add_parser("prep", help="a blind reviewer's folder and brief, one group")
    prep.add_argument("--project", required=True)
    prep.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the export to judge")
    prep.add_argument("--group", choices=sorted(GROUPS), required=True)
    prep.add_argument("--folder", type=Path, required=True, help="the reviewer's folder")
    labels = sub.add_parser("import-labels", help="merge a reviewer's verdicts into the labels")
    labels.add_argument("--project", required=True)
    labels.add_argument("verdicts", type=Path, help='[{"id", "operation", "verdict", ...}]')
    labels.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the export judged")
    labels.add_argument("--reviewer", default="blind reviewer session")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in ("run", "report", "prep", "import-labels", "-h", "--help"):
        argv.insert(0, "run")
    args = _parser().parse_args(argv)
    try:
        if args.command == "run":
            run(args)
        elif args.command == "report":
            report(args.out, chosen(_list(args.projects), args.part), args.json_out)
        elif args.command == "prep":
            count = reviewer_folder(args.out, args.project, args.group, args.folder.resolve())
            print(f"{args.folder}: {count} changes; the brief: {args.folder / 'brief.md'}")
        else:
            import_labels(args)
    except (CorpusError, ReviewCorpusError, ExportError, LabelError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
