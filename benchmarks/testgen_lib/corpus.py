"""The modules measured: the competence corpus' small modules and more PyPI projects.

Every sdist is pinned by version and sha256 and fetched into the cache by
``competence_lib.corpus.fetch`` (never into the repository). None of these
projects is used by any test of the agents. A generator gets a copy of the
project with its own tests removed: the module is untested, as for a user who
asks for tests.

A module's part is its project's (``Project.part``): the ten modules the test
agent's search was developed against, toposort (held out until its figures at
d0aa2ea), boltons' mathutils and funcy's colls (held out until their figures at
d377c4f), cachetools' keys and package module (held out until their figure found
and was used to fix a regression, 82a26ee→0bb4ba9) and heapdict (a class whose
methods read and change its state) are the development part; circuitbreaker is
held out: only measured, reported apart, never cited by the toolkit.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from competence_lib.corpus import CORPUS as COMPETENCE_CORPUS
from competence_lib.corpus import PARTS, Project, copy_project, fetch, remove_own_tests

EXTRA_PROJECTS: tuple[Project, ...] = (
    Project(
        "roman",
        "5.2",
        "275fe9f46290f7d0ffaea1c33251b92b8e463ace23660508ceef522e7587cb6f",
        ("src/roman/__init__.py",),
    ),
    Project(
        "stringcase",
        "1.2.0",
        "48a06980661908efe8d9d34eab2b6c13aefa2163b3ced26972902e3bdfd87008",
        ("stringcase.py",),
    ),
    Project(
        "webcolors",
        "25.10.0",
        "62abae86504f66d0f6364c2a8520de4a0c47b80c03fc3a5f1815fedbef7c19bf",
        ("src/webcolors/_conversion.py", "src/webcolors/_normalization.py"),
    ),
    Project(
        "toposort",
        "1.10",
        "bfbb479c53d0a696ea7402601f4e693c97b0367837c8898bc6471adfca37a6bd",
        ("src/toposort.py",),
        # Held out until its figures at d0aa2ea (no test: a dict of sets is not built);
        # that failure was then studied, so it is development now.
        part="dev",
    ),
    Project(
        "funcy",
        "2.1",
        "8979feb3de7120afd1d00e5a8eae810c1942e4bfbc91697151e9ee1e49f79284",
        ("funcy/colls.py",),
        # Held out until its figures at d377c4f (ac2b220); studied since.
        part="dev",
    ),
    Project(
        "heapdict",
        "1.0.1",
        "8495f57b3e03d8e46d5f1b2cc62ca881aca392fd5cc048dc0aa2e1a6d23ecdb6",
        ("heapdict.py",),
    ),
)

PROJECTS: dict[str, Project] = {p.name: p for p in (*COMPETENCE_CORPUS, *EXTRA_PROJECTS)}


@dataclass(frozen=True, slots=True)
class Module:
    """One module measured: its project and its file inside the unpacked sdist."""

    project: str
    file_path: str

    @property
    def import_root(self) -> str:
        """The folder put on ``sys.path`` (``src`` for a src layout, else the top)."""
        return "src" if PurePosixPath(self.file_path).parts[0] == "src" else "."

    @property
    def name(self) -> str:
        """The dotted import name: ``src/humanize/filesize.py`` gives ``humanize.filesize``."""
        parts = list(PurePosixPath(self.file_path).with_suffix("").parts)
        if parts[0] == "src":
            parts = parts[1:]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join(parts)

    @property
    def key(self) -> str:
        return f"{PROJECTS[self.project].key}:{self.name}"

    @property
    def part(self) -> str:
        """``dev`` or ``heldout``: its project's part."""
        return PROJECTS[self.project].part


# In the order --limit takes them: small modules first, the new projects among them.
MODULES: tuple[Module, ...] = (
    Module("humanize", "src/humanize/filesize.py"),
    Module("roman", "src/roman/__init__.py"),
    Module("stringcase", "stringcase.py"),
    Module("webcolors", "src/webcolors/_normalization.py"),
    Module("inflection", "inflection/__init__.py"),
    Module("toolz", "toolz/dicttoolz.py"),
    Module("humanize", "src/humanize/lists.py"),
    Module("webcolors", "src/webcolors/_conversion.py"),
    Module("toolz", "toolz/recipes.py"),
    Module("humanize", "src/humanize/number.py"),
    Module("toposort", "src/toposort.py"),
    Module("boltons", "boltons/mathutils.py"),
    Module("funcy", "funcy/colls.py"),
    Module("cachetools", "src/cachetools/keys.py"),
    Module("cachetools", "src/cachetools/__init__.py"),
    Module("heapdict", "heapdict.py"),
    # Held out (only measured):
    Module("circuitbreaker", "circuitbreaker.py"),
)


def check_corpus() -> list[str]:
    """What is wrong with the corpus' declarations (empty when nothing): a pin or a path."""
    problems: list[str] = []
    for project in PROJECTS.values():
        if len(project.sha256) != 64 or set(project.sha256) - set("0123456789abcdef"):
            problems.append(f"{project.key}: sha256 {project.sha256!r} is not 64 hex digits")
    for module in MODULES:
        if module.project not in PROJECTS:
            problems.append(f"{module.file_path}: unknown project {module.project!r}")
        elif module.file_path not in PROJECTS[module.project].sources:
            problems.append(f"{module.key}: {module.file_path} is not among the project's sources")
        elif module.part not in PARTS:
            problems.append(f"{module.key}: part {module.part!r} is not one of {PARTS}")
    return problems


def public_functions(text: str) -> list[str]:
    """Module-level functions whose names do not start with ``_``, in file order."""
    return [
        stmt.name
        for stmt in ast.parse(text).body
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
        and not stmt.name.startswith("_")
    ]


def untested_copy(module: Module, dest: Path) -> Path:
    """A copy of the module's project (fetched and verified) without its own tests."""
    return remove_own_tests(copy_project(fetch(PROJECTS[module.project]), dest))


__all__ = [
    "EXTRA_PROJECTS",
    "MODULES",
    "PROJECTS",
    "Module",
    "check_corpus",
    "public_functions",
    "untested_copy",
]
