"""``cuelog demo`` end to end through the real command line, in a temporary directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from tests.sim.conftest import ROOT

pytest.importorskip("cuelog.ingest.load", reason="the demo loads logs with cuelog ingest")
pytest.importorskip("cuelog.pipeline", reason="the demo replays into the store with cuelog analytics")

PNG = b"\x89PNG\r\n\x1a\n"


def run_demo(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cuelog", "demo", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "160"},
        check=False,
    )


def test_demo_loads_replays_reports_and_plots_on_the_default_paths(tmp_path: Path) -> None:
    r = run_demo(tmp_path, "--workers", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    db = tmp_path / "cuelog.duckdb"
    out = tmp_path / "cuelog-demo"
    assert db.is_file()
    con = duckdb.connect(str(db), read_only=True)
    try:
        matches = con.execute("SELECT rules, count(*) FROM matches GROUP BY rules ORDER BY rules").fetchall()
        rules = dict(matches)
        # A few dozen simulated matches of each discipline plus the bundled examples.
        assert rules["snooker/wpbsa-2024"] >= 24 and rules["billiards/wpbsa-2024"] >= 12
        replayed = con.execute("SELECT count(DISTINCT match_id) FROM replay_frames").fetchone()
        assert replayed is not None and replayed[0] == sum(rules.values())
        shots = con.execute("SELECT count(*) FROM shot_clock").fetchone()
        strokes = con.execute("SELECT count(*) FROM strokes WHERE match_id NOT LIKE 'example-%'").fetchone()
        assert shots is not None and strokes is not None and shots[0] == strokes[0] > 1000
        kinds = {k for (k,) in con.execute("SELECT DISTINCT kind FROM replay_findings").fetchall()}
    finally:
        con.close()
    # The audit summary names what was found, the worst frames and the accuracy.
    for kind in kinds:
        assert kind in r.stdout
    assert "worst frames" in r.stdout and "highest snooker break" in r.stdout
    assert "recall 1.000" in r.stdout and "precision 1.000" in r.stdout
    # The worst-frame plot draws the frame the worst-frames table ranks first.
    table = r.stdout[r.stdout.index("worst frames") :].splitlines()
    rows = [[cell.strip() for cell in line.split("│")[1:3]] for line in table if line.startswith("│")]
    match, frame = rows[0]
    assert f"worst-frame.png (match {match} frame {frame}, the worst frame, findings marked)" in r.stdout
    plots = sorted(p.name for p in out.glob("*.png"))
    assert {"breaks.png", "shot-times.png", "worst-frame.png"} <= set(plots)
    for name in plots:
        data = (out / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 10_000
    assert sorted((out / "season" / "snooker" / "logs").glob("*.jsonl"))
    # The audit report of the match with the most findings, as an official would open it.
    report = (out / "audit-report.html").read_text(encoding="utf-8")
    assert "audit-report.html" in r.stdout
    assert report.startswith("<!DOCTYPE html>") and '<tr class="finding"' in report and "<script" not in report


def test_demo_twice_changes_nothing(tmp_path: Path) -> None:
    first = run_demo(tmp_path, "--workers", "1", "--db", "a.duckdb", "--out", "demo")
    assert first.returncode == 0, first.stdout + first.stderr
    season = {p: p.read_bytes() for p in sorted((tmp_path / "demo" / "season").rglob("*")) if p.is_file()}

    def counts() -> list[tuple[str, int]]:
        con = duckdb.connect(str(tmp_path / "a.duckdb"), read_only=True)
        try:
            return [
                (t, con.execute(f"SELECT count(*) FROM {t}").fetchone()[0])  # type: ignore[index]
                for t in ("matches", "records", "strokes", "shot_clock", "replay_findings", "replay_breaks")
            ]
        finally:
            con.close()

    before = counts()
    second = run_demo(tmp_path, "--workers", "2", "--db", "a.duckdb", "--out", "demo")
    assert second.returncode == 0, second.stdout + second.stderr
    assert counts() == before
    assert {p: p.read_bytes() for p in sorted((tmp_path / "demo" / "season").rglob("*")) if p.is_file()} == season
