"""A compiled copy of the working tree, for benchmarks: the engines and the record loop compiled ahead of time (mypyc).

    python benchmarks/compile_engines.py build/compiled      # needs mypy (the [dev] extra) and a C compiler
    PYTHONPATH=build/compiled cuelog --version                # engines: compiled (mypyc)
    PYTHONPATH=build/compiled cuelog replay examples/         # the compiled engines, same output
    python benchmarks/engine.py --tree build/compiled --base HEAD   # compiled against pure Python

The working tree's ``cuelog`` package is copied into the destination and the engine
modules (``cuelog.replay.compiled.MODULES``, the list ``CUELOG_COMPILE=1 pip install .``
compiles too) are compiled there with mypyc; every other module, and every ``.py`` file,
stays as it is. Nothing in the source tree changes. A build is only as new as its copy:
rebuild after changing an engine. To install cuelog compiled, use the install option
instead (README, "Set up and run"); this copy is for measuring a working tree against a
revision (``benchmarks/engine.py --tree``).

``PYTHONPATH`` puts the build before the installed cuelog for the ``cuelog`` command and for
``python`` started outside the checkout. Inside it, ``python -m cuelog`` and pytest (whose
``pythonpath = ["."]`` is the project's) put the checkout's ``cuelog`` first, and run the
pure engines whatever ``PYTHONPATH`` says: ``cuelog --version`` says which engines run. (A
timed pair of the compiled build against pure Python, started from the checkout, measured
1.001x the time: pure Python against itself.)

The engines' output is byte-identical either way. Check it as ``.ci/compiled`` does, from a
copy of the tests outside the checkout::

    cp -r tests examples /tmp/check && cd /tmp/check
    CUELOG_EXPECT_COMPILED=1 PYTHONPATH=BUILD python -m pytest -c /dev/null --rootdir . \
        tests/test_packaging.py::test_version_says_which_engines_run tests/test_stored_outputs.py
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the list of this tree, whichever cuelog is installed
    sys.path.insert(0, str(ROOT))

from cuelog.replay.compiled import MODULES  # noqa: E402


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
    print(f"use it with PYTHONPATH={dest}, outside the checkout (`cuelog --version` says which engines run)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dest", type=Path, help="directory to build in (replaced)")
    build(ap.parse_args().dest.resolve())


if __name__ == "__main__":
    main()
