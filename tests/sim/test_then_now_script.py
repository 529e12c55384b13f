"""The then-and-now benchmark runs the commands on two trees end to end (figures are never asserted)."""

from __future__ import annotations

import shutil

import pytest

from tests.sim.conftest import ROOT, benchmark


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs git and a checkout")
def test_both_trees_load_and_replay_the_same_season_and_each_command_is_timed() -> None:
    doc = benchmark("then_now.py", "--base", "HEAD", "--snooker", "2", "--billiards", "1", "--rounds", "2", "--json")
    assert doc["same_counts"] is True
    counts = doc["counts"]
    assert counts["records"] > counts["strokes"] > 0 and counts["replayed"] == counts["strokes"]
    assert counts["shot_clock"] > 0 and doc["clock_logs"] > 0
    for tree in ("base", "tree"):
        assert len(doc["runs"][tree]) == 2
        for run in doc["runs"][tree]:
            for command in ("ingest", "replay_db"):
                assert run[command]["wall_s"] > 0 and run[command]["cpu_s"] > 0 and run[command]["peak_mib"] > 50
    assert set(doc["summary"]) == {f"{c}.{k}" for c in ("ingest", "replay_db") for k in ("wall_s", "cpu_s", "peak_mib")}
    assert all(len(s["rounds"]) == 2 for s in doc["summary"].values())
