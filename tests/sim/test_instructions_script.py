"""The instruction counter runs end to end on a tiny season (figures are never asserted)."""

from __future__ import annotations

import shutil

import pytest

from tests.sim.conftest import benchmark


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind (.ci/run installs it)")
def test_the_instruction_count_of_a_replay_covers_the_workers_too() -> None:
    doc = benchmark("instructions.py", "--strokes", "2000", "--workers", "2", "--json")
    assert doc["command"] == "replay-db" and doc["workers"] == 2
    (run,) = doc["runs"]["tree"]
    # The command's process, the fork server and the two workers, each counted.
    assert len(run["processes"]) >= 4 and all(n > 0 for n in run["processes"])
    assert run["instructions"] == sum(run["processes"])
    assert "tree_over_base" not in doc
