"""The opt-in compiled build of the engines (benchmarks/compile_engines.py) replays byte for
byte as the pure-Python engines do: the stored outputs of simulated seasons and examples.

Opt-in (``CUELOG_TEST_COMPILED=1``): the build takes a minute or two and needs mypy (the
``[dev]`` extra) and a C compiler, which a plain install does not have.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_stored_outputs import ROOT, RULES, simulate, stored, stored_examples

pytestmark = pytest.mark.skipif(
    os.environ.get("CUELOG_TEST_COMPILED") != "1",
    reason="opt-in (CUELOG_TEST_COMPILED=1): builds the engines with mypyc and a C compiler",
)


# The record loop (cuelog.replay) and the two engines: where each was imported from.
WHERE = (
    "import cuelog.replay as r, cuelog.replay.snooker as s, cuelog.replay.billiards as b;"
    " print(r.__file__, s.__file__, b.__file__)"
)


def run(build: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *(str(a) for a in args)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(build)},
        cwd=build,
        check=False,
    )


def test_the_compiled_engines_replay_to_the_stored_outputs(tmp_path: Path) -> None:
    build = tmp_path / "compiled"
    made = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "compile_engines.py"), str(build)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    where = run(build, "-c", WHERE)
    assert len(where.stdout.split()) == 3, where.stdout + where.stderr
    assert all(f.endswith(".so") for f in where.stdout.split()), where.stdout
    for rules in RULES:
        season = simulate(rules, tmp_path / rules.replace("/", "_"))
        replay = run(build, "-m", "cuelog", "replay", season / "logs", "--json")
        assert replay.returncode in (0, 1), replay.stderr
        assert replay.stdout == stored(f"replay_{rules.replace('/', '_')}.json"), rules
    replay = run(build, "-m", "cuelog", "replay", stored_examples(tmp_path), "--json")
    assert replay.stdout == stored("replay_examples.json")


def test_a_build_whose_compiled_modules_cannot_load_replays_in_pure_python(tmp_path: Path) -> None:
    """A build keeps every ``.py`` beside its compiled modules: where those cannot be loaded
    (another Python, the compiled files gone), the same build runs the pure-Python engines,
    with the same output."""
    build = tmp_path / "compiled"
    made = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "compile_engines.py"), str(build)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    for compiled in build.rglob("*.so"):
        compiled.unlink()
    where = run(build, "-c", WHERE)
    assert len(where.stdout.split()) == 3, where.stdout + where.stderr
    assert all(f.endswith(".py") and f.startswith(str(build)) for f in where.stdout.split()), where.stdout
    replay = run(build, "-m", "cuelog", "replay", stored_examples(tmp_path), "--json")
    assert replay.stdout == stored("replay_examples.json")
