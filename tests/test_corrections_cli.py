"""``cuelog replay --corrections``: officials' corrections applied before the replay (docs/format.md 6)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from cuelog.cli import app
from tests.conftest import EXAMPLES

runner = CliRunner()
OFFICIATING = EXAMPLES / "snooker-officiating.jsonl"
# The recorder missed the pink being spotted after stroke 7 (S3 R7): the referee did spot it.
PINK = {
    "match": "example-officiating",
    "frame": 1,
    "n": 7,
    "set": {"respots": [{"ball": "pink", "spot": "pink"}]},
    "note": "pink spotted; missing from the log",
}


def write(path: Path, *rows: dict[str, object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def found(doc: dict[str, object]) -> list[tuple[int, str]]:
    (match,) = doc["matches"]  # type: ignore[misc]
    return [(f["n"], f["kind"]) for fr in match["frames"] for f in fr["findings"]]


def test_corrections_apply_to_files_and_are_reported_with_the_result(tmp_path: Path) -> None:
    fixes = write(tmp_path / "fixes.jsonl", PINK)
    before = json.loads(runner.invoke(app, ["replay", str(OFFICIATING), "--json"]).stdout)
    result = runner.invoke(app, ["replay", str(OFFICIATING), "--corrections", str(fixes), "--json"])
    assert result.exit_code == 1  # the two other findings remain
    doc = json.loads(result.stdout)
    assert (7, "respot_missing") in found(before)
    assert found(doc) == [(2, "condoned_foul"), (5, "penalty_value")]
    assert doc["matches"][0]["corrections"] == [
        {"frame": 1, "n": 7, "set": PINK["set"], "note": "pink spotted; missing from the log"}
    ]
    assert "corrections" not in before["matches"][0]


def test_corrections_apply_to_the_database_and_are_stored(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    assert runner.invoke(app, ["ingest", str(OFFICIATING), "--db", str(db)]).exit_code == 0
    fixes = write(tmp_path / "fixes.jsonl", PINK)
    result = runner.invoke(app, ["replay", "--db", str(db), "--workers", "1", "--corrections", str(fixes), "--json"])
    assert result.exit_code == 1
    assert found(json.loads(result.stdout)) == [(2, "condoned_foul"), (5, "penalty_value")]
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.execute("SELECT match_id, frame, n, fields, note FROM replay_corrections").fetchall()
        kinds = con.execute("SELECT n, kind FROM replay_findings ORDER BY n").fetchall()
    finally:
        con.close()
    assert [(m, f, n, json.loads(s), note) for m, f, n, s, note in stored] == [
        ("example-officiating", 1, 7, PINK["set"], PINK["note"])
    ]
    assert kinds == [(2, "condoned_foul"), (5, "penalty_value")]


def test_a_correction_for_a_stroke_that_is_not_there_is_bad_input(tmp_path: Path) -> None:
    fixes = write(tmp_path / "fixes.jsonl", PINK, {**PINK, "n": 70})
    result = runner.invoke(app, ["replay", str(OFFICIATING), "--corrections", str(fixes), "--json"])
    assert result.exit_code == 2
    problems = json.loads(result.stdout)["problems"]
    assert [(p["file"], p["line"], p["code"]) for p in problems] == [(str(fixes), 2, "no_such_stroke")]


def test_a_correction_for_a_match_not_loaded_is_bad_input(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    assert runner.invoke(app, ["ingest", str(OFFICIATING), "--db", str(db)]).exit_code == 0
    fixes = write(tmp_path / "fixes.jsonl", {**PINK, "match": "no-such-match"})
    result = runner.invoke(app, ["replay", "--db", str(db), "--corrections", str(fixes)])
    assert result.exit_code == 2
    assert "no_such_stroke" in result.stderr and "fixes.jsonl" in result.stderr
