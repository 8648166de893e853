"""Providers added by installed packages through entry points (docs/providers.md, "Plugins").

A distribution names a provider class in its metadata, as ``llm`` plugins do::

    [project.entry-points."remora.providers"]
    mine = "remora_mine.provider:MineProvider"

and ``model.provider: mine`` then chooses it, with no edit to Remora. The configuration
checks a provider's name against the built-in ones and these (here, below the providers
package, so remora.yaml's errors keep their file and line); ``remora.providers.plugins``
loads the class. A plugin named as a built-in provider is never used: the built-in wins.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

__all__ = ["PROVIDER_ENTRY_POINT_GROUP", "provider_entry_points"]

PROVIDER_ENTRY_POINT_GROUP = "remora.providers"


def provider_entry_points() -> dict[str, list[EntryPoint]]:
    """Plugin name -> every installed entry point of that name (more than one is an error
    when that name is chosen). Read afresh each call: a path added to ``sys.path`` counts."""
    found: dict[str, list[EntryPoint]] = {}
    for entry in entry_points(group=PROVIDER_ENTRY_POINT_GROUP):
        found.setdefault(entry.name, []).append(entry)
    return found
