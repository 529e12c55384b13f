"""``cuelog report``: each statistic on hand-built matches, worked out by hand.

The database holds four matches (see ``kit`` and ``outcomes``), replayed stroke by stroke:

- m1 (Spring Open, Ann v Bob): Bob breaks off, Ann makes 147 (15 reds, 15 blacks, colours).
- m2 (Spring Open, Ann v Bob): Bob 56 (7 reds, 7 blacks), Ann 21 (3 reds, 3 pinks),
  Bob 67 (5 reds, 5 blacks = 40, then the colours 27).
- m3 (Autumn Cup, Ann v Bob): Bob three fouls and a miss running, 5 each (S3 R14), then a
  legal stroke; Ann in-off, 4; Bob red and black, 8. Shot clock with a 30 s limit.
- m4 (Billiards League, Cara v Dan): Cara 3+3+3 then a push stroke, foul, 2 to Dan, in
  the middle of her visit; Dan 3 + cannon 2, then nothing; Cara 3, then nothing; Dan nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from cuelog.analytics import export, plain
from cuelog.analytics.queries import Report
from cuelog.cli import app
from cuelog.cli.report import table
from tests.analytics import kit

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def report_json(db: Path, kind: str, *extra: str) -> dict:
    code, out, err = run("report", kind, "--db", str(db), "--json", *extra)
    assert code == 0, err
    return json.loads(out)


def by_name(doc: dict, key: str = "players", name: str = "player") -> dict[str, dict]:
    return {row[name]: row for row in doc[key]}


@pytest.mark.disciplines("snooker")
def test_breaks_a_147_and_two_fifties_in_one_frame(stats_db: Path) -> None:
    players = by_name(report_json(stats_db, "breaks"))
    # Ann: the 147 (m1) and 21 (m2); she played the three snooker frames.
    assert players["Ann"] == {
        "player": "Ann",
        "frames": 3,
        "breaks": [147, 21],
        "highest": 147,
        "fifty_plus": 1,
        "centuries": 1,
        "total_points": 168,
    }
    # Bob: 67 and 56 in one frame (m2), 8 in m3; fifty_plus counts both fifties.
    assert players["Bob"] == {
        "player": "Bob",
        "frames": 3,
        "breaks": [67, 56, 8],
        "highest": 67,
        "fifty_plus": 2,
        "centuries": 0,
        "total_points": 131,
    }
    # Billiards players are not in the snooker breaks report.
    assert set(players) == {"Ann", "Bob"}


@pytest.mark.disciplines("snooker")
def test_breaks_count_points_from_strokes_not_penalties(stats_db: Path) -> None:
    """In m3 Ann receives 15 penalty points (three misses) but pots nothing herself."""
    players = by_name(report_json(stats_db, "breaks", "--match", "m3-misses"))
    assert players["Ann"]["total_points"] == 0
    assert players["Ann"]["breaks"] == []
    assert players["Ann"]["highest"] == 0
    assert players["Bob"]["total_points"] == 8


@pytest.mark.disciplines("snooker")
def test_misses_sequence(stats_db: Path) -> None:
    players = by_name(report_json(stats_db, "misses"))
    # Bob: 3 miss calls x 5 = 15 conceded; they are his only fouls; 3 misses over 3 frames.
    assert players["Bob"] == {
        "player": "Bob",
        "frames": 3,
        "miss_calls": 3,
        "miss_points_conceded": 15,
        "fouls": 3,
        "foul_points_conceded": 15,
        "misses_per_frame": 1.0,
        "longest_miss_sequence": 3,
        "condoned_fouls": 0,
    }
    # Ann: one foul (in-off, 4), no miss.
    assert players["Ann"] == {
        "player": "Ann",
        "frames": 3,
        "miss_calls": 0,
        "miss_points_conceded": 0,
        "fouls": 1,
        "foul_points_conceded": 4,
        "misses_per_frame": 0.0,
        "longest_miss_sequence": 0,
        "condoned_fouls": 0,
    }


@pytest.mark.disciplines("billiards")
def test_billiards_foul_in_the_middle_of_a_visit(stats_db: Path) -> None:
    players = by_name(report_json(stats_db, "billiards"))
    # Cara: 9 before the foul + 3 = 12 points in 2 visits; the foul ends her first visit
    # and its 9 still stand as a break (S3 R10(e) analogue: points before the foul count).
    assert players["Cara"] == {
        "player": "Cara",
        "frames": 1,
        "points": 12,
        "visits": 2,
        "average": 6.0,
        "highest_break": 9,
        "centuries": 0,
    }
    # Dan: 3 + 2 = 5 from his own strokes (the 2 penalty points are not his), 2 visits.
    assert players["Dan"] == {
        "player": "Dan",
        "frames": 1,
        "points": 5,
        "visits": 2,
        "average": 2.5,
        "highest_break": 5,
        "centuries": 0,
    }


@pytest.mark.disciplines("snooker")
def test_clock_shot_times(stats_db: Path) -> None:
    players = by_name(report_json(stats_db, "clock", "--event", "Autumn Cup"))
    # Bob: 12, 25, 31, 18.5, 40 -> mean 126.5 / 5 = 25.3, median 25;
    # over the 30 s limit: 31 and 40.
    assert players["Bob"] == {
        "player": "Bob",
        "shots": 5,
        "mean_s": 25.3,
        "median_s": 25.0,
        "max_s": 40.0,
        "over_limit": 2,
    }
    # Ann: 10 and 16.
    assert players["Ann"] == {
        "player": "Ann",
        "shots": 2,
        "mean_s": 13.0,
        "median_s": 13.0,
        "max_s": 16.0,
        "over_limit": 0,
    }


@pytest.mark.disciplines("billiards")
def test_clock_without_a_shot_clock_has_no_times(stats_db: Path) -> None:
    players = by_name(report_json(stats_db, "clock", "--player", "Cara"))
    assert players == {
        "Cara": {"player": "Cara", "shots": 0, "mean_s": None, "median_s": None, "max_s": None, "over_limit": None}
    }


@pytest.mark.disciplines("snooker")
def test_by_match_and_by_event(stats_db: Path) -> None:
    matches = by_name(report_json(stats_db, "breaks", "--by", "match"), "matches", "match")
    assert matches["m2-two-fifties"]["breaks"] == [67, 56, 21]
    assert matches["m2-two-fifties"]["fifty_plus"] == 2
    assert set(matches) == {"m1-maximum", "m2-two-fifties", "m3-misses"}
    events = by_name(report_json(stats_db, "breaks", "--by", "event"), "events", "event")
    # Spring Open = m1 + m2: 147, 67, 56, 21 over two frames.
    assert events["Spring Open"]["breaks"] == [147, 67, 56, 21]
    assert events["Spring Open"]["frames"] == 2
    assert events["Spring Open"]["centuries"] == 1
    assert events["Autumn Cup"]["breaks"] == [8]


@pytest.mark.disciplines("snooker")
def test_filters_player_match_event(stats_db: Path) -> None:
    doc = report_json(stats_db, "breaks", "--player", "Bob", "--event", "Spring Open")
    assert doc["players"] == [
        {
            "player": "Bob",
            "frames": 2,
            "breaks": [67, 56],
            "highest": 67,
            "fifty_plus": 2,
            "centuries": 0,
            "total_points": 123,
        }
    ]
    doc = report_json(stats_db, "breaks", "--match", "m1-maximum")
    assert [(r["player"], r["breaks"]) for r in doc["players"]] == [("Ann", [147]), ("Bob", [])]


@pytest.mark.disciplines("snooker")
def test_human_output_is_a_table(stats_db: Path) -> None:
    code, out, _ = run("report", "breaks", "--db", str(stats_db))
    assert code == 0
    assert "breaks by player" in out
    ann = next(line for line in out.splitlines() if line.strip().startswith("Ann"))
    assert "147, 21" in ann and "168" in ann


def test_human_table_lists_a_break_made_twice_once_with_its_count(tmp_path: Path) -> None:
    """Ann makes 147 in two matches and 21 in a third: the table says ``147 x2, 21`` (every
    break, highest first, a repeated one counted), in the last column, after the figures;
    the JSON lists both 147s."""
    db = kit.load(tmp_path / "s.duckdb", kit.maximum("m1"), kit.maximum("m2"), kit.two_fifties("m3"))
    assert runner.invoke(app, ["replay", "--db", str(db)]).exit_code in (0, 1)
    code, out, _ = run("report", "breaks", "--db", str(db))
    assert code == 0
    header = next(line.split() for line in out.splitlines() if line.strip().startswith("player"))
    assert header == ["player", "frames", "highest", "fifty_plus", "centuries", "total_points", "breaks"]
    ann = next(line for line in out.splitlines() if line.strip().startswith("Ann"))
    assert "147 x2, 21" in ann
    bob = next(line for line in out.splitlines() if line.strip().startswith("Bob"))
    assert "67, 56" in bob and " x" not in bob
    assert by_name(report_json(db, "breaks"))["Ann"]["breaks"] == [147, 147, 21]


def test_the_human_table_shows_each_column_as_the_table_of_its_rows_would() -> None:
    """The table is laid out column by column (a season by match is 59,000 rows): the same
    text as the plain table of its rows, a name's control character shown as its code, no
    value as ``-``, figures to two places after the names, and a list's runs: equal values
    together counted once, equal values apart (a list not sorted) left apart."""
    result = Report(
        "breaks",
        "player",
        ("player", "frames", "breaks", "average"),
        ("VARCHAR", "BIGINT", "BIGINT[]", "DOUBLE"),
        (("Ann\x1b[2J", 3, [147, 147, 21], 1.5), ("Bob", 0, [], None), ("Cy", 2, [50, 8, 50], 2.0)),
    )
    text = table(result)
    rows = [
        ("Ann\x1b[2J", "3", "1.50", "147 x2, 21"),
        ("Bob", "0", "-", "-"),
        ("Cy", "2", "2.00", "50, 8, 50"),
    ]
    justify: list[plain.Justify] = ["left", "right", "right", "left"]
    headers = ("player", "frames", "average", "breaks")
    assert text == plain.table(headers, rows, justify, title="breaks by player", last_runs_on=True)
    assert "Ann\\x1b[2J" in text and "\x1b" not in text


def test_exports_round_trip_parquet_and_csv(stats_db: Path, tmp_path: Path) -> None:
    for kind in ("breaks", "billiards", "misses", "clock"):
        doc = report_json(stats_db, kind)
        pq, csv = tmp_path / f"{kind}.parquet", tmp_path / f"{kind}.csv"
        code, _, err = run("report", kind, "--db", str(stats_db), "--parquet", str(pq), "--csv", str(csv))
        assert code == 0, err
        from_parquet = export.read(pq)
        assert from_parquet.to_dicts() == doc["players"]
        # CSV carries no types: read it back with the Parquet file's schema.
        from_csv = export.read(csv, like=from_parquet.schema)
        assert from_csv.to_dicts() == doc["players"]
        assert from_csv.schema == from_parquet.schema


@pytest.mark.disciplines("snooker")
def test_csv_list_column_is_readable_as_text(stats_db: Path, tmp_path: Path) -> None:
    csv = tmp_path / "breaks.csv"
    run("report", "breaks", "--db", str(stats_db), "--csv", str(csv))
    text = pl.read_csv(csv)
    assert text.filter(pl.col("player") == "Bob")["breaks"].to_list() == ["67;56;8"]


@pytest.mark.disciplines("snooker")
def test_unknown_player_is_exit_2_naming_the_players(stats_db: Path) -> None:
    code, _, err = run("report", "breaks", "--db", str(stats_db), "--player", "Zed")
    assert code == 2
    assert "no player named 'Zed'" in err and "Ann" in err and "Dan" in err


@pytest.mark.disciplines("billiards")
def test_player_of_the_other_discipline_is_exit_2(stats_db: Path) -> None:
    code, _, err = run("report", "billiards", "--db", str(stats_db), "--player", "Ann")
    assert code == 2
    assert "Ann played no replayed billiards frame" in err


@pytest.mark.disciplines("snooker")
def test_unknown_match_and_event_are_exit_2(stats_db: Path) -> None:
    code, _, err = run("report", "breaks", "--db", str(stats_db), "--match", "nope")
    assert code == 2 and "no match with id 'nope'" in err
    code, _, err = run("report", "breaks", "--db", str(stats_db), "--event", "Nope Open")
    assert code == 2 and "no event named 'Nope Open'" in err and "Spring Open" in err


def test_empty_database_is_exit_2(tmp_path: Path) -> None:
    db = kit.load(tmp_path / "empty.duckdb")
    code, _, err = run("report", "breaks", "--db", str(db))
    assert code == 2
    assert "has no matches" in err and "cuelog ingest" in err


def test_missing_database_is_exit_2(tmp_path: Path) -> None:
    code, _, err = run("report", "breaks", "--db", str(tmp_path / "nothing.duckdb"))
    assert code == 2 and "no database at" in err


def test_loaded_but_not_replayed_is_exit_2(tmp_path: Path) -> None:
    db = kit.load(tmp_path / "t.duckdb", kit.maximum())
    code, _, err = run("report", "breaks", "--db", str(db))
    assert code == 2
    assert "cuelog replay --db" in err


@pytest.mark.disciplines("snooker")
def test_unreplayed_matches_are_named_not_silently_dropped(stats_db: Path) -> None:
    kit.load(stats_db, kit.maximum("m5-later"))
    code, out, err = run("report", "breaks", "--db", str(stats_db), "--json")
    assert code == 0
    assert "1 match(es) in the selection not replayed yet (m5-later)" in " ".join(err.split())
    assert by_name(json.loads(out))["Ann"]["breaks"] == [147, 21]


@pytest.mark.disciplines("snooker")
def test_unknown_report_kind_is_exit_2(stats_db: Path) -> None:
    code, _, err = run("report", "century", "--db", str(stats_db))
    assert code == 2 and "breaks, billiards, misses, clock" in err
