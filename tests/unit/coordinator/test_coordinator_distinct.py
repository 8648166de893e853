"""Two methods of one file are not proposed the same words in one batch (issue 57)."""

from __future__ import annotations

from remora.coordinator.distinct import DistinctProposals
from remora.discovery.node import CSTNode
from remora.runner import AgentResult, settle


def method(full_name: str, path: str = "garden/beds.py") -> CSTNode:
    name = full_name.rsplit(".", 1)[-1]
    return CSTNode(full_name, "method", name, full_name, path, 0, 1, 1, 1, f"def {name}(): ...")


def proposed(summary: str) -> AgentResult:
    details = {"distinct": summary, "has_docstring": True}
    return AgentResult("success", "ws-1", ["garden/beds.py"], f"docstring: {summary}", details)


def test_the_later_node_of_one_class_with_the_same_words_is_not_proposed() -> None:
    seen = DistinctProposals()
    assert seen.repeat("docstring", method("Bed.area"), proposed("Return the rows.")) is None
    again = seen.repeat("docstring", method("Bed.show"), proposed("Return the rows"))
    assert again is not None and again.changed_files == [] and again.workspace_id is None
    assert again.details["repeat_of_node"] == "Bed.area"
    assert again.summary.startswith("proposed the words of Bed.area again")
    assert settle(again, "skipped").status == "skipped"
    # The same node again (a second run), another file, another operation: each stands.
    assert seen.repeat("docstring", method("Bed.area"), proposed("Return the rows.")) is None
    other_file = method("Bed.show", "garden/pots.py")
    assert seen.repeat("docstring", other_file, proposed("Return the rows.")) is None
    assert seen.repeat("test", method("Bed.show"), proposed("Return the rows.")) is None


def test_a_run_without_a_change_or_without_words_is_left_as_it_is() -> None:
    seen = DistinctProposals()
    seen.repeat("docstring", method("Bed.area"), proposed("Return the rows."))
    unchanged = proposed("Return the rows.").replace(changed_files=[])
    assert seen.repeat("docstring", method("Bed.show"), unchanged) is None
    wordless = proposed("Return the rows.").replace(details={})
    assert seen.repeat("docstring", method("Bed.show"), wordless) is None


def test_top_level_functions_of_one_module_may_share_words() -> None:
    seen = DistinctProposals()
    for name in ("scale_1", "scale_2"):
        node = CSTNode(
            name, "function", name, name, "calc/ops.py", 0, 1, 1, 1, f"def {name}(): ..."
        )
        assert seen.repeat("docstring", node, proposed("Scale a number.")) is None


def test_another_class_of_the_file_with_the_same_words_is_not_proposed() -> None:
    seen = DistinctProposals()
    first = proposed("Sign a message using the private key.")
    assert seen.repeat("docstring", method("RSAAlgorithm.sign"), first) is None
    again = seen.repeat("docstring", method("RSAPSSAlgorithm.sign"), first)
    assert again is not None and again.details["repeat_of_node"] == "RSAAlgorithm.sign"
