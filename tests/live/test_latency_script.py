"""The latency benchmark runs end to end on a short match (its figures are never asserted)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import ROOT

SHORT = ("--best-of", "1")


def test_latency_script_reports_floor_and_watch() -> None:
    r = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "watch_latency.py"),
            *("--rounds", "1", "--pause", "0.005"),
            *SHORT,
            "--json",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    (row,) = doc["rounds"]
    # Every line appended reached the floor, and every stroke's due call came from the watch.
    assert row["floor"]["line"]["n"] == doc["lines"]
    assert row["watch"]["due"]["n"] > 0 and row["watch"]["due"]["p95_ms"] >= row["watch"]["due"]["p50_ms"]
    assert len(doc["ratio_p95_due_to_floor"]) == 1
