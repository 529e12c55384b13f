"""The ingest worker's step-by-step benchmark runs on a simulated season (figures never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.sim.conftest import ROOT, benchmark


def test_each_step_of_a_worker_is_timed_over_the_rows_read_small_makes() -> None:
    doc = benchmark("ingest_check.py", "--snooker", "3", "--billiards", "2", "--rounds", "2", "--json")
    assert doc["files"] == 5 and doc["rounds"] == 2
    # The steps made the rows the worker's own read makes: a record row for every record,
    # a stroke row for nine lines in ten.
    rows = doc["rows"]
    assert rows["records"] == doc["records"] > 0 and 0 < rows["strokes"] < rows["records"]
    assert list(doc["steps"]) == [
        "lines", "decode", "check", "times", "tuples", "arrow_records", "arrow_strokes", "arrow_shot_clock",
    ]  # fmt: skip
    for figure in [*doc["steps"].values(), doc["total"], *doc["floors"].values()]:
        low, high = figure["spread"]
        assert 0 <= low <= figure["seconds"] <= high
    assert doc["total"]["seconds"] >= max(f["seconds"] for f in doc["steps"].values())
    # Both floors read every record of the same bytes.
    assert doc["same_records"] and doc["floors_read"] == dict.fromkeys(doc["floors"], doc["records"])


def test_a_log_the_fast_check_does_not_call_clean_stops_the_benchmark(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    good = (ROOT / "examples" / "snooker-maximum.jsonl").read_text(encoding="utf-8")
    (logs / "a.jsonl").write_text(good + '{"type": "stroke", "frame": 99}\n', encoding="utf-8")
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ingest_check.py"), "--logs", str(logs), "--rounds", "1"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode == 1
    assert "give clean small logs" in r.stderr
