"""A simulated season: same seed, same bytes; valid cuelog/1 logs; clocks that align."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from cuelog.ingest.reader import read_records
from cuelog.schemas.records import Frame, FrameEnd, Match, Stroke
from cuelog.simulate import SeasonConfig, simulate_season
from cuelog.simulate.writer import write_season
from tests.sim.conftest import cuelog, cuelog_process, tree_bytes

ARGS = ["--matches", "4", "--seed", "42", "--errors", "0.05"]


def test_same_seed_same_bytes_snooker(tmp_path: Path) -> None:
    one, two, other = tmp_path / "one", tmp_path / "two", tmp_path / "other"
    for out, seed in ((one, "42"), (two, "42"), (other, "43")):
        args = ["simulate", "--rules", "snooker/wpbsa-2024", *ARGS, "--out", str(out), "--best-of", "1"]
        args[args.index("42")] = seed
        r = cuelog(*args)
        assert r.returncode == 0, r.stderr
    assert tree_bytes(one) == tree_bytes(two)
    assert tree_bytes(one) != tree_bytes(other)


def test_same_seed_same_bytes_whatever_the_workers_billiards(tmp_path: Path) -> None:
    cfg = SeasonConfig("billiards/wpbsa-2024", 6, 42, 0.05, target=80)
    write_season(tmp_path / "w1", simulate_season(cfg, workers=1))
    write_season(tmp_path / "w3", simulate_season(cfg, workers=3))
    assert tree_bytes(tmp_path / "w1") == tree_bytes(tmp_path / "w3")


def test_match_order_does_not_change_a_match(tmp_path: Path) -> None:
    """Each match has its own seed: a longer season starts with the same matches."""
    short = {s.match.match: s.records for s in simulate_season(SeasonConfig("snooker/wpbsa-2024", 3, 9, best_of=1))}
    long = {s.match.match: s.records for s in simulate_season(SeasonConfig("snooker/wpbsa-2024", 5, 9, best_of=1))}
    assert all(long[k] == v for k, v in short.items())


@pytest.mark.parametrize(
    "rules",
    [
        "snooker/wpbsa-2024",
        "billiards/wpbsa-2024",
    ],
)
def test_logs_are_cuelog_1_with_times_tables_and_clocks_that_align(tmp_path: Path, rules: str) -> None:
    r = cuelog("simulate", "--rules", rules, "--matches", "4", "--seed", "5", "--out", str(tmp_path), "--best-of", "1")
    assert r.returncode == 0, r.stderr
    logs = sorted((tmp_path / "logs").glob("*.jsonl"))
    assert len(logs) == 4
    for log in logs:
        records = [rec for _, rec in read_records(log)]
        match = records[0]
        assert isinstance(match, Match) and match.format == "cuelog/1" and match.rules == rules
        assert match.table is not None
        strokes = [r for r in records if isinstance(r, Stroke)]
        assert strokes and all(s.t is not None and s.score is not None for s in strokes)
        frames = [r for r in records if isinstance(r, Frame)]
        ends = [r for r in records if isinstance(r, FrameEnd)]
        assert len(frames) == len(ends) == 1
        # Stroke numbers count from 1 within the frame and never repeat.
        assert [s.n for s in strokes] == list(range(1, len(strokes) + 1))
        # Every stroke has its clock stop on the match's table within the 2 s tolerance.
        with (tmp_path / "clocks" / f"{match.table}.csv").open(newline="") as fh:
            rows = list(csv.DictReader(fh))
        assert {row["table"] for row in rows} == {match.table}
        assert [row["ts"] for row in rows] == sorted(row["ts"] for row in rows)
        day = (strokes[0].t or "")[:10]
        stops = [row["ts"] for row in rows if row["event"] == "stop" and row["ts"].startswith(day)]
        assert len(stops) == len(strokes)
        assert all(
            stop[:19] >= (s.t or "")[:19] or stop[:17] == (s.t or "")[:17]
            for stop, s in zip(stops, strokes, strict=True)
        )
    truth = [json.loads(line) for line in (tmp_path / "errors.jsonl").read_text().splitlines()]
    assert truth == []  # no --errors: nothing injected


def test_logs_pass_the_cuelog_validator(tmp_path: Path) -> None:
    pytest.importorskip("cuelog.ingest.validate")
    r = cuelog(
        "simulate",
        "--rules",
        "snooker/wpbsa-2024",
        "--matches",
        "3",
        "--seed",
        "8",
        "--out",
        str(tmp_path),
        "--errors",
        "0.05",
    )
    assert r.returncode == 0, r.stderr
    v = cuelog("validate", str(tmp_path / "logs"))
    assert v.returncode == 0, v.stdout + v.stderr


def test_unknown_or_unsupported_rules_exit_2(tmp_path: Path) -> None:
    r = cuelog_process("simulate", "--rules", "snooker/nope", "--matches", "1", "--seed", "1", "--out", str(tmp_path))
    assert r.returncode == 2 and "unknown rules" in r.stderr
    # The shootout is a known ruleset the simulator does not play.
    r = cuelog("simulate", "--rules", "snooker/shootout-2024", "--matches", "1", "--seed", "1", "--out", str(tmp_path))
    assert r.returncode == 2 and "snooker/shootout-2024" in r.stderr
    r = cuelog(
        "simulate",
        "--rules",
        "snooker/wpbsa-2024",
        "--matches",
        "1",
        "--seed",
        "1",
        "--out",
        str(tmp_path),
        "--kinds",
        "typo",
    )
    assert r.returncode == 2 and "typo" in r.stderr
