import ast
from pathlib import Path

import pytest

from remora import errors
from remora.errors import CONFIG_UNKNOWN_KEY, DISC_PATH_NOT_FOUND, RemoraError, exit_code_for


def test_config_errors_exit_3() -> None:
    assert exit_code_for(CONFIG_UNKNOWN_KEY) == 3


def test_other_errors_exit_2() -> None:
    err = RemoraError(DISC_PATH_NOT_FOUND, "nope", "check the path")
    assert err.exit_code == 2
    assert err.to_dict() == {"code": "DISC_001", "message": "nope", "hint": "check the path"}


def test_every_code_has_one_class_in_its_family() -> None:
    families = {
        "CONFIG": errors.ConfigError,
        "DISC": errors.DiscoveryError,
        "AGENT": errors.AgentError,
        "SANDBOX": errors.SandboxError,
        "WORKSPACE": errors.WorkspaceError,
        "USAGE": errors.UsageError,
        "GIT": errors.GitError,
    }
    codes = [
        value
        for name, value in vars(errors).items()
        if name.isupper() and isinstance(value, str) and not name.startswith("_")
    ]
    assert len(codes) == 17
    for code in codes:
        err = errors.error_for(code, "message", "hint")
        assert err.code == code
        assert isinstance(err, families[code.split("_", 1)[0]])
        assert err.to_dict() == {"code": code, "message": "message", "hint": "hint"}


def test_config_family_exits_3_and_the_others_2() -> None:
    assert errors.ConfigValueError("bad").exit_code == 3
    assert errors.ModelUnavailableError("gone").exit_code == 2
    assert errors.UsageError("no").exit_code == 2


def test_a_family_cannot_be_raised_itself() -> None:
    with pytest.raises(TypeError, match="family"):
        errors.WorkspaceError("which one?")


def test_model_errors_carry_retryable_and_are_caught_by_family() -> None:
    err = errors.ModelUnavailableError("timed out", retryable=True)
    assert err.retryable
    assert not errors.InvalidModelOutputError("not JSON").retryable
    with pytest.raises(errors.ModelError):
        raise err


def test_error_for_an_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="NOPE_001"):
        errors.error_for("NOPE_001", "message")


def test_product_code_raises_the_subclasses_not_the_base() -> None:
    # Code catches errors by class, so a raise site must use the family's class.
    src = Path(errors.__file__).parent
    bare = [
        f"{path.relative_to(src.parent)}:{node.lineno}"
        for path in sorted(src.rglob("*.py"))
        if path.name != "errors.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("RemoraError", "ProviderError")
    ]
    assert bare == [], "raise a RemoraError subclass from remora.errors instead"
