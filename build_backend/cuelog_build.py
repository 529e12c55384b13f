"""cuelog's build backend: setuptools' own, with mypy added to a wheel's build requirements
when ``CUELOG_COMPILE=1`` asks for the engines compiled.

``setup.py`` does the compiling (mypyc's ``mypycify`` on ``cuelog.replay.compiled.MODULES``);
this backend only makes sure mypy (which carries mypyc) and msgspec are in the isolated
build environment then, so that a plain ``pip install .`` or ``pip install -e .`` needs neither
mypy nor a C compiler. An editable install runs the source files themselves, so it cannot
be compiled: asked for one, it stops with a message rather than silently staying pure.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from setuptools import build_meta as _setuptools

SWITCH = "CUELOG_COMPILE"
COMPILE_REQUIRES = ("mypy>=1.10", "msgspec>=0.18")
"""mypy carries mypyc (the same lower bound as the ``[dev]`` extra); msgspec, whose structs
the records are, so that mypyc compiles against their real types (not ``Any``)."""

build_wheel = _setuptools.build_wheel
prepare_metadata_for_build_wheel = _setuptools.prepare_metadata_for_build_wheel
prepare_metadata_for_build_editable = _setuptools.prepare_metadata_for_build_editable


def compiling() -> bool:
    """Whether ``CUELOG_COMPILE`` asks for the compiled engines ("1"; unset, "" or "0": pure Python)."""
    value = os.environ.get(SWITCH, "")
    if value not in ("", "0", "1"):
        raise SystemExit(f"{SWITCH}={value!r}: use 1 to compile the engines with mypyc, 0 or unset for pure Python")
    return value == "1"


@contextlib.contextmanager
def _pure() -> Iterator[None]:
    """``CUELOG_COMPILE`` unset for the duration: setuptools runs ``setup.py`` to learn its
    requirements, before mypy (which it would import to compile) is installed."""
    saved = os.environ.pop(SWITCH, None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ[SWITCH] = saved


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    compile_too = compiling()
    with _pure():
        requires = list(_setuptools.get_requires_for_build_wheel(config_settings))
    return [*requires, *COMPILE_REQUIRES] if compile_too else requires


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    with _pure():  # an sdist holds the sources only, compiled or not
        return list(_setuptools.get_requires_for_build_sdist(config_settings))


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    with _pure():
        return str(_setuptools.build_sdist(sdist_directory, config_settings))


def _no_compiled_editable() -> None:
    if compiling():
        raise SystemExit(
            f"{SWITCH}=1 compiles a wheel: use `pip install .` (an editable install runs the .py files themselves)"
        )


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    _no_compiled_editable()
    return list(_setuptools.get_requires_for_build_editable(config_settings))


def build_editable(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    _no_compiled_editable()
    return str(_setuptools.build_editable(wheel_directory, config_settings, metadata_directory))
