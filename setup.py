"""The optional compiled build: with ``CUELOG_COMPILE=1``, the engine modules listed in
``cuelog/replay/compiled.py`` (``MODULES``) are compiled with mypyc into extension modules;
without it, nothing here applies and cuelog installs as pure Python (pyproject.toml holds
everything else). Every ``.py`` still goes into the wheel beside its compiled module: a
Python that cannot load the compiled files imports the pure-Python ones.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def compiled_modules() -> list[str]:
    """``MODULES`` read from ``cuelog/replay/compiled.py``'s text: importing it would import
    cuelog's dependencies, which the build environment does not have."""
    tree = ast.parse((HERE / "cuelog" / "replay" / "compiled.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "MODULES" for t in targets) and node.value is not None:
                return list(ast.literal_eval(node.value))
    raise SystemExit("cuelog/replay/compiled.py has no MODULES")


def extensions() -> list[object]:
    if os.environ.get("CUELOG_COMPILE", "") != "1":
        return []
    try:
        from mypyc.build import mypycify  # in the build environment only when compiling (build_backend/)
    except ImportError:
        raise SystemExit("CUELOG_COMPILE=1 needs mypy (it carries mypyc) in the build environment") from None

    # One shared library named for what it holds, instead of a name hashed from the modules.
    return list(mypycify(compiled_modules(), group_name="cuelog_engines"))


setup(ext_modules=extensions())
