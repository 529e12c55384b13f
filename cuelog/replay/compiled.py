"""The engine modules that a compiled build of cuelog compiles ahead of time (mypyc), and
whether the running engines are those compiled ones.

``CUELOG_COMPILE=1 pip install .`` (or ``pip wheel .``) compiles :data:`MODULES` with
mypyc (``setup.py``); a plain install runs them as Python. A compiled build keeps every
``.py`` beside its compiled module, so a Python that cannot load the compiled files (another
version) imports the pure-Python ones; the output is byte-identical either way
(``.ci/compiled`` checks it on the stored outputs and the conformance suites).

``setup.py`` reads :data:`MODULES` from this file's text (the build environment has none of
cuelog's dependencies), so it stays a literal tuple of strings.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from typing import Final

MODULES: Final = (
    "cuelog/replay/__init__.py",
    "cuelog/replay/ledger.py",
    "cuelog/replay/common.py",
    "cuelog/replay/snooker.py",
    "cuelog/replay/billiards.py",
    "cuelog/replay/pool/common.py",
    "cuelog/replay/pool/eightball.py",
    "cuelog/replay/pool/nineball.py",
    "cuelog/replay/pool/straight_pool.py",
)
"""The modules compiled, as paths from the project's root: the record loop that splits a
log into matches and frames (``cuelog/replay/__init__.py``), the engines' hot loops and what
they call per stroke, the pool games' among them. The editions (``*_editions.py``:
dataclass fields declared with ``param``), the model (msgspec structs, already compiled),
the pool table's geometry and re-rack (``pool/table.py``, ``pool/rerack.py``) and
everything else stay Python."""

COMPILED_NAME: Final = "compiled (mypyc)"
PURE_NAME: Final = "pure Python"


def module_name(path: str) -> str:
    """``cuelog/replay/snooker.py`` -> ``cuelog.replay.snooker`` (a package's ``__init__.py`` -> the package)."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _origin(name: str) -> str:
    """The file the module ``name`` is (or would be) imported from, without importing it."""
    module = sys.modules.get(name)
    if module is not None:
        return str(getattr(module, "__file__", "") or "")
    spec = importlib.util.find_spec(name)
    return "" if spec is None or spec.origin is None else spec.origin


def _is_extension(path: str) -> bool:
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled_modules() -> tuple[str, ...]:
    """The names of the modules of :data:`MODULES` that run compiled in this Python."""
    names = (module_name(path) for path in MODULES)
    return tuple(name for name in names if _is_extension(_origin(name)))


COMPILED: Final = len(compiled_modules()) == len(MODULES)
"""Whether every module of :data:`MODULES` runs compiled (a compiled install that this
Python can load); ``False`` for a plain install and for the pure-Python fallback."""


def describe() -> str:
    """What the engines run as, for ``cuelog --version``: "compiled (mypyc)", "pure Python",
    or, when only some of :data:`MODULES` load compiled, which ones."""
    if COMPILED:
        return COMPILED_NAME
    some = compiled_modules()
    if not some:
        return PURE_NAME
    return f"partly compiled (mypyc: {', '.join(some)})"
