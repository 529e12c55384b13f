"""How cuelog installs: a plain build is pure Python and needs no compiler; ``CUELOG_COMPILE=1``
compiles the engines (``cuelog/replay/compiled.py``); ``cuelog --version`` says which run.

The compiled install itself is built and checked by ``.ci/compiled`` (the stored outputs and
the conformance suites run against it, with ``CUELOG_EXPECT_COMPILED=1`` for the version
test here); ``CUELOG_TEST_COMPILED=1`` also builds a compiled wheel here.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from cuelog import __version__
from cuelog.cli import app
from cuelog.replay import compiled
from tests.conftest import ROOT

SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "build_backend", "cuelog")
"""What a build reads: the project's metadata, the build scripts and the package."""


def expected_engines() -> str:
    return "compiled (mypyc)" if os.environ.get("CUELOG_EXPECT_COMPILED") == "1" else "pure Python"


def test_version_says_which_engines_run() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"cuelog {__version__} (engines: {expected_engines()})\n"


def test_every_module_compiled_is_an_engine_module_with_its_source() -> None:
    """The list a compiled build compiles names modules of the engines' layer that exist,
    so the pure-Python fallback of each is in every install."""
    assert compiled.MODULES
    for path in compiled.MODULES:
        assert path.startswith("cuelog/replay/") and (ROOT / path).is_file(), path
    assert compiled.module_name("cuelog/replay/__init__.py") == "cuelog.replay"
    assert compiled.module_name("cuelog/replay/snooker.py") == "cuelog.replay.snooker"


def copy_sources(dest: Path) -> Path:
    """The project's build inputs in a directory of their own: a build writes ``build/`` and
    ``*.egg-info`` beside its sources, which must not land in the checkout under test."""
    dest.mkdir()
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        else:
            shutil.copy(source, dest / name)
    return dest


def pip_wheel(src: Path, out: Path, compile_engines: bool) -> Path:
    env = {k: v for k, v in os.environ.items() if k != "CUELOG_COMPILE"}
    if compile_engines:
        env["CUELOG_COMPILE"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(src)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("cuelog-*.whl")
    return wheel


def version_from(wheel: Path, where: Path) -> str:
    """``cuelog --version`` of the wheel's package, unpacked on its own first on the path
    (its dependencies come from this environment)."""
    with zipfile.ZipFile(wheel) as whl:
        whl.extractall(where)
    done = subprocess.run(
        [sys.executable, "-m", "cuelog", "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(where)},
        cwd=where,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_plain_wheel_is_pure_python(tmp_path: Path) -> None:
    wheel = pip_wheel(copy_sources(tmp_path / "src"), tmp_path / "out", compile_engines=False)
    assert wheel.name == f"cuelog-{__version__}-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert all(path in names for path in compiled.MODULES)
    assert "build_backend/cuelog_build.py" not in names
    assert version_from(wheel, tmp_path / "unpacked") == f"cuelog {__version__} (engines: pure Python)\n"


def load_backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cuelog_build", ROOT / "build_backend" / "cuelog_build.py")
    assert spec is not None and spec.loader is not None
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    return backend


@pytest.mark.filterwarnings("ignore:Support for:UserWarning")  # an older setuptools on [tool.setuptools]
@pytest.mark.parametrize(("value", "compiles"), [(None, False), ("", False), ("0", False), ("1", True)])
def test_the_switch_asks_for_mypy_only_when_compiling(
    value: str | None, compiles: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = load_backend()
    monkeypatch.chdir(copy_sources(tmp_path / "src"))
    if value is None:
        monkeypatch.delenv("CUELOG_COMPILE", raising=False)
    else:
        monkeypatch.setenv("CUELOG_COMPILE", value)
    requires = backend.get_requires_for_build_wheel()
    assert any(r.startswith("mypy") for r in requires) is compiles
    assert os.environ.get("CUELOG_COMPILE") == value  # the switch is left as it was


@pytest.mark.parametrize("value", ["yes", "true", "2"])
def test_another_value_of_the_switch_is_refused_with_what_it_takes(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    backend = load_backend()
    monkeypatch.setenv("CUELOG_COMPILE", value)
    with pytest.raises(SystemExit, match="use 1 to compile"):
        backend.get_requires_for_build_wheel()


def test_an_editable_install_cannot_be_compiled_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = load_backend()
    monkeypatch.setenv("CUELOG_COMPILE", "1")
    with pytest.raises(SystemExit, match=r"use `pip install \.`"):
        backend.get_requires_for_build_editable()


def can_compile() -> bool:
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which("cc") is not None and headers.is_file()


@pytest.mark.skipif(
    os.environ.get("CUELOG_TEST_COMPILED") != "1" or not can_compile(),
    reason="the compiled wheel takes minutes and a C compiler: .ci/compiled builds and checks it "
    "(CUELOG_TEST_COMPILED=1 builds it here too)",
)
def test_a_compiled_wheel_holds_each_engine_module_compiled_and_its_source(tmp_path: Path) -> None:
    wheel = pip_wheel(copy_sources(tmp_path / "src"), tmp_path / "out", compile_engines=True)
    assert wheel.name.startswith(f"cuelog-{__version__}-cp3")
    names = zipfile.ZipFile(wheel).namelist()
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for path in compiled.MODULES:
        assert path in names  # the pure-Python fallback
        assert path.removesuffix(".py") + suffix in names
    assert version_from(wheel, tmp_path / "unpacked") == f"cuelog {__version__} (engines: compiled (mypyc))\n"
