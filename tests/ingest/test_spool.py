"""A large log's rows are spooled to disk while it is read, and published from there.

A log too large to hold (``load.ON_ITS_OWN_BYTES``, made small here) or gzipped is read a
batch at a time (``reading.BATCH``, made small here so that a log spans many batches); its
rows go to Arrow IPC files in a temporary folder and are published in one transaction
(cuelog.ingest.spool). With ``--workers`` a worker reads such a log and spools it; the
loading process publishes it. Either way a log loads exactly the rows it would load were it
small, all or nothing, and no spool file outlives the run. (And a day-log's line in the
summary names a few of its matches, not all.)
"""

from __future__ import annotations

import gc
import gzip
import json
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import duckdb
import pytest

from cuelog.ingest import clean, files, load, parallel, reading, spool
from cuelog.ingest.spool import Spooled, SpoolFailed
from cuelog.store import connect
from tests.ingest.conftest import cli, frame, match, snapshot, stroke, write


def _day(match_ids: list[str], bad_in: str | None = None) -> list[dict[str, Any] | str]:
    """A day's log: several matches, each a frame of three to seven strokes and a shot-clock
    record; ``bad_in``: that match's third stroke skips a number (after many clean rows)."""
    out: list[dict[str, Any] | str] = []
    for k, match_id in enumerate(match_ids):
        numbers = list(range(1, 4 + k % 5))
        if match_id == bad_in:
            numbers = [n + (n >= 3) for n in numbers]
        out += [match(match=match_id), frame(), *(stroke(n, striker="AB"[n % 2]) for n in numbers)]
        out.append({"type": "clock", "frame": 1, "n": 1, "elapsed_s": 10.5 + k})
    return out


def _line_of(path: Path, text: str) -> int:
    """The number of the first line of a log holding ``text``."""
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def _large_run(folder: Path) -> Path:
    """Day-logs (each large here) between one-match logs, in sorted order: clean ones, a
    gzipped one, one with a problem after many clean batches, the same bytes twice, and a
    second claim on a match an earlier day-log holds."""
    logs = folder / "logs"
    logs.mkdir()
    write(logs / "a-day-1.jsonl", _day([f"d1-{i}" for i in range(12)]))
    write(logs / "b-single.jsonl", [match(match="s-1"), frame(), stroke(1), stroke(2, striker="B")])
    write(logs / "c-day-2.jsonl", _day([f"d2-{i}" for i in range(9)]))
    with gzip.open(logs / "d-day-3.jsonl.gz", "wt", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in _day([f"d3-{i}" for i in range(7)])))
    write(logs / "e-day-4-bad.jsonl", _day([f"d4-{i}" for i in range(10)], bad_in="d4-8"))
    (logs / "f-day-1-copy.jsonl").write_bytes((logs / "a-day-1.jsonl").read_bytes())
    write(logs / "g-day-5-again.jsonl", _day(["d5-0", "d2-3"]))
    write(logs / "h-single.jsonl", [match(match="s-2"), frame(), stroke(1)])
    return logs


@pytest.fixture
def spool_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder the databases are in, where the spools are made; logs over 2 KB are large."""
    monkeypatch.setattr(load, "ON_ITS_OWN_BYTES", 2048)
    monkeypatch.setattr(reading, "BATCH", 7)
    return tmp_path


def _spools(folder: Path) -> list[Path]:
    return sorted(folder.rglob(".cuelog-spool-*")) + sorted(folder.rglob("*.arrows"))


def _run(logs: Path, db: Path, workers: int) -> list[dict[str, Any]]:
    result = cli("ingest", logs, "--db", db, "--json", "--workers", str(workers))
    assert result.exit_code == 2, result.stderr  # the bad day and the second claim are refused
    return list(json.loads(result.stdout)["files"])


def _stored(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    snap = snapshot(db)
    snap["ingest_log"] = [row[:4] for row in snap["ingest_log"]]  # not the load times
    return snap


def _statuses(files: list[dict[str, Any]]) -> dict[str, tuple[str, list[tuple[int, str]]]]:
    return {Path(f["path"]).name: (f["status"], [(p["line"], p["code"]) for p in f["problems"]]) for f in files}


def test_a_spooled_day_log_loads_the_rows_it_loads_when_small(
    tmp_path: Path, spool_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same day's log, once large (spooled in batches of 7 records) and once small (held
    whole, published with its group): the same rows in every table."""
    logs = tmp_path / "one"
    logs.mkdir()
    write(logs / "day.jsonl", _day([f"d-{i}" for i in range(12)]))
    large = cli("ingest", logs, "--db", tmp_path / "large.duckdb", "--json")
    assert large.exit_code == 0, large.stderr
    assert json.loads(large.stdout)["files"][0]["records"] == sum(3 + 3 + k % 5 for k in range(12))
    monkeypatch.setattr(load, "ON_ITS_OWN_BYTES", 1 << 20)
    small = cli("ingest", logs, "--db", tmp_path / "small.duckdb", "--json")
    assert small.exit_code == 0, small.stderr
    assert _stored(tmp_path / "large.duckdb") == _stored(tmp_path / "small.duckdb")
    assert _spools(spool_dir) == []


