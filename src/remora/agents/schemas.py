"""Tool parameter schemas: strictness and agreement with a script's inputs.

Tiny models only stay on the rails when the schema leaves no room
(docs/agents.md, "Strict schemas"), so every object schema is closed. A
schema written in the YAML
must describe the same inputs the `.pym` script declares; a mismatch would
make every call fail at run time, so it is a load error instead.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

__all__ = [
    "InputSpec",
    "compare_with_inputs",
    "derive_parameters",
    "schema_problems",
    "strict_schema",
    "types_of",
]

JSON_TYPES = frozenset({"string", "integer", "number", "boolean", "array", "object", "null"})

# Keywords whose value is one schema / a list of schemas / a map of schemas.
_ONE = ("items", "additionalItems", "contains", "not", "if", "then", "else", "propertyNames")
_MANY = ("anyOf", "allOf", "oneOf", "prefixItems")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def _at(where: str, sub: str) -> str:
    """``where.sub``, or just ``sub`` at the top (where == "")."""
    if not where:
        return sub.lstrip(".")
    return f"{where}{sub}" if sub.startswith("[") else f"{where}.{sub.lstrip('.')}"


def _is_object_schema(schema: Mapping[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind):
        return True
    return "properties" in schema and kind is None


def strict_schema(
    schema: Mapping[str, Any], where: str = "parameters"
) -> tuple[dict[str, Any], list[str]]:
    """A copy of ``schema`` with ``additionalProperties: false`` on every object.

    Returns the copy and the problems found: an object that accepts arbitrary
    properties (``true`` or ``{}``) is refused, since strict mode cannot be
    opted out of silently; a typed map (``additionalProperties: {type: ...}``,
    what a ``dict[str, T]`` input declares) stays, with its value schema made
    strict in turn. A non-mapping where a schema belongs is refused too.
    """
    problems: list[str] = []

    def walk(node: Any, path: str) -> Any:
        if isinstance(node, bool):
            return node
        if not isinstance(node, Mapping):
            problems.append(
                f"{path or 'schema'}: expected a schema object, got {type(node).__name__}"
            )
            return node
        out: dict[str, Any] = dict(node)
        for key in _ONE:
            if key in out:
                out[key] = walk(out[key], _at(path, key))
        for key in _MANY:
            if isinstance(out.get(key), list):
                out[key] = [walk(s, _at(path, f"{key}[{i}]")) for i, s in enumerate(out[key])]
        for key in _MAP:
            if isinstance(out.get(key), Mapping):
                out[key] = {k: walk(s, _at(path, f"{key}.{k}")) for k, s in out[key].items()}
        if _is_object_schema(out):
            extra = out.get("additionalProperties", False)
            if isinstance(extra, Mapping) and extra:
                # A typed map (dict[str, T]) is still closed over its value type.
                out["additionalProperties"] = walk(extra, _at(path, "additionalProperties"))
            elif extra is not False:
                problems.append(
                    f"{_at(path, 'additionalProperties')}: tool schemas are strict; an object "
                    "may not accept arbitrary properties (declare each property, or give "
                    "additionalProperties a schema)"
                )
                out["additionalProperties"] = False
            else:
                out["additionalProperties"] = False
        return out

    result = walk(schema, where)
    return (result if isinstance(result, dict) else {}), problems


def schema_problems(schema: Any, where: str = "parameters") -> list[str]:
    """What is wrong with ``schema`` as a tool's parameters (empty when fine)."""
    if not isinstance(schema, Mapping):
        kind = type(schema).__name__
        return [f"{where or 'parameters'}: must be a JSON schema object, got {kind}"]
    problems: list[str] = []
    if schema.get("type") != "object":
        problems.append(f"{_at(where, 'type')}: a tool's parameters must be 'type: object'")
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        problems.append(f"{_at(where, 'properties')}: must be a mapping of property schemas")
        properties = {}
    required = schema.get("required", [])
    if not isinstance(required, list):
        problems.append(f"{_at(where, 'required')}: must be a list of property names")
    else:
        for name in required:
            if name not in properties:
                problems.append(f"{_at(where, 'required')}: {name!r} is not one of the properties")
    try:
        Draft202012Validator.check_schema(dict(schema))
    except SchemaError as exc:
        at = ".".join(str(p) for p in exc.absolute_path)
        problems.append(
            f"{_at(where, at) if at else where or 'parameters'}: invalid JSON schema: {exc.message}"
        )
    return problems


def types_of(schema: Any) -> frozenset[str] | None:
    """The JSON types a schema admits, or None when it admits anything or is unclear."""
    if not isinstance(schema, Mapping):
        return None
    kind = schema.get("type")
    if isinstance(kind, str):
        return frozenset({kind}) & JSON_TYPES
    if isinstance(kind, list):
        return frozenset(k for k in kind if k in JSON_TYPES)
    if "enum" in schema and isinstance(schema["enum"], list):
        return frozenset(_json_type(v) for v in schema["enum"])
    if "const" in schema:
        return frozenset({_json_type(schema["const"])})
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list):
            collected: set[str] = set()
            for option in options:
                sub = types_of(option)
                if sub is None:
                    return None
                collected |= sub
            return frozenset(collected)
    return None


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _fits(given: frozenset[str], declared: frozenset[str]) -> bool:
    """Every value the YAML schema admits is acceptable to the script."""
    widened = set(declared)
    if "number" in widened:
        widened.add("integer")  # an int is a valid float input
    return given <= widened


