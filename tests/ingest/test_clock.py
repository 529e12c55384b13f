"""Shot-clock device logs (docs/format.md section 5): pairing, pauses, resets, strays, as-of alignment."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import duckdb
import pytest

from cuelog.ingest import clock
from cuelog.ingest.clock import ingest_clocks
from cuelog.store import connect
from tests.ingest.conftest import cli, frame, match, snapshot, stroke, write

T = "2026-05-01T14:{}Z"

# Strokes on table 7: the clock's stops are matched to these times.
STROKE_TIMES = {1: "00:10.000", 2: "00:40.000", 3: "01:30.000", 4: "02:00.000"}

DEVICE_LOG = """table,ts,event
8,2026-05-01T14:00:05.000Z,start
8,2026-05-01T14:00:06.000Z,stop
7,2026-05-01T14:00:01.000Z,start
7,2026-05-01T14:00:10.200Z,stop
7,2026-05-01T14:00:12.000Z,start
7,2026-05-01T14:00:20.000Z,pause
7,2026-05-01T14:00:30.000Z,resume
7,2026-05-01T14:00:39.500Z,stop
7,2026-05-01T14:00:45.000Z,start
7,2026-05-01T14:00:50.000Z,reset
7,2026-05-01T14:01:00.000Z,start
7,2026-05-01T14:01:15.000Z,expire
7,2026-05-01T14:01:20.000Z,pause
7,2026-05-01T14:01:31.000Z,stop
7,2026-05-01T14:01:50.000Z,stop
7,2026-05-01T14:01:52.000Z,start
7,2026-05-01T14:01:58.500Z,stop
"""


@pytest.fixture
def log(tmp_path: Path) -> Path:
    strokes = [stroke(n, striker="AB"[n % 2], t=T.format(ts)) for n, ts in STROKE_TIMES.items()]
    return write(tmp_path / "m.jsonl", [match(table="7"), frame(), *strokes])


@pytest.fixture
def device(tmp_path: Path) -> Path:
    path = tmp_path / "table7.csv"
    path.write_text(DEVICE_LOG)
    return path


def _shots(db: Path) -> list[tuple[int, float, float, float | None]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT n, shot_s, paused_s, limit_s FROM shot_clock ORDER BY n").fetchall()
    finally:
        con.close()


def test_device_log_is_paired_and_aligned_to_strokes(log, device, tmp_path):
    db = tmp_path / "db.duckdb"
    result = cli("ingest", log, "--db", db, "--clock", device, "--json")
    assert result.exit_code == 0, result.stderr
    assert _shots(db) == [
        (1, pytest.approx(9.2), 0.0, None),  # start 14:00:01, stop 14:00:10.2
        (2, pytest.approx(17.5), 10.0, None),  # 27.5 s on the clock less a 10 s pause
        (3, 20.0, 11.0, 15.0),  # expired after 15 s; stopped while paused (11 s pause)
        (4, 6.5, 0.0, None),  # stop 1.5 s before the stroke: within the default 2 s
    ]
    [clock] = json.loads(result.stdout)["clocks"]
    assert (clock["status"], clock["rows"], clock["shots"], clock["aligned"]) == ("loaded", 17, 5, 4)
    assert clock["unplaced"] == 3
    assert clock["unplaced_by_reason"] == {"no_stroke": 1, "reset": 1, "stop_without_start": 1}
    assert [(u["line"], u["event"], u["reason"]) for u in clock["first_unplaced"]] == [
        (3, "stop", "no_stroke"),  # table 8 has no match loaded
        (10, "start", "reset"),  # the shot the reset abandoned
        (16, "stop", "stop_without_start"),  # the stray stop
    ]


def test_unplaced_rows_are_reported_on_stderr_without_failing(log, device, tmp_path):
    result = cli("ingest", log, "--db", tmp_path / "db.duckdb", "--clock", device)
    assert result.exit_code == 0
    err = " ".join(result.stderr.split())
    assert "3 row(s) placed on no stroke (no_stroke 1, reset 1, stop_without_start 1)" in err
    assert "line 16 stop 2026-05-01T14:01:50.000Z (stop_without_start)" in err


def test_tolerance_decides_what_is_near_enough(log, device, tmp_path):
    db = tmp_path / "db.duckdb"
    result = cli("ingest", log, "--db", db, "--clock", device, "--clock-tolerance", "1", "--json")
    assert result.exit_code == 0
    assert [row[0] for row in _shots(db)] == [1, 2, 3]  # the stop 1.5 s from stroke 4 is too far now
    [clock] = json.loads(result.stdout)["clocks"]
    assert (18, "stop", "no_stroke") in [(u["line"], u["event"], u["reason"]) for u in clock["first_unplaced"]]


def test_loading_the_same_device_log_twice_changes_nothing(log, device, tmp_path):
    db = tmp_path / "db.duckdb"
    assert cli("ingest", log, "--db", db, "--clock", device).exit_code == 0
    before = snapshot(db)
    assert cli("ingest", log, "--db", db, "--clock", device).exit_code == 0
    assert snapshot(db) == before


def test_device_log_loaded_before_its_strokes_aligns_when_they_arrive(log, device, tmp_path):
    db = tmp_path / "db.duckdb"
    empty = cli("ingest", log.parent / "none", "--db", db, "--clock", device, "--json")
    assert json.loads(empty.stdout)["clocks"][0]["aligned"] == 0
    assert cli("ingest", log, "--db", db, "--clock", device).exit_code == 0
    assert len(_shots(db)) == 4


@pytest.mark.parametrize(
    ("row", "field", "code"),
    [
        ("7,2026-05-01T14:03:00Z,launch", "event", "unknown_event"),
        ("7,14:03:00,stop", "ts", "bad_time"),
        ("7,2026-05-01T14:03:00Z", "", "bad_csv"),
        (",2026-05-01T14:03:00Z,stop", "table", "missing_field"),
    ],
)
def test_malformed_row_is_a_problem_with_file_and_line_and_nothing_is_stored(log, device, tmp_path, row, field, code):
    db = tmp_path / "db.duckdb"
    assert cli("ingest", log, "--db", db).exit_code == 0
    before = snapshot(db)
    device.write_text(DEVICE_LOG + row + "\n")
    result = cli("ingest", log, "--db", db, "--clock", device, "--json")
    assert result.exit_code == 2
    [clock] = json.loads(result.stdout)["clocks"]
    assert clock["status"] == "rejected"
    assert [(p["file"], p["line"], p["field"], p["code"]) for p in clock["problems"]] == [
        (str(device), 19, field, code)
    ]
    assert snapshot(db) == before


def test_csv_without_the_header_is_rejected(log, tmp_path):
    device = tmp_path / "noheader.csv"
    device.write_text("7,2026-05-01T14:00:01.000Z,start\n")
    result = cli("ingest", log, "--db", tmp_path / "db.duckdb", "--clock", device, "--json")
    assert result.exit_code == 2
    [problem] = json.loads(result.stdout)["clocks"][0]["problems"]
    assert (problem["line"], problem["code"]) == (1, "bad_header")


def test_aligned_clock_records_in_the_log_are_stored_as_shots(tmp_path):
    log = write(
        tmp_path / "c.jsonl",
        [
            match(),
            frame(),
            stroke(1),
            {"type": "clock", "frame": 1, "n": 1, "limit_s": 15, "elapsed_s": 9.4, "paused_s": 1.5},
        ],
    )
    db = tmp_path / "db.duckdb"
    assert cli("ingest", log, "--db", db).exit_code == 0
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT match_id, frame, n, shot_s, paused_s, limit_s, source FROM shot_clock").fetchall()
    con.close()
    assert rows == [("t-1", 1, 1, 9.4, 1.5, 15.0, "record")]


def test_a_stop_equally_near_two_strokes_goes_to_the_later_and_a_taken_stroke_is_reported(tmp_path):
    """As-of alignment (docs/format.md section 5): the nearest stroke; between two equally near,
    the later (the stroke it can have started); a second stop nearest the same stroke is
    reported ``stroke_taken``, never silently dropped."""
    strokes = [stroke(1, t=T.format("00:10.000")), stroke(2, striker="B", t=T.format("00:12.000"))]
    log = write(tmp_path / "m.jsonl", [match(table="7"), frame(), *strokes])
    device = tmp_path / "table7.csv"
    device.write_text(
        "table,ts,event\n"
        "7,2026-05-01T14:00:05.000Z,start\n"
        "7,2026-05-01T14:00:11.000Z,stop\n"  # 1 s from stroke 1 and from stroke 2
        "7,2026-05-01T14:00:11.200Z,start\n"
        "7,2026-05-01T14:00:11.500Z,stop\n"  # nearer to stroke 2 still: takes it
    )
    db = tmp_path / "db.duckdb"
    result = cli("ingest", log, "--db", db, "--clock", device, "--json")
    assert result.exit_code == 0, result.stderr
    clock = json.loads(result.stdout)["clocks"][0]
    assert (clock["shots"], clock["aligned"], clock["unplaced"]) == (2, 1, 1)
    assert [(u["line"], u["reason"]) for u in clock["first_unplaced"]] == [(3, "stroke_taken")]
    assert [(n, round(s, 3)) for n, s, _, _ in _shots(db)] == [(2, 0.3)]


def test_device_logs_stored_together_leave_the_rows_of_storing_them_one_by_one(log, device, tmp_path, monkeypatch):
    # The first log comes twice under two names, and a third reads strokes 1 and 2 again (the
    # later reading replaces the earlier, as when the logs are loaded one by one): in one
    # batch, in one run of a batch a log (a later batch replaces an earlier one's readings),
    # and in a run a log.
    later = tmp_path / "later.csv"
    later.write_text(DEVICE_LOG.replace("14:00:10.200Z", "14:00:10.100Z").replace("14:00:39.500Z", "14:00:39.900Z"))
    again = tmp_path / "again.csv"
    again.write_text(DEVICE_LOG)
    logs = [device, again, later]
    stores = {}
    for name, runs, pair_bytes in (
        ("together", [logs], clock.PAIR_BYTES),
        ("a batch a log", [logs], 1),
        ("one by one", [[p] for p in logs], clock.PAIR_BYTES),
    ):
        monkeypatch.setattr(clock, "PAIR_BYTES", pair_bytes)
        db = tmp_path / f"{name}.duckdb"
        assert cli("ingest", "--db", db, log).exit_code == 0
        con = connect(db)
        results = [r.to_dict() for run in runs for r in ingest_clocks(con, run)]
        shots = con.execute("SELECT * FROM shot_clock").fetchall()  # in stored order
        files = con.execute("SELECT file_hash, path, matches, records FROM ingest_log ORDER BY path").fetchall()
        con.close()
        stores[name] = (results, shots, files)
    assert stores["together"] == stores["a batch a log"] == stores["one by one"]
    results, shots, files = stores["together"]
    assert [r["status"] for r in results] == ["loaded"] * 3
    assert [(n, s) for _, _, n, s, *_ in shots if n in (1, 2)] == [(1, 9.1), (2, 17.9)]  # the later log's
    assert [path for _, path, _, _ in files] == sorted([str(log), str(device), str(later)])  # same bytes: one entry


def test_the_next_batch_is_aligned_while_the_one_before_is_stored(log, device, tmp_path, monkeypatch):
    """The alignment only reads the loaded strokes: a thread aligns batch k+1 on a cursor of
    its own while batch k is stored, and the batches are still stored one by one, in order."""
    logs = []
    for i in range(3):
        logs.append(tmp_path / f"device-{i}.csv")
        logs[-1].write_text(device.read_text())
    monkeypatch.setattr(clock, "PAIR_BYTES", 1)  # a batch a log
    aligning: list[threading.Event] = [threading.Event() for _ in logs]
    seen: list[tuple[str, str, str]] = []
    real_aligned, real_store = clock._aligned, clock._store_all

    def aligned(cursor: Any, batch: clock.PairedBatch, tolerance_us: int) -> Any:
        path = Path(batch.found[0].name)
        seen.append(("align", path.name, threading.current_thread().name))
        aligning[logs.index(path)].set()
        return real_aligned(cursor, batch, tolerance_us)

    def store(con: Any, found: list[clock.Found], placed: Any, held: set[str]) -> Any:
        path = Path(found[0].name)
        k = logs.index(path)
        if k + 1 < len(logs):
            assert aligning[k + 1].wait(30), "the next batch was not aligned while this one was stored"
        seen.append(("store", path.name, threading.current_thread().name))
        return real_store(con, found, placed, held)

    monkeypatch.setattr(clock, "_aligned", aligned)
    monkeypatch.setattr(clock, "_store_all", store)
    db = tmp_path / "db.duckdb"
    assert cli("ingest", "--db", db, log).exit_code == 0
    con = connect(db)
    results = ingest_clocks(con, logs)
    con.close()
    assert [r.status for r in results] == ["loaded"] * 3
    assert [n for kind, n, _ in seen if kind == "store"] == [p.name for p in logs]
    assert {t.split("_")[0] for kind, _, t in seen if kind == "align"} == {"cuelog-clock-align"}
    assert {t for kind, _, t in seen if kind == "store"} == {threading.current_thread().name}
