"""The pytest plugins a sandboxed pytest run loads: the installed ones the project declares.

The sandbox runs the project's tests with Remora's own interpreter, so pytest would load
every plugin of Remora's environment by its entry point (``pytest11``): anyio's and
platformdirs' on a plain install, pytest-asyncio's, xdist's and more with Remora's
development tools; none of them the project's, each imported again by every pytest
process (on Remora's development environment ~1.1 of a run's ~1.4 CPU-s). Remora's runs
of the programs that run pytest (:mod:`.programs.pytest_report`, :mod:`.programs.mutation_run`)
ask them to turn the automatic loading off (``autoload_plugins: false``, then
``PYTEST_DISABLE_PLUGIN_AUTOLOAD``), and :func:`plugin_args` names
with ``-p`` each installed plugin whose distribution the project lists among its
requirements (:mod:`.project_requirements`). A plugin the project loads itself (a
conftest's ``pytest_plugins``, ``-p`` in its ``addopts``) loads as before.
"""

from __future__ import annotations

import functools
from importlib import metadata

from remora.code.context import CodeContext
from remora.code.probes.project_requirements import normal_name, project_requirements

__all__ = ["installed_plugins", "plugin_args"]


@functools.cache
def installed_plugins() -> tuple[tuple[str, str], ...]:
    """(distribution, plugin module) of each ``pytest11`` entry point of this interpreter,
    the one the sandbox runs."""
    found = []
    for entry in metadata.entry_points(group="pytest11"):
        dist = entry.dist.name if entry.dist is not None else ""
        found.append((normal_name(dist), entry.value.split(":", 1)[0].strip()))
    return tuple(sorted(set(found)))


def plugin_args(context: CodeContext) -> list[str]:
    """``-p MODULE`` for each installed pytest plugin the project declares, read once per
    run's workspace."""

    def args() -> list[str]:
        declared = project_requirements(context)
        modules = [module for dist, module in installed_plugins() if dist in declared]
        return [arg for module in modules for arg in ("-p", module)]

    return list(context.kept("pytest plugins", args))
