"""The projects the editor has open: root, configuration, review queue, node index.

A document belongs to the project found, by the CLI's rules (remora.yaml,
.remora/, pyproject.toml, setup.py, .git), from the workspace folder that holds
it, or from its own folder when no workspace folder does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from remora.config import LoadedConfig, load_config
from remora.coordinator import NodeIndex
from remora.lsp.queue import ReviewQueue
from remora.project import STATE_DIR, find_project_root
from remora.workspace.filestat import Signature, signature

__all__ = ["Project", "ProjectSet"]

_WATCHED = ("remora.db", "remora.db-wal", "workspaces")


@dataclass
class Project:
    root: Path
    queue: ReviewQueue
    # Nodes of the files opened, as of their last save (what watch compares against).
    index: NodeIndex = field(default_factory=NodeIndex)
    stamp: tuple[object, ...] = ()
    _loaded: LoadedConfig | None = None
    _config_stamp: Signature = None  # remora.yaml when it was loaded

    @classmethod
    def at(cls, root: Path) -> Project:
        project = cls(root, ReviewQueue(root))
        project.stamp = project.state_stamp()
        project.queue.refresh()
        return project

    def config(self) -> LoadedConfig:
        """remora.yaml of the project (with REMORA_* from the environment), loaded once.

        Relative paths in it (model.path, agents_dir) mean what they mean to
        `remora analyze` run at the project's root, so the server works from there.
        """
        os.chdir(self.root)
        stamp = signature(self.root / "remora.yaml")
        if self._loaded is None or stamp != self._config_stamp:
            self._loaded = load_config(None, {}, project_root=self.root)
            self._config_stamp = stamp
        return self._loaded

    def rel(self, path: Path) -> str | None:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return None

    def state_stamp(self) -> tuple[object, ...]:
        """What changes when any process records a run or decides on a change."""
        state = self.root / STATE_DIR
        out: list[object] = []
        for name in _WATCHED:
            try:
                stat = os.stat(state / name)
            except OSError:
                out.append(None)
                continue
            out.append((stat.st_mtime_ns, stat.st_size, stat.st_ino))
        return tuple(out)


@dataclass
class ProjectSet:
    folders: list[Path] = field(default_factory=list)
    projects: dict[Path, Project] = field(default_factory=dict)

    def for_path(self, path: Path) -> Project:
        path = Path(os.path.abspath(path))
        folder = next(
            (
                f
                for f in sorted(self.folders, key=lambda f: -len(f.parts))
                if path.is_relative_to(f)
            ),
            None,
        )
        root = find_project_root(folder if folder is not None else path.parent)
        if root not in self.projects:
            self.projects[root] = Project.at(root)
        return self.projects[root]

    def all(self) -> list[Project]:
        """Every project: those of the open documents and those of the workspace folders."""
        for folder in self.folders:
            self.for_path(folder / "__init__.py")  # a path inside the folder, existing or not
        return list(self.projects.values())
