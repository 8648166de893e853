"""``--changed``: the nodes a branch changed, on real git repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from git_repos import Repo, remora, use_plain_git

from remora.discovery.changed_nodes import discover_changed
from remora.errors import GitError
from remora.git import pull_request_files

SHOP = """import os


def total(prices):
    return sum(prices)


def tax(amount):
    rate = 0.2
    return amount * rate


class Order:
    def add(self, line):
        self.lines.append(line)

    def place(self):
        return True

    def cancel(self):
        return False
"""


@pytest.fixture(autouse=True)
def _plain_git(monkeypatch: pytest.MonkeyPatch) -> None:
    use_plain_git(monkeypatch)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "shop")
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/shop.py", SHOP)
    repo.write("pkg/util.py", "def helper():\n    return 1\n")
    repo.commit("first")
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def picked(root: Path, **kwargs: object) -> set[str]:
    found = discover_changed([root], project_root=root, **kwargs)  # type: ignore[arg-type]
    return {f"{n.file_path}::{n.full_name}" for n in found.result.nodes}


def test_a_branch_picks_edited_new_and_untracked_nodes_and_leaves_deleted_ones_out(
    repo: Repo,
) -> None:
    text = SHOP.replace("return sum(prices)", "return sum(prices, 0)")
    text = text.replace("    rate = 0.2\n", "")  # a line only removed: tax still changed
    text = text.replace("    def cancel(self):\n        return False\n", "")
    repo.write("pkg/shop.py", text)
    repo.git("rm", "-q", "pkg/util.py")
    repo.commit("edit")
    repo.write("pkg/new.py", "def fresh():\n    return 2\n")
    repo.commit("new file")
    repo.write("pkg/loose.py", "class Loose:\n    pass\n")  # untracked
    repo.write(".gitignore", "ignored.py\n")
    repo.write("pkg/ignored.py", "def hidden():\n    pass\n")
    found = discover_changed([repo.root], project_root=repo.root)
    names = {f"{n.file_path}::{n.full_name}" for n in found.result.nodes}
    assert names == {
        "pkg/shop.py::total",
        "pkg/shop.py::tax",
        "pkg/new.py::pkg/new.py",
        "pkg/new.py::fresh",
        "pkg/loose.py::pkg/loose.py",
        "pkg/loose.py::Loose",
    }
    assert found.deleted == [
        "pkg/shop.py::Order.cancel",
        "pkg/util.py::helper",
        "pkg/util.py::pkg/util.py",
    ]
    assert found.base.label == "main (merge base)"
    assert found.base.sha == repo.git("rev-parse", "main")


def test_a_module_level_change_picks_the_file_and_a_method_not_its_class(repo: Repo) -> None:
    text = SHOP.replace("import os\n", "import os\nimport sys\n")
    repo.write("pkg/shop.py", text.replace("return True", "return bool(self.lines)"))
    assert picked(repo.root) == {"pkg/shop.py::pkg/shop.py", "pkg/shop.py::Order.place"}


def test_a_renamed_and_edited_file_picks_only_the_edited_node(repo: Repo) -> None:
    repo.git("mv", "pkg/shop.py", "pkg/store.py")
    repo.write("pkg/store.py", SHOP.replace("return True", "return 1"))
    repo.commit("rename")
    assert picked(repo.root) == {"pkg/store.py::Order.place"}


def test_a_merge_of_the_default_branch_brings_none_of_its_changes(repo: Repo) -> None:
    repo.write("pkg/util.py", "def helper():\n    return 3\n")
    repo.commit("feature edit")
    repo.git("checkout", "-q", "main")
    repo.write("pkg/shop.py", SHOP.replace("return False", "return None"))
    repo.commit("main moves on")
    repo.git("checkout", "-q", "feature")
    repo.git("merge", "-q", "--no-edit", "main")
    assert picked(repo.root) == {"pkg/util.py::helper"}


def test_a_detached_head_compares_with_the_merge_base(repo: Repo) -> None:
    repo.write("pkg/util.py", "def helper():\n    return 3\n")
    repo.commit("feature edit")
    repo.git("checkout", "-q", "--detach")
    assert picked(repo.root) == {"pkg/util.py::helper"}


def test_staged_compares_the_index_with_head(repo: Repo) -> None:
    repo.write("pkg/util.py", "def helper():\n    return 3\n")
    repo.git("add", "pkg/util.py")
    repo.write("pkg/shop.py", SHOP.replace("return True", "return 1"))  # not staged
    repo.write("pkg/loose.py", "X = 1\n")  # untracked: not in the index
    found = discover_changed([repo.root], project_root=repo.root, staged=True)
    assert {n.full_name for n in found.result.nodes} == {"helper"}
    assert found.base.label == "HEAD"


def test_an_explicit_base_and_paths_and_types_narrow_it(repo: Repo) -> None:
    first = repo.git("rev-parse", "HEAD")
    repo.write("pkg/util.py", "def helper():\n    return 3\n\n\ndef other():\n    pass\n")
    repo.write("pkg/shop.py", SHOP.replace("return True", "return 1"))
    repo.commit("two files")
    assert picked(repo.root, base=first) == {
        "pkg/util.py::helper",
        "pkg/util.py::other",
        "pkg/shop.py::Order.place",
    }
    only = discover_changed([repo.root / "pkg" / "util.py"], project_root=repo.root, base=first)
    assert {n.full_name for n in only.result.nodes} == {"helper", "other"}
    methods = picked(repo.root, base="HEAD~1", node_types=["method"])
    assert methods == {"pkg/shop.py::Order.place"}
    assert picked(repo.root, base="HEAD") == set()


def test_odd_file_names_are_read_through_gits_quoting(repo: Repo) -> None:
    repo.write("pkg/with space.py", "def a():\n    pass\n")
    repo.write("pkg/tëst.py", "def b():\n    pass\n")
    repo.commit("odd names")
    assert picked(repo.root) == {
        "pkg/with space.py::pkg/with space.py",
        "pkg/with space.py::a",
        "pkg/tëst.py::pkg/tëst.py",
        "pkg/tëst.py::b",
    }


def test_a_project_in_a_subfolder_of_the_repository(repo: Repo) -> None:
    repo.write("pkg/util.py", "def helper():\n    return 3\n")
    repo.write("other/x.py", "def outside():\n    pass\n")
    project = repo.root / "pkg"
    found = discover_changed([project], project_root=project)
    assert {(n.file_path, n.full_name) for n in found.result.nodes} == {("util.py", "helper")}


def test_no_repository_and_unknown_refs_are_clear_errors(repo: Repo, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(GitError, match="not inside a git repository"):
        discover_changed([plain], project_root=plain)
    with pytest.raises(GitError, match="'nope' is not a commit") as caught:
        discover_changed([repo.root], project_root=repo.root, base="nope")
    assert "git fetch origin nope" in caught.value.hint


def test_no_default_branch_says_to_name_the_base(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    repo.git("checkout", "-q", "-b", "trunk")
    repo.write("a.py", "A = 1\n")
    repo.commit("first")
    with pytest.raises(GitError, match="no default branch") as caught:
        discover_changed([repo.root], project_root=repo.root)
    assert "--base" in caught.value.hint


def test_a_shallow_clone_without_the_base_says_to_fetch_it(repo: Repo, tmp_path: Path) -> None:
    repo.write("pkg/util.py", "def helper():\n    return 3\n")
    repo.commit("feature edit")
    repo.git("checkout", "-q", "main")  # the remote's HEAD: its default branch
    url = f"file://{repo.root}"
    # Only the branch, one commit deep: there is no main to compare with.
    only = Repo(tmp_path / "only", init=False)
    Repo(tmp_path, init=False).git("clone", "-q", "--depth=1", "-b", "feature", url, "only")
    with pytest.raises(GitError, match="no default branch") as caught:
        discover_changed([only.root], project_root=only.root)
    assert "shallow clone" in caught.value.message
    with pytest.raises(GitError, match="'origin/main' is not a commit") as caught:
        discover_changed([only.root], project_root=only.root, base="origin/main")
    assert "git fetch origin main" in caught.value.hint and "--unshallow" in caught.value.hint
    # Every branch's tip, one commit deep: main is there, the merge base is not.
    Repo(tmp_path, init=False).git(
        "clone", "-q", "--depth=1", "--no-single-branch", "-b", "feature", url, "tips"
    )
    tips = tmp_path / "tips"
    with pytest.raises(GitError, match="no common commit in this shallow clone") as caught:
        discover_changed([tips], project_root=tips)
    assert "git fetch --unshallow" in caught.value.hint
    # Deepened, it works.
    Repo(tips, init=False).git("fetch", "-q", "--unshallow")
    assert picked(tips) == {"pkg/util.py::helper"}


def test_discover_changed_on_the_command_line(repo: Repo) -> None:
    repo.write("pkg/util.py", "def helper():\n    return 3\n")
    code, out = remora(repo.root, "discover", "--changed", "--format", "json")
    assert code == 0, out
    start = out.index("[")
    nodes = json.loads(out[start : out.rindex("]") + 1])
    assert [n["full_name"] for n in nodes] == ["helper"]
    code, out = remora(repo.root, "discover", "--base", "nope")
    assert code == 2 and "error[GIT_001]" in out and "hint: fetch it" in out


def test_analyze_changed_runs_only_the_changed_nodes(repo: Repo) -> None:
    repo.write("turns.yaml", "[]\n")  # the lint agent's host steps need no model turn
    repo.write(
        "remora.yaml",
        f"model:\n  provider: scripted\n  id: scripted\n  path: {repo.root / 'turns.yaml'}\n"
        "sandbox:\n  max_concurrent_agents: 1\n",
    )
    repo.write(".gitignore", ".remora/\n")
    repo.write("pkg/util.py", "import os\n\n\ndef helper():\n    return 1\n")  # before the base
    repo.git("add", ".")
    repo.git("commit", "-q", "-m", "set-up")
    repo.git("branch", "-f", "main", "HEAD")
    repo.write("pkg/b.py", "import sys\n\n\ndef b():\n    return 1\n")
    code, out = remora(repo.root, "analyze", "--changed", "-o", "lint", "--format", "json")
    assert code == 0, out
    assert "changed: 2 nodes in 1 Python files, the work tree against main (merge base)" in out
    results = json.loads(out[out.index("{") : out.rindex("}") + 1])["results"]
    assert sorted(r["node"] for r in results) == ["b", "pkg/b.py"]


def test_old_line_numbers_follow_the_hunks_before_them(repo: Repo) -> None:
    base = repo.git("rev-parse", "HEAD")
    old = repo.read("pkg/shop.py").splitlines()
    new = ["# header", *old[:3], *old[5:], "# footer"]  # one added, two removed, one added
    repo.write("pkg/shop.py", "\n".join(new) + "\n")
    repo.commit("edit")
    changed = pull_request_files(repo.root, base, repo.git("rev-parse", "HEAD"))["pkg/shop.py"]
    for number, line in enumerate(new, 1):
        was = changed.old_line(number)
        if line.startswith("# "):
            assert was is None
        else:
            assert old[was - 1] == line, (number, was)


def test_watch_changed_runs_the_changed_nodes_first(repo: Repo) -> None:
    import os
    import signal
    import subprocess
    import sys

    from git_repos import GIT_ENV

    repo.write("turns.yaml", "[]\n")
    repo.write(
        "remora.yaml",
        f"model:\n  provider: scripted\n  id: scripted\n  path: {repo.root / 'turns.yaml'}\n",
    )
    repo.write(".gitignore", ".remora/\n")
    repo.commit("set-up")
    repo.git("branch", "-f", "main", "HEAD")
    repo.write("pkg/b.py", "import sys\n\n\ndef b():\n    return 1\n")
    watch = subprocess.Popen(
        [sys.executable, "-c", "from remora.cli.app import main; main()", "watch", "--changed",
         "-o", "lint"],
        cwd=repo.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, **GIT_ENV, "COLUMNS": "200"},
    )  # fmt: skip
    seen: list[str] = []
    try:
        assert watch.stdout is not None
        for line in watch.stdout:
            seen.append(line)
            if "results for" in line:
                break
    finally:
        watch.send_signal(signal.SIGINT)
        watch.wait(timeout=60)
    out = "".join(seen)
    assert "changed: 2 nodes in 1 Python files" in out
    assert "2 results for 2 nodes × 1 operations" in out, out
