"""Each capability's argument mapping, result schema and error envelope."""

from __future__ import annotations

import json
from collections import ChainMap
from typing import Any

import pytest

from remora.assistant.capabilities import Capabilities
from remora.assistant.specs import CAPABILITY_NAMES, CAPABILITY_SPECS

RESULT_KEYS = {
    "list_globals": {"globals", "truncated", "original_len"},
    "get_type": {"name", "module", "qualified"},
    "get_repr": {"repr", "truncated", "original_len"},
    "get_dir": {"members", "truncated", "original_len"},
    "get_doc": {"doc", "truncated", "original_len"},
    "eval_expr": {"value_repr", "stdout", "stderr"},
    "get_last_exception": {"exception"},
}


class Widget:
    """A thing with parts."""

    def __init__(self) -> None:
        self.parts = [1, 2]
        self._secret = 3

    def spin(self) -> str:
        return "spun"


class BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr exploded")


def make_session() -> dict[str, Any]:
    ns: dict[str, Any] = {"__name__": "__console__", "__builtins__": __builtins__}
    exec("import math\nx = 41 + 1\nitems = [1, 2]\n_hidden = 'h'\n", ns)
    ns["widget"] = Widget()
    ns["bad"] = BadRepr()
    ns["Widget"] = Widget
    return ns


@pytest.fixture
def caps() -> Capabilities:
    return Capabilities(make_session(), last_exception=lambda: None)


def result(envelope: dict[str, Any]) -> dict[str, Any]:
    assert envelope["ok"] is True, envelope
    assert set(envelope) == {"ok", "result"}
    json.dumps(envelope)  # every envelope goes on the wire as JSON
    value: dict[str, Any] = envelope["result"]
    return value


def failure(envelope: dict[str, Any], code: str) -> dict[str, Any]:
    assert envelope["ok"] is False, envelope
    assert set(envelope) == {"ok", "error"}
    assert set(envelope["error"]) == {"code", "message", "details"}
    assert envelope["error"]["code"] == code, envelope
    json.dumps(envelope)
    err: dict[str, Any] = envelope["error"]
    return err


def test_specs_are_strict_objects() -> None:
    assert CAPABILITY_NAMES == (
        "list_globals",
        "get_type",
        "get_repr",
        "get_dir",
        "get_doc",
        "eval_expr",
        "get_last_exception",
    )
    for spec in CAPABILITY_SPECS:
        assert spec.parameters["type"] == "object"
        assert spec.parameters["additionalProperties"] is False
        assert spec.description


def test_list_globals_names_and_types(caps: Capabilities) -> None:
    out = result(caps.call("list_globals", {}))
    assert set(out) == RESULT_KEYS["list_globals"]
    listed = {g["name"]: g["type_name"] for g in out["globals"]}
    assert listed == {
        "math": "module",
        "x": "int",
        "items": "list",
        "widget": "Widget",
        "bad": "BadRepr",
        "Widget": "type",
    }
    assert [g["name"] for g in out["globals"]] == sorted(listed)
    assert out["truncated"] is False and out["original_len"] == 6


def test_list_globals_private_hidden_and_cap() -> None:
    ns = make_session()
    caps = Capabilities(ns, hidden={"math"})
    names = [
        g["name"] for g in result(caps.call("list_globals", {"include_private": True}))["globals"]
    ]
    assert "_hidden" in names and "math" not in names and "__name__" not in names
    caps.limits["globals"] = 2
    out = result(caps.call("list_globals", {}))
    assert len(out["globals"]) == 2 and out["truncated"] is True and out["original_len"] == 5


def test_list_globals_sees_later_definitions(caps: Capabilities) -> None:
    caps.namespace["later"] = {"a": 1}
    names = [g["name"] for g in result(caps.call("list_globals", {}))["globals"]]
    assert "later" in names


