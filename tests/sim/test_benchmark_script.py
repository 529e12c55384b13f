"""The benchmark script runs end to end on a tiny season (figures are never asserted)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.sim.conftest import ROOT


def test_benchmark_script_reports_every_measurement() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--sizes", "3000,6000", "--json", "--workers", "2"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["machine"]["cores"] >= 1
    small, large = doc["sizes"]
    assert small["strokes"] >= 3000 and large["strokes"] >= 6000
    for row in (small, large):
        replay = row["replay"]
        assert replay["one_worker"]["strokes_per_s"] > 0 and replay["all_cores"]["workers"] == 2
        assert row["ingest"]["shots_aligned"] == row["strokes"]
        assert row["replay_into_store"]["strokes_per_s"] > 0
        # Each report kind of the season, and each phase with the peak memory of its own process.
        assert [q["report"] for q in row["reports"]] == [
            f"{k} by player" for k in ("breaks", "billiards", "misses", "clock")
        ]
        assert all(q["rows"] > 0 and len(q["spread"]) == 2 for q in row["reports"])
        phases = [row["ingest"], row["replay_into_store"], row["replay_logs"], *row["reports"]]
        assert all(phase["peak_rss_mb"] > 0 for phase in phases)
        assert row["peak_rss_mb"] > 0
    # The larger season starts with the smaller one's matches, so it has at least its findings.
    assert large["replay"]["findings"] >= small["replay"]["findings"]
