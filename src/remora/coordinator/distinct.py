"""Two nodes of one owner are not proposed the same words (issue 57).

An agent's submit may report ``distinct``: words that must differ between the
changes of one operation on the methods of one class (top-level functions are
left alone: many small functions of one module may well share a summary, and a
project's file of look-alike helpers must not lose all but one). The bundled
docstring agent reports its
summary line: two different methods of one class summarised alike ("Return the
stock items.") cannot both be right, and the reviewers rejected such pairs. Each
run sees only its own node, so the check is the batch's: the run that finishes
later with words already proposed for another node of the same owner is not
proposed (its change is dropped; ``settle`` then decides it is skipped).
"""

from __future__ import annotations

import re

from remora.discovery.node import CSTNode
from remora.runner import AgentResult

__all__ = ["DistinctProposals"]


class DistinctProposals:
    """The ``distinct`` words proposed so far in a batch, per operation and owner."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str, str], dict[str, str]] = {}

    def repeat(self, operation: str, node: CSTNode, result: AgentResult) -> AgentResult | None:
        """The result without its change when another node of the owner was proposed the
        same words in this batch (None when the change stands)."""
        value = result.details.get("distinct")
        if not result.changed_files or not isinstance(value, str) or node.node_type != "method":
            return None
        words = " ".join(re.findall(r"[a-z0-9]+", value.lower()))
        if not words:
            return None
        owner = node.full_name.rpartition(".")[0]
        seen = self._seen.setdefault((operation, node.file_path, owner), {})
        first = seen.setdefault(words, node.full_name)
        if first == node.full_name:
            return None
        return result.replace(
            changed_files=[],
            workspace_id=None,
            summary=f"proposed the words of {first} again ({value[:80]}); not queued",
            details={**result.details, "repeat_of_node": first},
        )
