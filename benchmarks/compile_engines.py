"""An opt-in build of the snooker and billiards engines and the record loop compiled ahead of time (mypyc).

    python benchmarks/compile_engines.py build/compiled      # needs mypy (the [dev] extra) and a C compiler
    PYTHONPATH=build/compiled cuelog replay examples/         # the compiled engines, same output
    python benchmarks/engine.py --tree build/compiled --base HEAD   # compiled against pure Python

The working tree's ``cuelog`` package is copied into the destination and the engine
modules (:data:`MODULES`: mypy-strict already) are compiled there with mypyc; every other
module, and every ``.py`` file, stays as it is. Nothing in the source tree changes, and
cuelog never needs the build: the pure-Python modules are what a plain install runs. A
build is only as new as its copy: rebuild after changing an engine.

The engines' output is byte-identical either way; check it with ``tests/test_stored_outputs.py``
run on the build (``PYTHONPATH=build/compiled python -m pytest tests/test_stored_outputs.py``).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MODULES = (
    "cuelog/replay/__init__.py",
    "cuelog/replay/ledger.py",
    "cuelog/replay/common.py",
    "cuelog/replay/snooker.py",
    "cuelog/replay/billiards.py",
)
"""The modules compiled: the record loop that splits a log into matches and frames
(``cuelog/replay/__init__.py``), the engines' hot loops and what they call per stroke. The
editions (``*_editions.py``: dataclass fields declared with ``param``), the model (msgspec
structs, already compiled) and everything else stay Python. Every ``.py`` file stays in the
build beside its compiled module: a Python that cannot load the compiled file (another
version) imports the pure-Python one."""


def build(dest: Path) -> None:
    beside = Path(sys.executable).parent / "mypyc"
    mypyc = str(beside) if beside.exists() else shutil.which("mypyc")
    if mypyc is None:
        raise SystemExit("mypyc not found: pip install -e '.[dev]' (mypy provides it); a C compiler is needed too")
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    shutil.copytree(ROOT / "cuelog", dest / "cuelog", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    done = subprocess.run([mypyc, *MODULES], cwd=dest, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
        raise SystemExit(f"mypyc failed (exit {done.returncode}); the pure-Python engines are unaffected:\n{tail}")
    shutil.rmtree(dest / "build", ignore_errors=True)
    built = sorted(p.relative_to(dest) for p in dest.rglob("*.so"))
    print(f"compiled into {dest}: {', '.join(str(p) for p in built)}")
    print(f"use it with PYTHONPATH={dest}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dest", type=Path, help="directory to build in (replaced)")
    build(ap.parse_args().dest.resolve())


if __name__ == "__main__":
    main()