@pytest.mark.parametrize("workers", [1, 2])
def test_day_logs_load_as_each_on_its_own_whoever_reads_them(tmp_path: Path, spool_dir: Path, workers: int) -> None:
    """Every file of the run gets the result it gets loaded alone, in order, and the store
    the same rows, whether the loading process or a worker reads the day-logs; the bad day
    is refused with its line (its clean batches spooled before the problem are dropped),
    the copy is unchanged, the second claim refused, and no spool file is left."""
    logs = _large_run(tmp_path)
    con = connect(tmp_path / "alone.duckdb")
    alone = [load.ingest_file(con, f).to_dict() for f in sorted(logs.iterdir())]
    con.close()
    run = _run(logs, tmp_path / "run.duckdb", workers)
    assert run == alone
    statuses = _statuses(run)
    bad_stroke = _line_of(logs / "e-day-4-bad.jsonl", '"d4-8"') + 4  # its match, frame, strokes 1 and 2
    assert statuses["e-day-4-bad.jsonl"] == ("rejected", [(bad_stroke, "n_gap")])
    assert statuses["f-day-1-copy.jsonl"] == ("unchanged", [])
    assert statuses["g-day-5-again.jsonl"][0] == "rejected"
    assert {code for _, code in statuses["g-day-5-again.jsonl"][1]} == {"match_exists"}
    assert [name for name, (status, _) in statuses.items() if status == "loaded"] == [
        "a-day-1.jsonl",
        "b-single.jsonl",
        "c-day-2.jsonl",
        "d-day-3.jsonl.gz",
        "h-single.jsonl",
    ]
    assert _stored(tmp_path / "run.duckdb") == _stored(tmp_path / "alone.duckdb")
    assert _spools(spool_dir) == []


