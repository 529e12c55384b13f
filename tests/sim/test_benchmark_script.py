"""The benchmark script runs end to end on a tiny season (figures are never asserted)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.sim.conftest import ROOT, benchmark, cuelog


def test_benchmark_script_reports_every_measurement() -> None:
    doc = benchmark("run.py", "--sizes", "3000,6000", "--json", "--workers", "2")
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
        alone = row["engine_alone"]
        assert alone["rounds"] == 3 and alone["strokes"] == row["strokes"]
        for figure in ("engine_seconds", "decode_seconds", "touch_seconds"):
            assert 0 < alone[figure]["low"] <= alone[figure]["median"] <= alone[figure]["high"]
        low, high = alone["engine_strokes_per_s_range"]
        assert low <= alone["engine_strokes_per_s"] <= high
        assert row["floor"]["touch_seconds"] == alone["touch_seconds"]["median"]
    # The larger season starts with the smaller one's matches, so it has at least its findings.
    assert large["replay"]["findings"] >= small["replay"]["findings"]


def test_engine_benchmark_reports_the_engine_against_its_floors() -> None:
    doc = benchmark("engine.py", "--strokes", "3000", "--rounds", "2", "--repeat", "1", "--json")
    assert doc["strokes"] >= 1000 and doc["rounds"] == 2
    for clock in ("wall", "cpu"):
        tree = doc["tree"][clock]
        assert tree["engine_strokes_per_s"] > 0
        assert tree["engine_s"]["low"] <= tree["engine_s"]["median"] <= tree["engine_s"]["high"]
        assert tree["engine_over_touch"] > 0 and tree["engine_over_decode"] > 0
        # The engine again with the collector paused, as `cuelog replay` runs it.
        assert tree["paused_s"]["low"] <= tree["paused_s"]["median"] <= tree["paused_s"]["high"]
        low, high = tree["paused_strokes_per_s_range"]
        assert 0 < low <= tree["paused_strokes_per_s"] <= high


def test_benchmark_seasons_play_each_copy_a_year_on_with_its_shot_clocks(tmp_path: Path) -> None:
    """``run.py --seasons``: each copy of the base season is played a year after the one
    before, its device logs with it, so every shot still finds its stroke."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import run  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    base = run.build_base(tmp_path, 2000, 1)
    strokes_of_base = sum(n for _, n in base.logs)
    logs, clocks, strokes = run.replicate(base, 3 * strokes_of_base, tmp_path / "s", 20, seasons=True)
    years: dict[str, set[str]] = {}
    for log in logs:
        for line in log.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            if rec["type"] == "match":
                copy = rec["match"].rpartition("-c")[2] if "-c" in rec["match"] else "000"
                years.setdefault(copy, set()).add(rec["date"][:4])
    assert years == {"000": {"2026"}, "001": {"2027"}, "002": {"2028"}}
    clock_years = {
        p.stem.rpartition("-c")[2] if "-c" in p.stem else "000": {
            line.split(",")[1][:4] for line in p.read_text(encoding="utf-8").splitlines()[1:]
        }
        for p in clocks
    }
    assert clock_years == years
    db = tmp_path / "s.duckdb"
    args = ["ingest", str(tmp_path / "s" / "logs"), "--db", str(db), "--json"]
    r = cuelog(*args, *(a for c in clocks for a in ("--clock", str(c))))
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert sum(c["aligned"] for c in doc["clocks"]) == strokes
