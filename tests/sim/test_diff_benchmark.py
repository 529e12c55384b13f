"""The diff benchmark runs end to end on a tiny season (figures are never asserted)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.sim.conftest import ROOT


def test_diff_benchmark_reports_both_timings_and_their_ratio() -> None:
    r = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "diff.py"),
            "--strokes",
            "3000",
            "--rounds",
            "2",
            "--workers",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["strokes"] >= 3000 and doc["frames"] > 0 and doc["frames_changed"] > 0
    for key in ("replay_s", "diff_s", "diff_over_replay"):
        assert doc[key]["low"] <= doc[key]["median"] <= doc[key]["high"]
