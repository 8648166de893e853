"""Discovery stays inside the project: links out are skipped, loops reported, both named."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.config import DiscoveryConfig
from remora.discovery import discover
from remora.errors import DiscoveryPathError


@pytest.fixture
def project(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secrets.py").write_text("API_KEY = 'do-not-send'\n")
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "real.py").write_text("def g():\n    return 2\n")
    (root / "src" / "alias.py").symlink_to("real.py")
    (root / "src" / "secrets.py").symlink_to(outside / "secrets.py")
    (root / "src" / "loop.py").symlink_to("loop.py")
    (root / "src" / "ping.py").symlink_to("pong.py")
    (root / "src" / "pong.py").symlink_to("ping.py")
    return root


def test_only_links_inside_the_project_are_followed(project: Path) -> None:
    result = discover([project], project_root=project, config=DiscoveryConfig())
    files = sorted({n.file_path for n in result.nodes})
    assert files == ["src/alias.py", "src/real.py"]
    assert all("do-not-send" not in n.text for n in result.nodes)
    warned = {w.file: w.message for w in result.warnings}
    assert warned == {
        "src/secrets.py": "skipped: a symlink to a file outside the project",
        "src/loop.py": "skipped: a symlink loop",
        "src/ping.py": "skipped: a symlink loop",
        "src/pong.py": "skipped: a symlink loop",
    }


@pytest.mark.parametrize(
    ("name", "message"),
    [("loop.py", "symlink loop"), ("secrets.py", "outside the project root")],
)
def test_a_bad_link_named_explicitly_is_a_clean_error(
    project: Path, name: str, message: str
) -> None:
    with pytest.raises(DiscoveryPathError, match=message):
        discover([project / "src" / name], project_root=project, config=DiscoveryConfig())