class InputSpec:
    """What the loader needs to know about one script input (decoupled from the sandbox)."""

    __slots__ = ("description", "json_schema", "name", "required")

    def __init__(
        self, name: str, json_schema: Mapping[str, Any], required: bool, description: str = ""
    ) -> None:
        self.name = name
        self.json_schema = json_schema
        self.required = required
        self.description = description


# The order a derived schema's keys are shown to the model in, whichever of the
# script or the YAML gave them: what a value is, its limits, the words, then the
# shape of its items. (The bundled agents' schemas were written in this order.)
_KEY_ORDER = (
    "type",
    "enum",
    "minimum",
    "maximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "properties",
    "required",
    "additionalProperties",
    "description",
    "items",
)
# What an input is comes from its declaration in the script; the YAML rewords it.
_FROM_THE_SCRIPT = frozenset({"type", "enum", "anyOf", "default"})


def _ordered(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_ordered(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    keys = [k for k in _KEY_ORDER if k in schema] + [k for k in schema if k not in _KEY_ORDER]
    out: dict[str, Any] = {}
    for key in keys:
        value = schema[key]
        if key in ("properties", "$defs") and isinstance(value, Mapping):
            out[key] = {name: _ordered(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf"):
            out[key] = _ordered(value)
        else:
            out[key] = value
    return out


def _merged(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``over`` laid on it: mappings merge key by key, anything else is replaced."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merged(out[key], value)
        else:
            out[key] = value
    return out


def derive_parameters(
    inputs: Iterable[InputSpec], wording: Mapping[str, Any] | None, where: str = "inputs"
) -> tuple[dict[str, Any], list[str]]:
    """A tool's parameters from its script's inputs, reworded by the YAML's ``inputs:``.

    The script says what each input is (name, type, required, constraints, a short
    description). ``wording`` maps an input's name to schema keywords laid over
    that: a ``description`` for the model, and what an annotation cannot say (the
    fields of a ``list[dict]``'s items, the limits on a list's items or a map's
    values). Its type, enum and default stay the script's. Returns the schema and
    the problems (an unknown input, a keyword that belongs to the script).
    """
    declared = list(inputs)
    properties: dict[str, Any] = {}
    for item in declared:
        prop = dict(item.json_schema)
        if item.description:
            prop["description"] = item.description
        properties[item.name] = prop
    problems: list[str] = []
    for name, over in (wording or {}).items():
        at = f"{where}.{name}"
        if name not in properties:
            known = ", ".join(properties) or "none"
            close = difflib.get_close_matches(name, list(properties), n=1)
            guess = f"; did you mean {close[0]!r}?" if close else ""
            problems.append(
                f"{at}: the script declares no Input named {name!r} (its inputs: {known}){guess}"
            )
        elif not isinstance(over, Mapping):
            problems.append(f"{at}: expected a mapping of schema keywords (description: ...)")
        elif fixed := sorted(_FROM_THE_SCRIPT & set(over)):
            problems.append(
                f"{at}: {', '.join(fixed)}: what an input is comes from its Input "
                "declaration in the script; change it there"
            )
        else:
            properties[name] = _merged(properties[name], over)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    required = [item.name for item in declared if item.required]
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    problems += schema_problems(schema, where)
    return _ordered(schema), problems


def compare_with_inputs(
    parameters: Mapping[str, Any], inputs: Iterable[InputSpec], where: str = "parameters"
) -> list[str]:
    """Disagreements between a YAML parameters schema and the script's inputs."""
    problems: list[str] = []
    properties: Mapping[str, Any] = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    declared = {i.name: i for i in inputs}
    for name in properties:
        if name not in declared:
            known = ", ".join(declared) or "none"
            problems.append(
                f"{where}.properties.{name}: the script declares no Input named {name!r} "
                f"(its inputs: {known})"
            )
    for name, spec in declared.items():
        if name not in properties:
            problems.append(f"{where}.properties: missing {name!r}, an Input the script declares")
            continue
        given_types = types_of(properties[name])
        script_types = types_of(spec.json_schema)
        if (
            given_types is not None
            and script_types is not None
            and not _fits(given_types, script_types)
        ):
            problems.append(
                f"{where}.properties.{name}.type: {'/'.join(sorted(given_types))} does not "
                f"match the script's Input type {'/'.join(sorted(script_types))}"
            )
        if spec.required and name not in required:
            problems.append(
                f"{where}.required: {name!r} has no default in the script, so it must be "
                "listed as required"
            )
    return problems
