"""`cuelog ingest`: each file atomic, idempotent by content, match ids guarded, rows as in the logs."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from cuelog.ingest.reader import read_records
from cuelog.schemas.records import Clock, Frame, Match, Stroke
from cuelog.store import connect, match_records
from tests.conftest import EXAMPLE_LOGS, EXAMPLES, ROOT
from tests.ingest.bigfile import write_big_log
from tests.ingest.conftest import cli, counts, frame, match, snapshot, stroke, write
from tests.ingest.corpus import CASES

EXAMPLE_FILES = EXAMPLE_LOGS


@pytest.fixture
def loaded_db(tmp_path: Path) -> Path:
    """A database holding the bundled examples: what a bad file must leave untouched."""
    db = tmp_path / "store.duckdb"
    result = cli("ingest", EXAMPLES, "--db", db)
    assert result.exit_code == 0, result.stderr
    return db


def _expected_counts(paths: list[Path]) -> dict[str, int]:
    records = [r for p in paths for _, r in read_records(p)]
    return {
        "matches": sum(isinstance(r, Match) for r in records),
        "records": len(records),
        "strokes": sum(isinstance(r, Stroke) for r in records),
        "shot_clock": sum(isinstance(r, Clock) for r in records),
        "ingest_log": len(paths),
    }


def test_examples_ingest_with_matching_row_counts(loaded_db):
    got = counts(loaded_db)
    expected = _expected_counts(EXAMPLE_FILES)
    assert {k: got[k] for k in expected} == expected


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_each_example_reads_back_record_for_record(path, tmp_path):
    db = tmp_path / "one.duckdb"
    assert cli("ingest", path, "--db", db).exit_code == 0
    written = [r for _, r in read_records(path)]
    con = connect(db)
    try:
        [(match_id, back)] = list(match_records(con))
        frames = con.execute("SELECT count(*) FROM records WHERE type = 'frame'").fetchone()
        lines = con.execute("SELECT list(line ORDER BY seq) FROM records").fetchone()
    finally:
        con.close()
    assert back == written
    assert isinstance(written[0], Match) and match_id == written[0].match
    assert frames == (sum(isinstance(r, Frame) for r in written),)
    assert lines is not None and lines[0] == [n for n, _ in read_records(path)]


def test_strokes_are_typed_from_the_record(tmp_path):
    log = write(
        tmp_path / "m.jsonl",
        [
            match(),
            frame(),
            stroke(
                1,
                striker="B",
                t="2026-05-01T15:03:22.120+01:00",
                first=["red"],
                potted=["red", "red"],
                nominated="black",
                call={"foul": True, "points": 7, "miss": True, "free_ball": True},
                score=[7, 2],
                **{"break": 0},
            ),
            stroke(2, score=None),
        ],
    )
    db = tmp_path / "db.duckdb"
    assert cli("ingest", log, "--db", db).exit_code == 0
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "SELECT match_id, frame, n, striker, strftime(t AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S.%g'), first, potted,"
        " nominated, foul_called, points_called, miss_called, free_ball_called, score_a, score_b, break_"
        " FROM strokes ORDER BY n"
    ).fetchall()
    con.close()
    assert rows == [
        ("t-1", 1, 1, "B", "2026-05-01 14:03:22.120", ["red"], ["red", "red"], "black", True, 7, True, True, 7, 2, 0),
        ("t-1", 1, 2, "A", None, ["red"], [], None, False, None, False, False, None, None, None),
    ]


def test_gzip_and_directories_load_in_sorted_order(tmp_path):
    src = tmp_path / "logs"
    (src / "b").mkdir(parents=True)
    write(src / "b" / "2.jsonl", [match(match="two"), frame(), stroke(1)])
    text = "".join(json.dumps(r) + "\n" for r in [match(match="one"), frame(), stroke(1), stroke(2)])
    (src / "1.jsonl.gz").write_bytes(gzip.compress(text.encode()))
    db = tmp_path / "db.duckdb"
    result = cli("ingest", src, "--db", db, "--json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert [(f["path"], f["status"], f["matches"], f["records"]) for f in doc["files"]] == [
        (str(src / "1.jsonl.gz"), "loaded", ["one"], 4),
        (str(src / "b" / "2.jsonl"), "loaded", ["two"], 3),
    ]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_file_is_rejected_whole_and_the_database_is_unchanged(case, loaded_db, tmp_path):
    before = snapshot(loaded_db)
    path = case.make(tmp_path)
    result = cli("ingest", path, "--db", loaded_db, "--json")
    assert result.exit_code == 2
    [f] = json.loads(result.stdout)["files"]
    assert f["status"] == "rejected"
    hits = [p for p in f["problems"] if p["code"] in case.codes and p["file"] == str(path)]
    assert hits, f["problems"]
    assert hits[0]["line"] == case.line if case.line else hits[0]["line"] >= 1
    assert snapshot(loaded_db) == before


def test_bad_file_errors_go_to_stderr_with_file_and_line(loaded_db, tmp_path):
    path = write(tmp_path / "dup.jsonl", [match(), frame(), stroke(1), stroke(1)])
    result = cli("ingest", path, "--db", loaded_db)
    assert result.exit_code == 2
    assert f"{path}: 1 problem(s)" in result.stderr.replace("\n", "")
    assert "n_not_increasing" in result.stderr
    assert "rejected" in result.stderr


def test_a_bad_file_does_not_stop_the_good_ones(tmp_path):
    good = write(tmp_path / "a-good.jsonl", [match(match="good"), frame(), stroke(1)])
    bad = write(tmp_path / "b-bad.jsonl", [match(match="bad"), frame(), stroke(1, potted=["purple"])])
    also_good = write(tmp_path / "c-good.jsonl", [match(match="fine"), frame(), stroke(1)])
    db = tmp_path / "db.duckdb"
    result = cli("ingest", good, bad, also_good, "--db", db, "--json")
    assert result.exit_code == 2
    statuses = [(f["path"], f["status"]) for f in json.loads(result.stdout)["files"]]
    assert statuses == [(str(good), "loaded"), (str(bad), "rejected"), (str(also_good), "loaded")]
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT list(match_id ORDER BY match_id) FROM matches").fetchone() == (["fine", "good"],)
    con.close()


@pytest.mark.large
def test_fifty_megabytes_with_one_bad_last_line_is_rejected_and_changes_nothing(loaded_db, tmp_path):
    path = tmp_path / "big.jsonl"
    last = write_big_log(path, 50_000_000, bad_last_line='{"type": "stroke", "frame": 1, "n": 10')
    assert path.stat().st_size > 50_000_000
    before = snapshot(loaded_db)
    result = cli("ingest", path, "--db", loaded_db, "--json")
    assert result.exit_code == 2
    [f] = json.loads(result.stdout)["files"]
    assert [(p["file"], p["line"], p["code"]) for p in f["problems"]] == [(str(path), last, "invalid_json")]
    assert snapshot(loaded_db) == before


def test_same_file_twice_changes_nothing(loaded_db):
    before = snapshot(loaded_db)
    result = cli("ingest", EXAMPLES, "--db", loaded_db, "--json")
    assert result.exit_code == 0
    assert {f["status"] for f in json.loads(result.stdout)["files"]} == {"unchanged"}
    assert snapshot(loaded_db) == before


def test_same_bytes_under_another_name_are_the_same_file(loaded_db, tmp_path):
    copy = tmp_path / "renamed.jsonl"
    copy.write_bytes(EXAMPLE_FILES[0].read_bytes())
    before = snapshot(loaded_db)
    result = cli("ingest", copy, "--db", loaded_db, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["files"][0]["status"] == "unchanged"
    assert snapshot(loaded_db) == before


def test_a_different_file_for_a_loaded_match_is_refused(tmp_path):
    db = tmp_path / "db.duckdb"
    first = write(tmp_path / "first.jsonl", [match(), frame(), stroke(1), stroke(2)])
    second = write(tmp_path / "second.jsonl", [match(event="Corrected"), frame(), stroke(1)])
    assert cli("ingest", first, "--db", db).exit_code == 0
    before = snapshot(db)
    result = cli("ingest", second, "--db", db, "--json")
    assert result.exit_code == 2
    [problem] = json.loads(result.stdout)["files"][0]["problems"]
    assert (problem["file"], problem["line"], problem["field"], problem["code"]) == (
        str(second),
        1,
        "match",
        "match_exists",
    )
    assert str(first) in problem["found"] and "--replace" in problem["expected"]
    assert snapshot(db) == before


def test_replace_swaps_the_match_rows_and_leaves_others_alone(loaded_db, tmp_path):
    first = write(tmp_path / "first.jsonl", [match(), frame(), stroke(1), stroke(2), stroke(3)])
    second = write(tmp_path / "second.jsonl", [match(event="Corrected"), frame(), stroke(1, striker="B")])
    assert cli("ingest", first, "--db", loaded_db).exit_code == 0
    others_before = {t: rows for t, rows in snapshot(loaded_db).items() if t != "ingest_log"}
    result = cli("ingest", second, "--db", loaded_db, "--replace")
    assert result.exit_code == 0, result.stderr
    con = duckdb.connect(str(loaded_db), read_only=True)
    assert con.execute("SELECT event, file_hash FROM matches WHERE match_id = 't-1'").fetchone()[0] == "Corrected"
    assert con.execute("SELECT list(striker ORDER BY n) FROM strokes WHERE match_id = 't-1'").fetchone() == (["B"],)
    assert con.execute("SELECT count(*) FROM records WHERE match_id = 't-1'").fetchone() == (3,)
    paths = [r[0] for r in con.execute("SELECT path FROM ingest_log ORDER BY path").fetchall()]
    con.close()
    assert str(second) in paths and str(first) not in paths
    # The other matches are untouched.
    after = snapshot(loaded_db)
    for table, rows in others_before.items():
        assert [r for r in after[table] if "t-1" not in r] == [r for r in rows if "t-1" not in r], table
    # The replaced file is now a different claim on the id again.
    assert cli("ingest", first, "--db", loaded_db).exit_code == 2


def test_progress_never_pollutes_json_and_the_cli_runs_as_a_module(tmp_path):
    db = tmp_path / "db.duckdb"
    out = subprocess.run(
        [sys.executable, "-m", "cuelog", "ingest", str(EXAMPLES), "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["ok"] is True and len(doc["files"]) == 3


def test_default_database_is_cuelog_duckdb_in_the_working_directory(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "cuelog", "ingest", str(EXAMPLE_FILES[0])],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "cuelog.duckdb").is_file()


def test_a_file_that_is_not_a_database_is_a_usage_error(tmp_path):
    db = tmp_path / "not.duckdb"
    db.write_text("hello")
    result = cli("ingest", EXAMPLES, "--db", db)
    assert result.exit_code == 2
    assert "cannot open database" in result.stderr


def test_a_gzipped_copy_is_the_same_content(loaded_db, tmp_path):
    """The content hash is taken over the decompressed bytes: compressing a log does not make it new."""
    packed = tmp_path / "same.jsonl.gz"
    packed.write_bytes(gzip.compress(EXAMPLE_FILES[1].read_bytes()))
    before = snapshot(loaded_db)
    result = cli("ingest", packed, "--db", loaded_db, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["files"][0]["status"] == "unchanged"
    assert snapshot(loaded_db) == before


def test_progress_is_reported_for_every_byte_of_both_passes(tmp_path):
    """The progress bar's total is twice the bytes of the plain logs: one pass checks, one loads."""
    from cuelog.ingest.load import ingest_paths

    seen: list[int] = []
    con = connect(tmp_path / "db.duckdb")
    try:
        ingest_paths(con, [EXAMPLES], progress=seen.append)
        assert sum(seen) == 2 * sum(p.stat().st_size for p in EXAMPLE_FILES)
        seen.clear()
        ingest_paths(con, [EXAMPLES], progress=seen.append)  # unchanged files complete the bar at once
        assert sum(seen) == 2 * sum(p.stat().st_size for p in EXAMPLE_FILES)
    finally:
        con.close()