@pytest.mark.parametrize("workers", [1, 2])
def test_a_day_log_the_fast_check_gives_up_on_late_is_loaded_once_by_the_detailed_check(
    tmp_path: Path, spool_dir: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """Its last match has Windows line ends, which the fast check leaves to the detailed one
    (valid all the same): by then rows of the first parts were spooled. They are dropped and
    the log read again: each row is loaded once, as from the same log held whole."""
    monkeypatch.setattr(clean, "PART_BYTES", 400)  # in this process (workers: their own parts)
    logs = tmp_path / "one"
    logs.mkdir()
    day = _day([f"d-{i}" for i in range(12)])
    text = "".join(json.dumps(r) + "\n" for r in day[:-8]) + "".join(json.dumps(r) + "\r\n" for r in day[-8:])
    (logs / "day.jsonl").write_bytes(text.encode())
    assert reading.read_large(logs / "day.jsonl", None) is None
    spooled = cli("ingest", logs, "--db", tmp_path / "spooled.duckdb", "--json", "--workers", str(workers))
    assert spooled.exit_code == 0, spooled.stderr
    monkeypatch.setattr(load, "ON_ITS_OWN_BYTES", 1 << 20)
    whole = cli("ingest", logs, "--db", tmp_path / "whole.duckdb", "--json")
    assert whole.exit_code == 0, whole.stderr
    assert json.loads(spooled.stdout)["files"][0]["records"] == len(day)
    assert _stored(tmp_path / "spooled.duckdb") == _stored(tmp_path / "whole.duckdb")
    assert _spools(spool_dir) == []


@pytest.mark.parametrize("failure", [BrokenProcessPool("a worker died"), SpoolFailed("the disk is full")])
def test_day_logs_a_worker_could_not_read_are_read_by_the_loading_process(
    tmp_path: Path, spool_dir: Path, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    logs = _large_run(tmp_path)
    one = _run(logs, tmp_path / "one.duckdb", 1)

    def broken(self: parallel.Checker, name: str, batch: int) -> Future[Spooled | None]:
        failed: Future[Spooled | None] = Future()
        failed.set_exception(failure)
        return failed

    monkeypatch.setattr(parallel.Checker, "submit_large", broken)
    con = connect(tmp_path / "broken.duckdb")
    results = load.ingest_paths(con, [logs], workers=2)
    con.close()
    assert [r.to_dict() for r in results] == one
    assert _stored(tmp_path / "broken.duckdb") == _stored(tmp_path / "one.duckdb")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_run_that_fails_while_publishing_leaves_no_spool_and_no_rows(
    tmp_path: Path, spool_dir: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    logs = tmp_path / "one"
    logs.mkdir()
    write(logs / "day.jsonl", _day([f"d-{i}" for i in range(12)]))
    con = connect(tmp_path / "db.duckdb")
    con.close()
    before = _stored(tmp_path / "db.duckdb")

    def failing(*args: object) -> None:
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(load.loads, "publish", failing)
    con = connect(tmp_path / "db.duckdb")
    with pytest.raises(RuntimeError):
        load.ingest_paths(con, [logs], workers=workers)
    con.close()
    assert _stored(tmp_path / "db.duckdb") == before
    assert _spools(spool_dir) == []


def test_staging_tables_an_older_interrupted_load_left_are_dropped_on_opening(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    con = connect(db)
    con.execute("CREATE TABLE cuelog_stage_records AS SELECT * FROM records LIMIT 0")
    con.execute("CREATE TABLE cuelog_stage_strokes AS SELECT * FROM strokes LIMIT 0")
    con.close()
    connect(db).close()
    con = duckdb.connect(str(db), read_only=True)
    tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    con.close()
    assert not {t for t in tables if t.startswith("cuelog_stage")} and {"records", "strokes"} <= tables


def test_rows_that_cannot_be_spooled_refuse_the_log_naming_why_and_change_nothing(
    tmp_path: Path, spool_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk too full for the spool is not the log's fault, nor a traceback: the log is
    refused (load_failed, exit code 2) and the store left as it was."""
    logs = tmp_path / "one"
    logs.mkdir()
    write(logs / "day.jsonl", _day([f"d-{i}" for i in range(12)]))
    connect(tmp_path / "db.duckdb").close()
    before = _stored(tmp_path / "db.duckdb")

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(spool.pa.ipc, "new_stream", full)
    result = cli("ingest", logs, "--db", tmp_path / "db.duckdb", "--json", "--workers", "1")
    assert result.exit_code == 2
    (problem,) = json.loads(result.stdout)["files"][0]["problems"]
    assert problem["code"] == "load_failed" and "No space left on device" in problem["found"]
    assert _stored(tmp_path / "db.duckdb") == before
    assert _spools(spool_dir) == []


def test_a_day_log_shows_its_first_matches_its_last_and_how_many(tmp_path: Path) -> None:
    """One plain line a file: a day's log of 12 matches does not print 12 ids (--json does)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    write(logs / "day.jsonl", _day([f"d-{i:02d}" for i in range(12)]))
    write(logs / "one.jsonl", _day(["s-1", "s-2"]))
    result = cli("ingest", logs, "--db", tmp_path / "db.duckdb")
    assert result.exit_code == 0, result.stderr
    (day,) = [line for line in result.stdout.splitlines() if "day.jsonl" in line]
    assert "d-00, d-01 ... d-11 (12 matches)" in day and "d-05" not in day
    (one,) = [line for line in result.stdout.splitlines() if "one.jsonl" in line]
    assert "s-1, s-2" in one
    listed = cli("ingest", logs, "--db", tmp_path / "again.duckdb", "--json")
    assert json.loads(listed.stdout)["files"][0]["matches"] == [f"d-{i:02d}" for i in range(12)]


@pytest.mark.parametrize("workers", [1, 2])
def test_the_progress_bar_counts_every_byte_of_day_logs_twice_whoever_reads_them(
    tmp_path: Path, spool_dir: Path, workers: int
) -> None:
    """The bar's total is twice the bytes of the plain logs (checked, then loaded): a
    day-log a worker read counts its bytes when the loading process publishes it, and a
    bad one's bytes are not counted twice when it is read again."""
    logs = tmp_path / "logs"
    logs.mkdir()
    write(logs / "a-day.jsonl", _day([f"a-{i}" for i in range(12)]))
    write(logs / "b-day-bad.jsonl", _day([f"b-{i}" for i in range(10)], bad_in="b-8"))
    write(logs / "c-day.jsonl", _day([f"c-{i}" for i in range(9)]))
    write(logs / "d-single.jsonl", [match(match="s-1"), frame(), stroke(1)])
    seen: list[int] = []
    con = connect(tmp_path / "db.duckdb")
    results = load.ingest_paths(con, [logs], progress=seen.append, workers=workers)
    con.close()
    assert [r.status for r in results] == ["loaded", "rejected", "loaded", "loaded"]
    assert sum(seen) == 2 * sum(p.stat().st_size for p in logs.iterdir())


@pytest.mark.parametrize("workers", [1, 2])
def test_a_corrected_day_log_replaces_its_matches_with_replace_whoever_reads_it(
    tmp_path: Path, spool_dir: Path, workers: int
) -> None:
    """The recorder sends the day again with one match's strokes corrected: refused without
    --replace (match_exists on every match), and with it the day's matches hold the new
    log's rows only."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    ids = [f"d-{i}" for i in range(12)]
    write(first / "day.jsonl", _day(ids))
    corrected = _day(ids)
    corrected[-3] = {**corrected[-3], "potted": ["red"], "score": [1, 0]}  # a stroke of the last match
    write(second / "day.jsonl", corrected)
    db = tmp_path / "db.duckdb"
    assert cli("ingest", first, "--db", db, "--workers", str(workers)).exit_code == 0
    refused = cli("ingest", second, "--db", db, "--json", "--workers", str(workers))
    assert refused.exit_code == 2
    assert {p["code"] for p in json.loads(refused.stdout)["files"][0]["problems"]} == {"match_exists"}
    replaced = cli("ingest", second, "--db", db, "--json", "--replace", "--workers", str(workers))
    assert replaced.exit_code == 0, replaced.stderr
    fresh = cli("ingest", second, "--db", tmp_path / "fresh.duckdb", "--json")
    assert fresh.exit_code == 0
    stored, only_second = _stored(db), _stored(tmp_path / "fresh.duckdb")
    for table in ("records", "strokes", "matches", "shot_clock"):
        assert stored[table] == only_second[table], table
    assert _spools(spool_dir) == []


def test_validate_and_a_log_loaded_on_its_own_read_with_the_collector_paused_and_give_it_back(
    tmp_path: Path, spool_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The collector walks every decoded record again and again while a log is read (0.6x
    the time without it): off while reading, back on after, whoever reads."""
    logs = tmp_path / "logs"
    logs.mkdir()
    write(logs / "day.jsonl", _day([f"d-{i}" for i in range(12)]))
    seen: list[bool] = []
    checks, reads = files.validate_file, load.read_large

    def checking(path: Path) -> list[Any]:
        seen.append(gc.isenabled())
        return checks(path)

    def reading_large(*args: Any) -> Any:
        seen.append(gc.isenabled())
        return reads(*args)

    monkeypatch.setattr(files, "validate_file", checking)
    monkeypatch.setattr(load, "read_large", reading_large)
    assert gc.isenabled()
    assert files.validate_paths([logs]) == []
    con = connect(tmp_path / "db.duckdb")
    assert load.ingest_file(con, logs / "day.jsonl").status == "loaded"
    con.close()
    assert seen == [False, False] and gc.isenabled()
