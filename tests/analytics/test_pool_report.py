"""``cuelog report pool`` and ``cuelog plot racks``: eight-ball statistics on a hand-built
league match, replayed by the engine into a real DuckDB file, worked out by hand.

Rack 1 (World rules, Ann breaks): Ann pots a red on the break, nominates red, pots the
other six and the black in the same visit: a break-and-dish, 8 balls.
Rack 2 (Bob breaks): a fair break, nothing potted; Ann misses everything (a foul, two
visits to Bob); Bob pots the seven yellows and the black in one visit: a clearance.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from cuelog.cli import app
from tests.analytics import kit

runner = CliRunner()


def league(match: str = "p1-league") -> kit.Log:
    log = kit.Log(match, "Ann", "Bob", rules="eightball/world-2015", event="Pool League")
    log.frame("A")
    log.stroke("A", ["red"], ["red"], cushions={"objects": 5}, placement="legal")
    log.event("nominate_group", side="A", group="red")
    for _ in range(6):
        log.stroke("A", ["red"], ["red"])
    log.stroke("A", ["black"], ["black"])
    log.records.append({"type": "frame_end", "frame": 1, "winner": "A", "reason": "pot"})
    log.frame("B")
    log.stroke("B", ["red"], [], cushions={"objects": 5}, placement="legal")
    log.stroke("A", [], [], call={"foul": True, "visits": 2})
    for _ in range(7):
        log.stroke("B", ["yellow"], ["yellow"])
    log.stroke("B", ["black"], ["black"])
    log.records.append({"type": "frame_end", "frame": 2, "winner": "B", "reason": "pot"})
    return log


@pytest.fixture
def pool_db(tmp_path: Path) -> Path:
    db = kit.load(tmp_path / "pool.duckdb", league(), kit.maximum())
    result = runner.invoke(app, ["replay", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def _json(db: Path, *extra: str) -> dict:
    result = runner.invoke(app, ["report", "pool", "--db", str(db), "--json", *extra])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_pool_report_per_player(pool_db: Path) -> None:
    rows = {r["player"]: r for r in _json(pool_db)["players"]}
    assert sorted(rows) == ["Ann", "Bob"]  # the snooker match is not a pool match
    assert rows["Ann"] == {
        "player": "Ann", "racks": 2, "racks_won": 1, "break_and_dish": 1, "clearances": 0,
        "balls": 8, "visits": 2, "balls_per_visit": 4.0, "fouls": 1, "fouls_conceded": 0,
    }  # fmt: skip
    assert rows["Bob"] == {
        "player": "Bob", "racks": 2, "racks_won": 1, "break_and_dish": 0, "clearances": 1,
        "balls": 8, "visits": 2, "balls_per_visit": 4.0, "fouls": 0, "fouls_conceded": 1,
    }  # fmt: skip


def test_pool_report_one_player_keeps_the_fouls_conceded(pool_db: Path) -> None:
    (row,) = _json(pool_db, "--player", "Bob")["players"]
    assert row["fouls_conceded"] == 1 and row["clearances"] == 1


def test_pool_report_by_match_and_event(pool_db: Path) -> None:
    (m,) = _json(pool_db, "--by", "match")["matches"]
    assert m["match"] == "p1-league" and m["racks"] == 2 and m["racks_won"] == 2 and m["fouls"] == 1
    (e,) = _json(pool_db, "--by", "event")["events"]
    assert e["event"] == "Pool League" and e["break_and_dish"] == 1 and e["clearances"] == 1


def test_pool_report_exports(pool_db: Path, tmp_path: Path) -> None:
    csv, parquet = tmp_path / "pool.csv", tmp_path / "pool.parquet"
    result = runner.invoke(app, ["report", "pool", "--db", str(pool_db), "--csv", str(csv), "--parquet", str(parquet)])
    assert result.exit_code == 0, result.output
    for frame in (pl.read_csv(csv), pl.read_parquet(parquet)):
        assert frame["player"].to_list() == ["Ann", "Bob"] and frame["racks_won"].to_list() == [1, 1]


def test_plot_racks_and_clearances(pool_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "racks.png"
    result = runner.invoke(app, ["plot", "racks", "--db", str(pool_db), "--out", str(out), "--width", "800"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5000


def nineball_match(match: str = "p2-nine") -> kit.Log:
    """Rack 1: Ann breaks, pots the 2, then the 1 and 3-8 and the 9: a break-and-run.
    Rack 2: Bob breaks, Ann pushes out (WPA 2.4), Bob takes the shot and makes the 9 off the 1."""
    log = kit.Log(match, "Ann", "Bob", rules="nineball/wpa", event="Nine-Ball Open")
    log.frame("A")
    log.stroke("A", ["1"], ["2"], cushions={"objects": 4}, placement="legal")
    for ball in ("1", "3", "4", "5", "6", "7", "8", "9"):
        log.stroke("A", [ball], [ball])
    log.records.append({"type": "frame_end", "frame": 1, "winner": "A", "reason": "pot"})
    log.frame("B")
    log.stroke("B", ["1"], [], cushions={"objects": 5}, placement="legal")
    log.stroke("A", ["6"], [], push_out=True)
    log.choice("B", "play")
    log.stroke("B", ["1"], ["9"])
    log.records.append({"type": "frame_end", "frame": 2, "winner": "B", "reason": "pot"})
    return log


def test_nineball_report(tmp_path: Path) -> None:
    db = kit.load(tmp_path / "nine.duckdb", nineball_match())
    assert runner.invoke(app, ["replay", "--db", str(db)]).exit_code == 0
    result = runner.invoke(app, ["report", "nineball", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.stderr
    rows = {r["player"]: r for r in json.loads(result.stdout)["players"]}
    assert rows["Ann"] == {
        "player": "Ann", "racks": 2, "racks_won": 1, "break_and_run": 1, "push_outs": 1,
        "balls": 9, "visits": 2, "fouls": 0, "fouls_conceded": 0,
    }  # fmt: skip
    assert rows["Bob"] == {
        "player": "Bob", "racks": 2, "racks_won": 1, "break_and_run": 0, "push_outs": 0,
        "balls": 1, "visits": 2, "fouls": 0, "fouls_conceded": 0,
    }  # fmt: skip


def test_nineball_report_counts_the_push_outs_as_the_officials_corrected_them(tmp_path: Path) -> None:
    """WPA 2.4: a push out is a recorded fact; the officials' correction that says Ann never
    declared one (docs/format.md section 6) takes it off the report, as it does in the replay:
    her shot is then judged as a normal one (the 6 first: a foul nobody called)."""
    from cuelog.analytics import reports
    from cuelog.store import connect

    db = kit.load(tmp_path / "nine.duckdb", nineball_match())
    fixes = tmp_path / "fixes.jsonl"
    fixes.write_text(json.dumps({"match": "p2-nine", "frame": 2, "n": 2, "set": {"push_out": False}}) + "\n")
    ran = runner.invoke(app, ["replay", "--db", str(db), "--corrections", str(fixes), "--json"])
    assert ran.exit_code == 1, ran.output  # a finding
    (match,) = json.loads(ran.stdout)["matches"]
    assert [(f["n"], f["kind"]) for f in match["frames"][1]["findings"]][:1] == [(2, "condoned_foul")]
    result = runner.invoke(app, ["report", "nineball", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.stderr
    assert {r["player"]: r["push_outs"] for r in json.loads(result.stdout)["players"]} == {"Ann": 0, "Bob": 0}
    with connect(db, read_only=True) as con:
        assert reports.load(con, "nineball").push_outs.is_empty()  # what the plots read
    assert runner.invoke(app, ["replay", "--db", str(db)]).exit_code == 0  # without the correction
    with connect(db, read_only=True) as con:
        pushes = reports.load(con, "nineball").push_outs
    assert pushes.select("player", "frame", "push_outs").rows() == [("Ann", 2, 1)]


def test_a_key_given_twice_counts_its_last_value_everywhere(tmp_path: Path) -> None:
    """docs/format.md section 2: a record naming a key twice is read with the last value by
    every part of cuelog (RFC 8259 leaves it to the reader): Ann's stroke says push_out
    true, then false, so the check, the replay (a foul nobody called: the 6 first, WPA 6.2)
    and the nine-ball report all see no push out."""
    text = nineball_match().text()
    assert text.count('"push_out": true}') == 1
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "p2-nine.jsonl").write_text(text.replace('"push_out": true}', '"push_out": true, "push_out": false}'))
    db = tmp_path / "nine.duckdb"
    assert runner.invoke(app, ["validate", str(logs)]).exit_code == 0
    assert runner.invoke(app, ["ingest", str(logs), "--db", str(db)]).exit_code == 0
    ran = runner.invoke(app, ["replay", "--db", str(db), "--json"])
    assert ran.exit_code == 1, ran.output  # the condoned foul
    (match,) = json.loads(ran.stdout)["matches"]
    assert (2, "condoned_foul") in [(f["n"], f["kind"]) for f in match["frames"][1]["findings"]]
    result = runner.invoke(app, ["report", "nineball", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.stderr
    assert {r["player"]: r["push_outs"] for r in json.loads(result.stdout)["players"]} == {"Ann": 0, "Bob": 0}


def straight_pool_game(match: str = "p3-straight") -> kit.Log:
    """A 14.1 game to 5: Ann breaks legally (nothing pocketed); Bob runs 3, misses; Ann fouls
    (minus one); Bob runs 2 more and wins at 5."""
    log = kit.Log(match, "Ann", "Bob", rules="straight-pool/wpa", event="Straight Pool Open", target=5)
    log.frame("A")
    log.stroke("A", ["1"], [], cushions={"objects": 3}, placement="legal", score=[0, 0])
    for ball, score in (("2", 1), ("3", 2), ("4", 3)):
        log.stroke("B", [ball], [ball], nominated=ball, score=[0, score])
    log.stroke("B", ["5"], [], cushions={"after_contact": True}, score=[0, 3])
    log.stroke("A", ["5"], [], cushions={"after_contact": False}, call={"foul": True, "points": 1}, score=[-1, 3])
    log.stroke("B", ["5"], ["5"], nominated="5", score=[-1, 4])
    log.stroke("B", ["6"], ["6"], nominated="6", score=[-1, 5])
    log.records.append({"type": "frame_end", "frame": 1, "winner": "B", "score": [-1, 5], "reason": "target"})
    return log


def test_straight_pool_report_high_run(tmp_path: Path) -> None:
    db = kit.load(tmp_path / "sp.duckdb", straight_pool_game())
    replayed = runner.invoke(app, ["replay", "--db", str(db)])
    assert replayed.exit_code == 0, replayed.output
    result = runner.invoke(app, ["report", "straight-pool", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.stderr
    rows = {r["player"]: r for r in json.loads(result.stdout)["players"]}
    assert rows["Bob"] == {
        "player": "Bob", "games": 1, "points": 5, "high_run": 3, "innings": 2,
        "balls_per_inning": 2.5, "fouls": 0, "foul_points": 0,
    }  # fmt: skip
    assert rows["Ann"] == {
        "player": "Ann", "games": 1, "points": -1, "high_run": 0, "innings": 2,
        "balls_per_inning": 0.0, "fouls": 1, "foul_points": 1,
    }  # fmt: skip


def test_plot_nineball_and_runs(tmp_path: Path) -> None:
    """``cuelog plot nineball`` and ``cuelog plot runs`` (14.1) render PNGs of the asked size."""
    db = kit.load(tmp_path / "both.duckdb", nineball_match(), straight_pool_game())
    assert runner.invoke(app, ["replay", "--db", str(db)]).exit_code == 0
    for kind in ("nineball", "runs"):
        out = tmp_path / f"{kind}.png"
        result = runner.invoke(
            app, ["plot", kind, "--db", str(db), "--out", str(out), "--width", "640", "--height", "360"]
        )
        assert result.exit_code == 0, result.output
        data = out.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(data[16:20], "big") == 640 and int.from_bytes(data[20:24], "big") == 360
