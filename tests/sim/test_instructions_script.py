"""The instruction counter runs end to end on a tiny season (figures are never asserted)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.sim.conftest import ROOT


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind (.ci/run installs it)")
def test_the_instruction_count_of_a_replay_covers_the_workers_too() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "instructions.py"), "--strokes", "2000", "--workers", "2", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["command"] == "replay-db" and doc["workers"] == 2
    (run,) = doc["runs"]["tree"]
    # The command's process, the fork server and the two workers, each counted.
    assert len(run["processes"]) >= 4 and all(n > 0 for n in run["processes"])
    assert run["instructions"] == sum(run["processes"])
    assert "tree_over_base" not in doc
