"""The corpus: small pure-Python projects from PyPI, pinned, and the nodes measured on them.

Each sdist is fetched once with pip into ``~/.cache/remora/competence`` (never
into the repository), its sha256 checked on every use, and unpacked there.
The nodes are chosen from the project's own code by fixed rules (below), spread
evenly over the files, so the same corpus gives the same nodes on every run.

Each project belongs to a part (issue 57, "No tuning to measured code"): the
development part (``dev``) is the code the toolkit may be developed against
(read its runs, find what fails, change the toolkit); the held-out part
(``heldout``) is only measured. No code or comment of the toolkit cites a
held-out module, and its figures are reported apart from the development part's.
"""

from __future__ import annotations

import ast
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from competence_lib.checks import Definition, definitions, docstring_stmt, safe_fixes_on
from competence_lib.checks import strip_docstring as _strip
from remora.discovery import discover
from remora.discovery.node import CSTNode

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "remora" / "competence"
OPERATIONS = ("docstring", "test", "sample_data", "lint")

# The rules every lint target is measured with, the same for every project: a
# project's own ruff settings are tuned until its code is clean, which would
# leave nothing to fix. Written as ruff.toml into the copy, where it takes
# precedence over pyproject.toml for ruff and for the lint agent alike.
BENCH_RUFF_TOML = """\
target-version = "py311"

[lint]
select = ["E", "F", "W", "UP", "C4", "SIM", "B", "RUF", "PIE", "RET"]
"""


@dataclass(frozen=True, slots=True)
class Project:
    """One pinned sdist and the files of its own code that are measured."""

    name: str
    version: str
    sha256: str
    sources: tuple[str, ...]
    # "dev": the toolkit may be developed against it; "heldout": only measured.
    part: str = "dev"

    @property
    def key(self) -> str:
        return f"{self.name}-{self.version}"


CORPUS: tuple[Project, ...] = (
    Project(
        "inflection",
        "0.5.1",
        "1a29730d366e996aaacffb2f1f1cb9593dc38e2ddd30c91250c6dde09ea9b417",
        ("inflection/__init__.py",),
    ),
    Project(
        "toolz",
        "1.0.0",
        "2c86e3d9a04798ac556793bced838816296a2f085017664e4995cb40a1047a02",
        ("toolz/itertoolz.py", "toolz/functoolz.py", "toolz/dicttoolz.py", "toolz/recipes.py"),
    ),
    Project(
        "humanize",
        "4.11.0",
        "e66f36020a2d5a974c504bd2555cf770621dbdbb6d82f94a6857c0b1ea2608be",
        (
            "src/humanize/number.py",
            "src/humanize/time.py",
            "src/humanize/filesize.py",
            "src/humanize/lists.py",
        ),
    ),
    Project(
        "boltons",
        "26.2.0",
        "d39cfd15c1a1c3bd4d705c82252fa9edb8e4f5e8cc039f8e39afac7b1b47e92c",
        ("boltons/strutils.py", "boltons/mathutils.py", "boltons/timeutils.py"),
        # Held out until its figures at d377c4f (ac2b220); studied since.
        part="dev",
    ),
    Project(
        "cachetools",
        "8.0.0",
        "5ed01bd676800d51f0025605e4fd8ad0891550513e7b0a4c3da478463764e5c3",
        ("src/cachetools/__init__.py", "src/cachetools/keys.py", "src/cachetools/func.py"),
        # Held out until its figure found and was used to fix a regression (82a26ee→0bb4ba9).
        part="dev",
    ),
    # Held out: pinned when cachetools became development (never run before).
    Project(
        "circuitbreaker",
        "2.1.3",
        "1a4baee510f7bea3c91b194dcce7c07805fe96c4423ed5594b75af438531d084",
        ("circuitbreaker.py",),
        part="heldout",
    ),
)
PARTS = ("dev", "heldout")

# Nodes per operation and project; --limit lowers them for a quick pass.
DEFAULT_COUNTS = {"docstring": 8, "test": 4, "sample_data": 4, "lint": 4}


