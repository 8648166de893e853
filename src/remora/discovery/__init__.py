"""Discovery: tree-sitter parsing of Python projects into CSTNodes."""

from remora.discovery.extract import parse_source
from remora.discovery.ignore import DEFAULT_IGNORES, IgnoreRules
from remora.discovery.node import NODE_TYPES, CSTNode, NodeType, make_node_id
from remora.discovery.pipeline import discover
from remora.discovery.queries import QueryPack, load_query_pack
from remora.discovery.result import DiscoveryResult, DiscoveryWarning

__all__ = [
    "DEFAULT_IGNORES",
    "NODE_TYPES",
    "CSTNode",
    "DiscoveryResult",
    "DiscoveryWarning",
    "IgnoreRules",
    "NodeType",
    "QueryPack",
    "discover",
    "load_query_pack",
    "make_node_id",
    "parse_source",
]