def test_get_type(caps: Capabilities) -> None:
    assert result(caps.call("get_type", {"expr": "items"})) == {
        "name": "list",
        "module": "builtins",
        "qualified": "builtins.list",
    }
    out = result(caps.call("get_type", {"expr": "widget"}))
    assert out["name"] == "Widget" and out["module"] == __name__
    assert out["qualified"] == f"{__name__}.Widget"
    assert result(caps.call("get_type", {"expr": "math.pi"}))["qualified"] == "builtins.float"


def test_get_repr_and_truncation(caps: Capabilities) -> None:
    assert result(caps.call("get_repr", {"expr": "items"})) == {
        "repr": "[1, 2]",
        "truncated": False,
        "original_len": 6,
    }
    caps.namespace["long"] = "y" * 50
    out = result(caps.call("get_repr", {"expr": "long", "max_chars": 10}))
    assert out == {"repr": "'yyyyyyyyy", "truncated": True, "original_len": 52}


def test_get_repr_default_limit(caps: Capabilities) -> None:
    caps.namespace["big"] = list(range(2000))
    out = result(caps.call("get_repr", {"expr": "big"}))
    assert len(out["repr"]) == 2000 and out["truncated"] is True
    assert out["original_len"] == len(repr(list(range(2000))))


def test_get_dir_public_private_and_cap(caps: Capabilities) -> None:
    out = result(caps.call("get_dir", {"expr": "widget"}))
    assert out == {"members": ["parts", "spin"], "truncated": False, "original_len": 2}
    private = result(caps.call("get_dir", {"expr": "widget", "include_private": True}))
    assert "_secret" in private["members"] and "__init__" in private["members"]
    caps.limits["dir_members"] = 3
    listed = result(caps.call("get_dir", {"expr": "items"}))
    assert listed["members"] == ["append", "clear", "copy"]
    assert listed["truncated"] is True and listed["original_len"] == len(
        [n for n in dir([]) if not n.startswith("_")]
    )


def test_get_doc(caps: Capabilities) -> None:
    assert result(caps.call("get_doc", {"expr": "widget"})) == {
        "doc": "A thing with parts.",
        "truncated": False,
        "original_len": 19,
    }
    assert result(caps.call("get_doc", {"expr": "widget.spin"})) == {
        "doc": None,
        "truncated": False,
        "original_len": 0,
    }
    caps.limits["doc_chars"] = 5
    out = result(caps.call("get_doc", {"expr": "math.sqrt"}))
    assert out["truncated"] is True and len(out["doc"]) == 5 and out["original_len"] > 5


def test_eval_expr_value_and_captured_output(
    caps: Capabilities, capsys: pytest.CaptureFixture[str]
) -> None:
    assert result(caps.call("eval_expr", {"expr": "x * 2"})) == {
        "value_repr": "84",
        "stdout": "",
        "stderr": "",
    }
    out = result(
        caps.call(
            "eval_expr", {"expr": "(print('hello'), __import__('sys').stderr.write('oops'))[1]"}
        )
    )
    assert out == {"value_repr": "4", "stdout": "hello\n", "stderr": "oops"}
    assert capsys.readouterr().out == ""  # nothing leaked onto the user's console


def test_eval_expr_long_value_says_it_was_cut(caps: Capabilities) -> None:
    caps.limits["repr_chars"] = 10
    out = result(caps.call("eval_expr", {"expr": "'z' * 30"}))
    assert out["value_repr"].startswith("'zzzzzzzzz…[truncated 22 of 32 chars]")


def test_python_exception_envelope(caps: Capabilities) -> None:
    err = failure(caps.call("eval_expr", {"expr": "1 / 0"}), "python_exception")
    assert err["message"] == "ZeroDivisionError: division by zero"
    details = err["details"]
    assert details["exc_type"] == "ZeroDivisionError"
    assert details["message"] == "division by zero"
    assert details["traceback"].startswith("Traceback (most recent call last):")
    assert "ZeroDivisionError: division by zero" in details["traceback"]


def test_python_exception_keeps_output_printed_before_it(caps: Capabilities) -> None:
    err = failure(caps.call("eval_expr", {"expr": "print('before') or 1/0"}), "python_exception")
    assert err["details"]["stdout"] == "before\n"


