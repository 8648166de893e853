"""Where agents come from: the bundled ones, and the user's ``agents_dir``.

An agent is ``<dir>/<name>/agent.yaml`` (with its scripts beside it) or a
``<dir>/<file>.yaml``. Its key is the ``name`` field of the YAML, so a user
agent overrides a bundled one by declaring the same name.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml

from remora.agents.definition import SubagentDefinition
from remora.agents.loader import AgentLoadError, load_agent
from remora.errors import AgentDefinitionError, ConfigValueError

__all__ = ["BUNDLED_AGENTS_DIR", "AgentEntry", "AgentRegistry"]

BUNDLED_AGENTS_DIR = Path(__file__).resolve().parent / "bundled"
AGENT_FILENAME = "agent.yaml"


@dataclass(frozen=True, slots=True)
class AgentEntry:
    name: str
    path: Path
    origin: Literal["bundled", "user"]
    # A user agent that replaces a bundled one of the same name.
    overrides: bool = False


def _agent_files(directory: Path) -> list[Path]:
    found: list[Path] = []
    for child in sorted(directory.iterdir()):
        if child.is_dir() and (child / AGENT_FILENAME).is_file():
            found.append(child / AGENT_FILENAME)
        elif child.is_file() and child.suffix in (".yaml", ".yml"):
            found.append(child)
    return found


def _declared_name(path: Path) -> str:
    """The YAML's ``name``; the directory or file name when it cannot be read.

    A broken file still gets an entry, so listing shows it and loading
    reports why it is broken instead of the agent silently vanishing.
    """
    fallback = path.parent.name if path.name == AGENT_FILENAME else path.stem
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return fallback
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name else fallback


class AgentRegistry:
    """Lists and loads agents; a user agent overrides a bundled one by name."""

    def __init__(
        self,
        agents_dir: Path | None = None,
        *,
        project_root: Path | None = None,
        bundled_dir: Path | None = BUNDLED_AGENTS_DIR,
    ) -> None:
        if agents_dir is not None and not agents_dir.is_absolute():
            agents_dir = (project_root or Path.cwd()) / agents_dir
        if agents_dir is not None and not agents_dir.is_dir():
            raise ConfigValueError(
                f"agents_dir {agents_dir} is not a directory",
                "create it, or fix 'agents_dir' in remora.yaml",
            )
        self.agents_dir = agents_dir
        self.bundled_dir = bundled_dir
        self._entries = self._scan()
        self._loaded: dict[str, SubagentDefinition] = {}

    def _scan(self) -> dict[str, AgentEntry]:
        entries: dict[str, AgentEntry] = {}
        if self.bundled_dir is not None and self.bundled_dir.is_dir():
            for path in _agent_files(self.bundled_dir):
                name = _declared_name(path)
                entries[name] = AgentEntry(name, path, "bundled")
        if self.agents_dir is not None:
            for path in _agent_files(self.agents_dir):
                name = _declared_name(path)
                previous = entries.get(name)
                if previous is not None and previous.origin == "user":
                    raise AgentDefinitionError(
                        f"two agents named {name!r}: {previous.path} and {path}",
                        "rename one of them",
                    )
                entries[name] = AgentEntry(name, path, "user", overrides=previous is not None)
        return entries

    def entries(self) -> list[AgentEntry]:
        return [self._entries[name] for name in sorted(self._entries)]

    def names(self) -> list[str]:
        return sorted(self._entries)

    def entry(self, name: str) -> AgentEntry:
        try:
            return self._entries[name]
        except KeyError:
            close = difflib.get_close_matches(name, self._entries, n=1)
            hint = (
                f"did you mean '{close[0]}'?"
                if close
                else (f"known agents: {', '.join(self.names()) or 'none'}")
            )
            raise AgentDefinitionError(f"no agent named {name!r}", hint) from None

    def get(self, name: str) -> SubagentDefinition:
        """The loaded definition (cached); raises :class:`AgentLoadError` when invalid."""
        if name not in self._loaded:
            self._loaded[name] = load_agent(self.entry(name).path)
        return self._loaded[name]

    def validate(self) -> dict[str, SubagentDefinition | AgentLoadError]:
        """Every agent loaded, or the error that says why it cannot be."""
        outcome: dict[str, SubagentDefinition | AgentLoadError] = {}
        for name in self.names():
            try:
                outcome[name] = self.get(name)
            except AgentLoadError as exc:
                outcome[name] = exc
        return outcome
