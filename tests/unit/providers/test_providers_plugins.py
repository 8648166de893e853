"""Provider plugins: what goes wrong in someone else's package is an error naming its entry point.

Each test installs a small distribution the way pip leaves it (a ``.dist-info``
with ``entry_points.txt`` beside the package) in a temporary folder on ``sys.path``,
where ``importlib.metadata`` finds it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from remora.config import ModelConfig, load_config
from remora.errors import ConfigValueError, ModelUnavailableError
from remora.providers.factory import create_provider
from remora.providers.scripted import ScriptedProvider

Install = Callable[[str, str, str], None]


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Install]:
    """``install(distribution, entry point line, module source)``; the module is named
    after the distribution (``bad-one`` -> ``bad_one``)."""
    site = tmp_path / "site"
    site.mkdir()
    modules: list[str] = []

    def add(distribution: str, entry: str, source: str) -> None:
        module = distribution.replace("-", "_")
        info = site / f"{module}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 1.0\n"
        )
        (info / "entry_points.txt").write_text(f"[remora.providers]\n{entry}\n")
        (site / f"{module}.py").write_text(source)
        modules.append(module)

    monkeypatch.syspath_prepend(str(site))
    yield add
    for module in modules:
        sys.modules.pop(module, None)


def fails(provider: str) -> str:
    with pytest.raises(ModelUnavailableError) as caught:
        create_provider(ModelConfig(provider=provider, id="m"))
    return caught.value.message


def test_a_module_that_does_not_import(install: Install) -> None:
    install("plug-missing", "gone = plug_nowhere:Provider", "")
    assert fails("gone") == (
        "the provider plugin entry point 'gone = plug_nowhere:Provider' (group "
        "remora.providers, distribution plug-missing 1.0) does not load: "
        "ModuleNotFoundError: No module named 'plug_nowhere'"
    )


def test_a_module_that_raises_on_import(install: Install) -> None:
    install("plug-boom", "boom = plug_boom:Provider", "raise RuntimeError('no GPU here')\n")
    assert "distribution plug-boom 1.0) does not load: RuntimeError: no GPU here" in fails("boom")


def test_an_object_without_from_config(install: Install) -> None:
    install("plug-func", "func = plug_func:make", "def make():\n    return None\n")
    message = fails("func")
    assert "entry point 'func = plug_func:make'" in message
    assert message.endswith("which has no from_config()")


def test_from_config_that_raises(install: Install) -> None:
    source = (
        "class Provider:\n    @classmethod\n    def from_config(cls, model, profile):\n"
        "        raise ValueError('needs a key')\n"
    )
    install("plug-raise", "raising = plug_raise:Provider", source)
    assert fails("raising").endswith("failed in from_config: ValueError: needs a key")


def test_from_config_that_makes_no_provider(install: Install) -> None:
    source = (
        "class Half:\n    profile = None\n    @classmethod\n"
        "    def from_config(cls, model, profile):\n        return cls()\n"
    )
    install("plug-half", "half = plug_half:Half", source)
    assert fails("half").endswith(
        "made a Half, which is not a Provider (it lacks complete, check, aclose)"
    )


def test_one_name_from_two_distributions(install: Install) -> None:
    install("plug-first", "twin = plug_first:Provider", "")
    install("plug-second", "twin = plug_second:Provider", "")
    message = fails("twin")
    assert message.startswith("provider 'twin' is declared twice: ")
    assert "distribution plug-first 1.0" in message and "distribution plug-second 1.0" in message


def test_a_plugin_cannot_replace_a_builtin_provider(install: Install, tmp_path: Path) -> None:
    install("plug-shadow", "scripted = plug_shadow:Provider", "raise RuntimeError('loaded')\n")
    turns = tmp_path / "turns.yaml"
    turns.write_text("[]\n")
    provider = create_provider(ModelConfig(provider="scripted", id="m", path=turns))
    assert isinstance(provider, ScriptedProvider)


def test_an_unknown_name_in_the_configuration_names_the_plugins(
    install: Install, tmp_path: Path
) -> None:
    install("plug-known", "known = plug_known:Provider", "")
    (tmp_path / "remora.yaml").write_text("model:\n  provider: unknwon\n")
    with pytest.raises(ConfigValueError) as caught:
        load_config(project_root=tmp_path, environ={})
    message = caught.value.message
    assert "'model.provider'" in message and "remora.yaml:2" in message
    assert "unknown provider 'unknwon'" in message
    assert "installed plugins (entry points 'remora.providers'): known" in message
