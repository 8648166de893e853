from remora.errors import CONFIG_UNKNOWN_KEY, DISC_PATH_NOT_FOUND, RemoraError, exit_code_for


def test_config_errors_exit_3() -> None:
    assert exit_code_for(CONFIG_UNKNOWN_KEY) == 3


def test_other_errors_exit_2() -> None:
    err = RemoraError(DISC_PATH_NOT_FOUND, "nope", "check the path")
    assert err.exit_code == 2
    assert err.to_dict() == {"code": "DISC_001", "message": "nope", "hint": "check the path"}