class CorpusError(Exception):
    """The corpus cannot be fetched or does not match its pin."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(project: Project, cache: Path = CACHE) -> Path:
    """The unpacked sdist of ``project`` (downloaded and verified on first use)."""
    archive = cache / "sdists" / f"{project.key}.tar.gz"
    if not archive.is_file():
        archive.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=archive.parent) as scratch:
            argv = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
            argv += ["--disable-pip-version-check", "-q", "-d", scratch, f"{project.name}=="]
            argv[-1] += project.version
            run = subprocess.run(argv, capture_output=True, text=True)
            got = sorted(Path(scratch).glob("*.tar.gz"))
            if run.returncode != 0 or len(got) != 1:
                raise CorpusError(
                    f"pip download {project.name}=={project.version} failed "
                    f"(exit {run.returncode}): {run.stderr.strip()[-600:]}; check access to PyPI"
                )
            got[0].replace(archive)
    actual = _sha256(archive)
    if actual != project.sha256:
        raise CorpusError(
            f"{archive}: sha256 {actual} does not match the pin {project.sha256}; "
            "delete the file to fetch it again, or fix the pin in competence_lib/corpus.py"
        )
    unpacked = cache / "src" / project.key
    if not (unpacked / ".complete").is_file():
        shutil.rmtree(unpacked, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(dir=cache))
        with tarfile.open(archive) as tar:
            tar.extractall(staging, filter="data")
        tops = [p for p in staging.iterdir() if p.is_dir()]
        if len(tops) != 1:
            raise CorpusError(f"{archive}: expected one top folder, found {len(tops)}")
        unpacked.parent.mkdir(parents=True, exist_ok=True)
        tops[0].replace(unpacked)
        shutil.rmtree(staging)
        (unpacked / ".complete").write_text(project.sha256)
    for source in project.sources:
        if not (unpacked / source).is_file():
            raise CorpusError(f"{project.key}: {source} is not in the sdist")
    return unpacked


def copy_project(source: Path, dest: Path) -> Path:
    shutil.copytree(
        source,
        dest,
        ignore=shutil.ignore_patterns(".complete", "__pycache__", ".remora", "*.egg-info"),
    )
    return dest


def remove_own_tests(copy: Path) -> Path:
    """The copy without the project's own tests: its code untested, as for a user who asks
    for tests (the projects' suites already cover what the test agent would be asked for)."""
    for folder in ("tests", "test", "testing"):
        shutil.rmtree(copy / folder, ignore_errors=True)
    strays = [*copy.rglob("test_*.py"), *copy.rglob("*_test.py"), *copy.rglob("conftest.py")]
    # unittest's test*.py in a package's own test folder (voluptuous/tests/tests.py).
    strays += [
        path
        for path in copy.rglob("test*.py")
        if path not in strays
        and {"tests", "test", "testing"} & set(path.relative_to(copy).parent.parts)
    ]
    # A suite in one module: beside a single-module project (``tests.py``, ``test.py`` at the
    # root) or inside a package (``humanfriendly/tests.py``); a module of that name that
    # holds no test is the package's own code (pytoml's ``test.py``, which its
    # ``__init__`` imports: removed, nothing of the package imported).
    lone = [p for p in {*copy.rglob("tests.py"), *copy.rglob("test.py")} if is_suite(p)]
    for stray in {*strays, *lone}:
        stray.unlink()
    return copy


def is_suite(path: Path) -> bool:
    """Whether the module at ``path`` holds tests: it imports unittest or pytest, or
    defines a ``test_*`` function or a ``Test*`` class (read with ``ast``; a module that
    does not parse counts as one)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            if any((n or "").partition(".")[0] in ("unittest", "pytest") for n in names):
                return True
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name.startswith("test_"):
                return True
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            return True
    return False


# -- choosing nodes -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    """One node measured for one operation."""

    file_path: str
    full_name: str
    node_type: str
    # The author's docstring (docstring targets only).
    docstring: str | None = None

    @property
    def qualname(self) -> str | None:
        return None if self.node_type == "file" else self.full_name


def _spread(items: list[Target], count: int) -> list[Target]:
    """``count`` items spread evenly over ``items`` (all of them when fewer)."""
    if len(items) <= count:
        return items
    return [items[i * len(items) // count] for i in range(count)]


def _importable(defs: dict[str, Definition], target: Target) -> bool:
    """A module-level function or class, or a method of one (not a nested function)."""
    parts = target.full_name.split(".")
    return all(
        isinstance(defs[".".join(parts[: i + 1])].node, ast.ClassDef) for i in range(len(parts) - 1)
    )


def _public(node: CSTNode) -> bool:
    return not any(part.startswith("_") for part in node.full_name.split("."))


def choose_targets(project: Project, root: Path, counts: dict[str, int]) -> dict[str, list[Target]]:
    """The nodes of each operation, from the unpacked sdist at ``root``."""
    found = discover([root / s for s in project.sources], project_root=root).nodes
    nodes = sorted(found, key=lambda n: (n.file_path, n.start_line))
    texts = {s: (root / s).read_text(encoding="utf-8") for s in project.sources}
    defs = {s: definitions(ast.parse(t)) for s, t in texts.items()}
    chosen: dict[str, list[Target]] = {op: [] for op in OPERATIONS}

    def known(node: CSTNode) -> bool:
        entry = defs[node.file_path].get(node.full_name)
        return entry is not None and entry.count == 1

    documented: list[Target] = []
    for node in nodes:
        if node.node_type not in ("function", "method") or not known(node):
            continue
        entry = defs[node.file_path][node.full_name]
        if docstring_stmt(entry.node) is None:
            continue
        try:
            _strip(texts[node.file_path], node.full_name)
        except ValueError:
            continue  # the docstring is the whole body or shares a line with code
        doc = ast.get_docstring(entry.node, clean=True)
        documented.append(Target(node.file_path, node.full_name, node.node_type, doc))
    chosen["docstring"] = _spread(documented, counts["docstring"])
    testable = [
        t
        for t in documented
        if not t.full_name.split(".")[-1].startswith("_") and _importable(defs[t.file_path], t)
    ]
    chosen["test"] = _spread(testable, counts["test"])
    callable_nodes = [
        Target(n.file_path, n.full_name, n.node_type)
        for n in nodes
        if n.node_type in ("function", "class")
        and known(n)
        and _public(n)
        and "." not in n.full_name
    ]
    chosen["sample_data"] = _spread(callable_nodes, counts["sample_data"])
    chosen["lint"] = _spread(_lint_candidates(root, nodes, texts), counts["lint"])
    return chosen


def _lint_candidates(root: Path, nodes: list[CSTNode], texts: dict[str, str]) -> list[Target]:
    """Nodes with safe-fixable findings on their own lines, under the benchmark's rules."""
    with tempfile.TemporaryDirectory() as scratch:
        config_dir = Path(scratch)
        (config_dir / "ruff.toml").write_text(BENCH_RUFF_TOML)
        for rel, text in texts.items():
            (config_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            (config_dir / rel).write_text(text)
        out: list[Target] = []
        for node in nodes:
            if node.file_path not in texts:
                continue
            qualname = None if node.node_type == "file" else node.full_name
            if qualname is not None and qualname not in definitions(
                ast.parse(texts[node.file_path])
            ):
                continue
            if safe_fixes_on(texts[node.file_path], node.file_path, config_dir, qualname):
                out.append(Target(node.file_path, node.full_name, node.node_type))
        return out


def strip_docstrings(project_copy: Path, targets: list[Target]) -> None:
    """Remove the targets' docstrings in the copy, one file at a time."""
    by_file: dict[str, list[str]] = {}
    for target in targets:
        by_file.setdefault(target.file_path, []).append(target.full_name)
    for rel, names in by_file.items():
        path = project_copy / rel
        text = path.read_text(encoding="utf-8")
        for name in names:
            text = _strip(text, name)
        path.write_text(text, encoding="utf-8")


def write_lint_config(project_copy: Path) -> None:
    (project_copy / "ruff.toml").write_text(BENCH_RUFF_TOML)


__all__ = [
    "BENCH_RUFF_TOML",
    "CACHE",
    "CORPUS",
    "DEFAULT_COUNTS",
    "OPERATIONS",
    "PARTS",
    "CorpusError",
    "Project",
    "Target",
    "choose_targets",
    "copy_project",
    "fetch",
    "strip_docstrings",
    "write_lint_config",
]
