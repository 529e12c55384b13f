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
    where = run(
        build, "-c", "import cuelog.replay.snooker as s, cuelog.replay.billiards as b; print(s.__file__, b.__file__)"
    )
    assert where.stdout.split() and all(f.endswith(".so") for f in where.stdout.split()), where.stdout + where.stderr
    for rules in RULES:
        season = simulate(rules, tmp_path / rules.replace("/", "_"))
        replay = run(build, "-m", "cuelog", "replay", season / "logs", "--json")
        assert replay.returncode in (0, 1), replay.stderr
        assert replay.stdout == stored(f"replay_{rules.replace('/', '_')}.json"), rules
    replay = run(build, "-m", "cuelog", "replay", stored_examples(tmp_path), "--json")
    assert replay.stdout == stored("replay_examples.json")
