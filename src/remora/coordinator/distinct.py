"""Two methods of one file are not proposed the same words (issue 57).

An agent's submit may report ``distinct``: words that must differ between the
changes of one operation on the methods of one file's classes. The bundled docstring
agent reports its summary line: two different methods of one class summarised alike
("Return the stock items.") cannot both be right, and the reviewers rejected such
pairs. Nor do the same words say anything of two classes' overrides of one interface:
pyjwt's ``RSAAlgorithm.sign`` and ``RSAPSSAlgorithm.sign`` were both "Sign a message
using the private key." (the PSS padding, the one reason the second exists, unsaid),
pylru's ``size`` of three cache managers one sentence; blind reviewers rejected every
one as restating the method's name. Each run sees only its own node, so the check is
the batch's: the run that finishes later with words already proposed for another
method of the same file is not proposed (its change is dropped; ``settle`` then decides
it is skipped).

Top-level functions are left out: a module's look-alike helpers may share a summary
(smartypants' ``convert_dashes_oldschool_inverted`` took
``convert_dashes_oldschool``'s, a reviewer's edit), but a batch split between processes
(``--jobs``) sees each half apart, and a file of many small functions summarised alike
by a stand-in model lost all but one of them: what one process gives must not depend on
how the nodes were shared out. A file's methods are shared out by class more often than
its functions; that the rule could still differ there is known.

Tried again in session 60 after uritools' ``isabspath`` and ``isabsuri`` were both
"Check if a URI is absolute." (a reject and an edit): with functions counted, the suite's
stand-in model, which summarises every function of a file alike, lost all but one of a
file's changes, and two processes gave other results than one (the order decides which
survives). A check that drops every holder of the repeated words, after the batch,
would be order-free; not built.
"""

from __future__ import annotations

import re

from remora.discovery.node import CSTNode
from remora.runner import AgentResult

__all__ = ["DistinctProposals"]


class DistinctProposals:
    """The ``distinct`` words proposed so far in a batch, per operation and file."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], dict[str, str]] = {}

    def repeat(self, operation: str, node: CSTNode, result: AgentResult) -> AgentResult | None:
        """The result without its change when another method of the file was proposed the
        same words in this batch (None when the change stands)."""
        value = result.details.get("distinct")
        if not result.changed_files or not isinstance(value, str) or node.node_type != "method":
            return None
        words = " ".join(re.findall(r"[a-z0-9]+", value.lower()))
        if not words:
            return None
        seen = self._seen.setdefault((operation, node.file_path), {})
        first = seen.setdefault(words, node.full_name)
        if first == node.full_name:
            return None
        return result.replace(
            changed_files=[],
            workspace_id=None,
            summary=f"proposed the words of {first} again ({value[:80]}); not queued",
            details={**result.details, "repeat_of_node": first},
        )
