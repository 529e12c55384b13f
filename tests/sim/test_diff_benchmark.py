"""The diff benchmark runs end to end on a tiny season (figures are never asserted)."""

from __future__ import annotations

from tests.sim.conftest import benchmark


def test_diff_benchmark_reports_both_timings_and_their_ratio() -> None:
    doc = benchmark("diff.py", "--strokes", "3000", "--rounds", "2", "--workers", "1", "--json")
    assert doc["strokes"] >= 3000 and doc["frames"] > 0 and doc["frames_changed"] > 0
    for key in ("replay_s", "diff_s", "diff_over_replay"):
        assert doc[key]["low"] <= doc[key]["median"] <= doc[key]["high"]
