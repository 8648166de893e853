"""The pre-commit hook of ``.pre-commit-hooks.yaml``, run by a real ``pre-commit run``.

pre-commit installs a ``language: python`` hook by pip-installing its repository
into a new virtual environment, which needs PyPI; these tests are offline, so
the temporary repository's config declares the shipped hook (its id, entry,
options) as a ``local`` hook of ``language: system`` that runs the ``remora``
of this checkout. What pre-commit does around it is real: it stashes what is
not staged, runs the hook on the staged files and fails the commit on its exit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from git_repos import GIT_ENV, Repo, use_plain_git
from pending_changes import shop_repo

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent


@pytest.fixture(autouse=True)
def _plain_git(monkeypatch: pytest.MonkeyPatch) -> None:
    use_plain_git(monkeypatch)


def shipped_hook() -> dict[str, object]:
    from pre_commit.clientlib import load_manifest

    [hook] = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))  # pre-commit's own check
    return dict(hook)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repo = shop_repo(tmp_path / "shop")
    repo.write("turns.yaml", "[]\n")  # the lint agent's host steps need no model turn
    repo.write(
        "remora.yaml",
        f"model:\n  provider: scripted\n  id: scripted\n  path: {repo.root / 'turns.yaml'}\n"
        "sandbox:\n  max_concurrent_agents: 1\n",
    )
    hook = shipped_hook()
    local = {
        "id": hook["id"],
        "name": hook["name"],
        "entry": hook["entry"],
        "language": "system",
        "pass_filenames": hook["pass_filenames"],
        "require_serial": hook["require_serial"],
        "types_or": hook["types_or"],
        "args": ["-o", "lint"],
    }
    config = {"repos": [{"repo": "local", "hooks": [local]}]}
    repo.write(".pre-commit-config.yaml", yaml.safe_dump(config, sort_keys=False))
    repo.commit("remora and pre-commit set-up")
    return repo


def pre_commit(repo: Repo, tmp_path: Path) -> tuple[int, str]:
    done = subprocess.run(
        [str(BIN / "pre-commit"), "run", "--color", "never"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={
            **os.environ,
            **GIT_ENV,
            "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        },
    )
    return done.returncode, done.stdout + done.stderr


def test_the_hook_passes_on_clean_code_and_fails_while_a_change_waits(
    repo: Repo, tmp_path: Path
) -> None:
    repo.write("pkg/clean.py", "def double(value):\n    return value * 2\n")
    repo.git("add", "pkg/clean.py")
    code, out = pre_commit(repo, tmp_path)
    assert code == 0, out
    assert "remora (changes wait for review)" in out and "Passed" in out
    repo.commit("clean")

    repo.write("pkg/messy.py", "import os\n\n\ndef triple(value):\n    return value * 3\n")
    repo.git("add", "pkg/messy.py")
    repo.write("pkg/util.py", repo.read("pkg/util.py") + "\n\nimport sys\n")  # not staged
    code, out = pre_commit(repo, tmp_path)
    assert code == 1, out
    assert "Failed" in out and "waits for review: lint-" in out and "pkg/messy.py" in out
    assert "pkg/util.py" not in out.split("Failed", 1)[1]  # unstaged: not the hook's business
    assert repo.read("pkg/util.py").endswith("import sys\n")  # pre-commit put it back

    # Rejected, the change no longer waits: the same commit passes.
    done = subprocess.run(
        [str(BIN / "remora"), "review", "reject", "--all", "--reason", "keep the import"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    code, out = pre_commit(repo, tmp_path)
    assert code == 0, out