def test_unknown_name_and_broken_repr_are_python_exceptions(caps: Capabilities) -> None:
    err = failure(caps.call("get_type", {"expr": "nope"}), "python_exception")
    assert err["details"]["exc_type"] == "NameError"
    err = failure(caps.call("get_repr", {"expr": "bad"}), "python_exception")
    assert err["details"]["exc_type"] == "RuntimeError"
    assert err["details"]["message"] == "repr exploded"


def test_exit_in_expression_does_not_end_the_session(caps: Capabilities) -> None:
    err = failure(caps.call("eval_expr", {"expr": "exit(3)"}), "python_exception")
    assert err["details"]["exc_type"] == "SystemExit"


def test_statement_is_invalid_args(caps: Capabilities) -> None:
    err = failure(caps.call("eval_expr", {"expr": "y = 1"}), "invalid_args")
    assert "not a single Python expression" in err["message"]
    assert "y" not in caps.namespace


@pytest.mark.parametrize(
    ("name", "arguments", "fragment"),
    [
        ("get_type", {}, "'expr' is a required property"),
        ("get_repr", {"expr": "x", "max_chars": 0}, "max_chars"),
        ("get_repr", {"expr": 5}, "is not of type 'string'"),
        ("get_dir", {"expr": "x", "colour": "red"}, "Additional properties"),
        ("get_last_exception", {"expr": "x"}, "Additional properties"),
        ("eval_expr", {"expr": ""}, "expr"),
        ("eval_expr", ["x"], "must be a JSON object"),
    ],
)
def test_invalid_args(caps: Capabilities, name: str, arguments: Any, fragment: str) -> None:
    err = failure(caps.call(name, arguments), "invalid_args")
    assert fragment in err["message"]
    assert err["message"].startswith(name)


def test_missing_arguments_mean_empty_object(caps: Capabilities) -> None:
    assert result(caps.call("list_globals", None))["original_len"] == 6


def test_unknown_function(caps: Capabilities) -> None:
    err = failure(caps.call("delete_everything", {}), "unknown_function")
    assert "delete_everything" in err["message"]
    assert err["details"]["known"] == list(CAPABILITY_NAMES)


def test_get_last_exception() -> None:
    empty: dict[str, int] = {}
    try:
        empty["missing"]
    except KeyError as exc:
        caught: BaseException = exc
    caps = Capabilities({}, last_exception=lambda: caught)
    out = result(caps.call("get_last_exception", {}))
    assert set(out["exception"]) == {"exc_type", "message", "traceback", "frames"}
    assert out["exception"]["exc_type"] == "KeyError"
    assert out["exception"]["message"] == "'missing'"
    assert "test_get_last_exception" in out["exception"]["traceback"]
    # Where it was raised, innermost last: this test's line that looked the key up.
    (frame,) = out["exception"]["frames"]
    assert frame["function"] == "test_get_last_exception"
    assert frame["code"] == 'empty["missing"]' and frame["file"] == __file__
    assert result(Capabilities({}, last_exception=lambda: None).call("get_last_exception", {})) == {
        "exception": None
    }


def test_get_last_exception_hook_failure_is_internal() -> None:
    def broken() -> BaseException | None:
        raise OSError("shell gone")

    err = failure(
        Capabilities({}, last_exception=broken).call("get_last_exception", {}), "internal"
    )
    assert "shell gone" in err["message"]


def test_non_dict_namespace_is_read_as_locals() -> None:
    caps = Capabilities(ChainMap({"a": 2}, {"b": 3}))
    assert result(caps.call("eval_expr", {"expr": "a + b + len('x')"}))["value_repr"] == "6"


@pytest.mark.parametrize("name", CAPABILITY_NAMES)
def test_result_key_sets_are_stable(caps: Capabilities, name: str) -> None:
    args = {} if name in ("list_globals", "get_last_exception") else {"expr": "items"}
    assert set(result(caps.call(name, args))) == RESULT_KEYS[name]
