"""Logs checked by worker processes load exactly as when the loading process checks them.

``cuelog ingest --workers N`` hands the small logs to N real worker processes (spawned) in
batches, in order; the loading process decides each file's fate from what they found. The
files' results (statuses, problems with their lines and codes) and every stored row must
be the same for any N, with files of every kind in one run.
"""

from __future__ import annotations

import gzip
import json
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from cuelog.ingest import load, parallel, rows
from cuelog.ingest import workers as how_many
from cuelog.ingest.reader import log_files
from cuelog.store import connect
from tests.ingest.conftest import cli, frame, match, snapshot, stroke, write


def _mixed_run(folder: Path) -> Path:
    """One-match logs with every kind of file a run can meet, in sorted order: clean logs,
    a log with problems, the same bytes twice, a second claim on one match id, a gzipped
    log and one that is not a log at all."""
    logs = folder / "logs"
    logs.mkdir()
    for i in range(24):
        strokes = [stroke(k, striker="AB"[k % 2]) for k in range(1, 3 + i % 7)]
        clock = [{"type": "clock", "frame": 1, "n": 1, "elapsed_s": 12.5 + i}] if i % 4 == 0 else []
        write(logs / f"m-{i:03d}.jsonl", [match(match=f"m-{i:03d}"), frame(), *strokes, *clock])
    # A file between each and its copy or second claim: the first is being published by then.
    write(logs / "m-005y.jsonl", [match(match="m-005y"), frame(), stroke(1), stroke(2, striker="B")])
    write(logs / "m-007y.jsonl", [match(match="m-007y"), frame(), stroke(1), stroke(2, striker="B")])
    write(logs / "m-010y.jsonl", [match(match="m-010y"), frame(), stroke(1), stroke(2, striker="B")])
    write(logs / "m-005z-copy.jsonl", [match(match="m-005"), frame(), stroke(1), stroke(2, striker="B")])
    (logs / "m-005z-copy.jsonl").write_bytes((logs / "m-005.jsonl").read_bytes())
    write(logs / "m-007z-again.jsonl", [match(match="m-007", event="Again"), frame(), stroke(1)])
    write(logs / "m-010z-bad.jsonl", [match(match="m-010"), frame(), stroke(1), stroke(3), "{not json"])
    with gzip.open(logs / "m-020-zipped.jsonl.gz", "wt", encoding="utf-8") as fh:
        fh.write("\n".join(json.dumps(r) for r in [match(match="m-zip"), frame(), stroke(1)]) + "\n")
    (logs / "m-030-notes.jsonl").write_text("not a log\n", encoding="utf-8")
    return logs


def _run(logs: Path, db: Path, workers: int) -> list[dict[str, Any]]:
    result = cli("ingest", logs, "--db", db, "--json", "--workers", str(workers))
    assert result.exit_code == 2, result.stderr  # the bad, the second claim and the notes are refused
    return [{k: v for k, v in f.items()} for f in json.loads(result.stdout)["files"]]


def _stored(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    snap = snapshot(db)
    snap["ingest_log"] = [row[:4] for row in snap["ingest_log"]]  # not the load times
    return snap


def test_two_workers_give_the_results_and_rows_of_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small windows and batches, so that files cross window, batch and group boundaries."""
    logs = _mixed_run(tmp_path)
    monkeypatch.setattr(load, "WINDOW_BYTES", 700)
    monkeypatch.setattr(parallel, "BATCH_BYTES", 300)
    monkeypatch.setattr(load, "GROUP_RECORDS", 25)
    monkeypatch.setattr(rows, "CHUNK", 9)
    alone = _run(logs, tmp_path / "one.duckdb", 1)
    with_workers = _run(logs, tmp_path / "two.duckdb", 2)
    assert with_workers == alone
    statuses = {Path(f["path"]).name: (f["status"], [(p["line"], p["code"]) for p in f["problems"]]) for f in alone}
    assert statuses["m-005z-copy.jsonl"] == ("unchanged", [])
    assert statuses["m-007z-again.jsonl"] == ("rejected", [(1, "match_exists")])
    bad = statuses["m-010z-bad.jsonl"]
    assert bad[0] == "rejected" and {(1, "match_exists"), (5, "invalid_json")} <= set(bad[1])
    assert statuses["m-020-zipped.jsonl.gz"] == ("loaded", [])
    assert sum(status == "loaded" for status, _ in statuses.values()) == 28
    assert _stored(tmp_path / "two.duckdb") == _stored(tmp_path / "one.duckdb")


def test_a_batch_made_columns_a_few_logs_at_a_time_gives_each_log_its_own_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker turns its batch's rows into Arrow columns every few records (``rows.CHUNK``),
    so a batch's tables are several chunks; each log still gets the rows, and the counts,
    that it gives read on its own."""
    logs = sorted((_mixed_run(tmp_path)).glob("m-0[0-1]?.jsonl"))
    batch = [(str(path), path.read_bytes()) for path in logs]
    monkeypatch.setattr(rows, "CHUNK", 5)
    checked = parallel.check_batch(batch)
    assert len(checked.tables["records"].to_batches()) > 3
    read_back = parallel.with_rows(checked)
    assert len(read_back) == len(batch) == 20
    for (name, data), read in zip(batch, read_back, strict=True):
        own = load.read_small(name, data, None)
        alone = own.batch.arrow()
        assert read.tables is not None and read.records == own.records > 0
        assert {t: read.tables[t].num_rows for t in alone} == {t: alone[t].num_rows for t in alone}
        assert all(read.tables[t].equals(alone[t]) for t in alone), name


@pytest.mark.parametrize("workers", [1, 2])
def test_groups_published_while_the_next_files_are_decided_load_each_file_as_on_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """Groups of a few records, so that a group is nearly always being published (by its
    own thread) when the next file is decided: the copy of a file in it, a second claim on
    one of its matches, a bad file and a gzipped one are each decided as when every file is
    loaded on its own, one after another."""
    logs = _mixed_run(tmp_path)
    con = connect(tmp_path / "alone.duckdb")
    alone = [load.ingest_file(con, f).to_dict() for f in log_files([logs])]
    con.close()
    monkeypatch.setattr(load, "GROUP_RECORDS", 4)
    monkeypatch.setattr(load, "WINDOW_BYTES", 900)
    assert _run(logs, tmp_path / "grouped.duckdb", workers) == alone
    assert _stored(tmp_path / "grouped.duckdb") == _stored(tmp_path / "alone.duckdb")


def test_a_second_run_with_workers_finds_every_file_unchanged(tmp_path: Path) -> None:
    logs = _mixed_run(tmp_path)
    db = tmp_path / "db.duckdb"
    first = _run(logs, db, 2)
    before = _stored(db)
    again = _run(logs, db, 2)
    assert [f["status"] for f in again] == [
        "unchanged" if f["status"] in ("loaded", "unchanged") else "rejected" for f in first
    ]
    assert _stored(db) == before


def test_a_worker_that_dies_leaves_its_logs_to_the_loading_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A broken pool (a worker killed, say for memory) loses nothing: the loading process
    reads the logs the workers did not."""
    logs = _mixed_run(tmp_path)

    def broken(self: parallel.Checker, batch: list[tuple[str, bytes]]) -> Future[parallel.Checked]:
        failed: Future[parallel.Checked] = Future()
        failed.set_exception(BrokenProcessPool("a worker died"))
        return failed

    monkeypatch.setattr(parallel.Checker, "_submit", broken)
    con = connect(tmp_path / "broken.duckdb")
    results = load.ingest_paths(con, [logs], workers=2)
    con.close()
    assert [r.to_dict() for r in results] == _run(logs, tmp_path / "one.duckdb", 1)
    assert _stored(tmp_path / "broken.duckdb") == _stored(tmp_path / "one.duckdb")


def test_the_default_is_one_process_for_small_runs_and_busy_machines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = _mixed_run(tmp_path)
    files = sorted(logs.iterdir())
    # What the logs hold (the gzipped one counts its content).
    size = sum(len(gzip.decompress(f.read_bytes())) if f.suffix == ".gz" else f.stat().st_size for f in files)
    assert how_many.default_workers(files, cores=2, load=0.0) == 1  # a few KB: workers cost more
    monkeypatch.setattr(how_many, "PARALLEL_BYTES", size)
    assert how_many.default_workers(files, cores=2, load=0.0) == 2
    assert how_many.default_workers(files, cores=4, load=1.2) == 3
    assert how_many.default_workers(files, cores=2, load=1.0) == 1  # one core held by other work
    monkeypatch.setattr(how_many, "PARALLEL_BYTES", size + 1)
    assert how_many.default_workers(files, cores=2, load=0.0) == 1


def test_three_large_logs_are_worth_the_workers_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large log is a second or more of a worker's work: three of them take the workers
    on an idle machine whatever their total; a gzipped log counts what it holds."""
    monkeypatch.setattr(how_many, "FAST_CHECK_BYTES", 1000)
    logs = tmp_path / "logs"
    logs.mkdir()
    day = [match(match="d"), frame(), *(stroke(n, striker="AB"[n % 2]) for n in range(1, 30))]
    for name in ("a", "b"):
        write(logs / f"{name}.jsonl", day)
    files = sorted(logs.iterdir())
    assert how_many.default_workers(files, cores=2, load=0.0) == 1  # two large logs: not enough
    with gzip.open(logs / "c.jsonl.gz", "wt", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in day))
    assert (logs / "c.jsonl.gz").stat().st_size < 1000  # small as a file, large in what it holds
    files = sorted(logs.iterdir())
    assert how_many.default_workers(files, cores=2, load=0.0) == 2
    assert how_many.default_workers(files, cores=2, load=1.0) == 1  # one core held by other work


def test_workers_must_be_at_least_one(tmp_path: Path) -> None:
    logs = _mixed_run(tmp_path)
    result = cli("ingest", logs, "--db", tmp_path / "db.duckdb", "--workers", "0")
    assert result.exit_code == 2
    assert "Invalid value for '--workers': 0 is not in the range x>=1." in result.stderr


def _batch(tag: str, n: int) -> dict[str, Any]:
    import pyarrow as pa

    return {
        "records": pa.table({"id": [f"{tag}{i}" for i in range(n)]}),
        "strokes": pa.table({"id": [f"{tag}s{i}" for i in range(n // 2)]}),
    }


def test_a_files_rows_are_ranges_of_its_batch_joined_again_in_file_order() -> None:
    """A worker's batch comes back as one table per store table; each file's rows are a
    range of it, and the files published together are joined again in file order, whether
    they follow one another in a batch, a file between them was left out, or they come
    from two batches and from rows built in this process."""
    import pyarrow as pa

    from cuelog.ingest.reading import FileRead
    from cuelog.store.arrow import Ranges, joined

    one, two = _batch("a", 12), _batch("b", 6)
    checked = parallel.Checked(
        [(FileRead(), {"records": 4, "strokes": 2}) for _ in range(3)],
        one,
    )
    files = parallel.with_rows(checked)
    assert [f.tables["records"].column("id").to_pylist() for f in files if f.tables] == [
        ["a0", "a1", "a2", "a3"],
        ["a4", "a5", "a6", "a7"],
        ["a8", "a9", "a10", "a11"],
    ]
    first, second, third = (f.tables for f in files)
    assert first is not None and second is not None and third is not None
    other = Ranges(two, {"records": 2, "strokes": 1}, {"records": 3, "strokes": 2})
    built = {"records": pa.table({"id": ["c0"]}), "strokes": pa.table({"id": pa.array([], pa.string())})}

    def ids(parts: list[Any], table: str) -> list[str] | None:
        got = joined(parts, table)
        if got is None:
            return None
        assert got.column("id").num_chunks == 1  # one chunk: DuckDB scans it at once
        return got.column("id").to_pylist()

    assert ids([first, second, third], "records") == [f"a{i}" for i in range(12)]
    assert ids([first, third], "records") == ["a0", "a1", "a2", "a3", "a8", "a9", "a10", "a11"]
    assert ids([third, first], "records") == ["a8", "a9", "a10", "a11", "a0", "a1", "a2", "a3"]
    assert ids([first, other, second, built], "records") == [
        "a0",
        "a1",
        "a2",
        "a3",
        "b2",
        "b3",
        "b4",
        "a4",
        "a5",
        "a6",
        "a7",
        "c0",
    ]
    assert ids([second, other, built], "strokes") == ["as2", "as3", "bs1", "bs2"]
    assert ids([built], "strokes") is None and ids([], "records") is None


def test_a_workers_batch_crosses_to_the_loading_process_unchanged(tmp_path: Path) -> None:
    """A batch a worker checked reaches the loading process with every row of every table,
    in its schema (sent as Arrow IPC), and each log's read: its records, claims and
    problems with their lines."""
    import pickle

    logs = _mixed_run(tmp_path)
    small = [(str(p), p.read_bytes()) for p in sorted(logs.iterdir()) if p.suffix == ".jsonl"]
    checked = parallel.check_batch(small)
    assert checked.tables["records"].num_rows > 0 and checked.tables["strokes"].num_rows > 0

    back = pickle.loads(pickle.dumps(checked))

    assert back.tables.keys() == checked.tables.keys()
    for name, table in checked.tables.items():
        assert back.tables[name].schema == table.schema, name
        assert back.tables[name].equals(table), name
    assert [(r.records, r.claims, r.problems, counts) for r, counts in back.reads] == [
        (r.records, r.claims, r.problems, counts) for r, counts in checked.reads
    ]
    assert any(r.problems for r, _ in back.reads)  # the bad log's problems came too


def test_records_joined_in_file_order_keep_each_matchs_runs_and_rows_in_order() -> None:
    """Joined in match id and file order (as a group's records are published), the rows of
    every part go in match id order (byte order, as DuckDB orders text); a match in two runs
    keeps the first run first, and each run its rows; still one chunk."""
    import pyarrow as pa

    from cuelog.store.arrow import joined
    from cuelog.store.reads import in_file_order

    def part(*rows: tuple[str, int]) -> dict[str, pa.Table]:
        return {
            "records": pa.table({"match_id": [m for m, _ in rows], "seq": pa.array([s for _, s in rows], pa.int32())})
        }

    parts = [part(("m-b", 0), ("m-b", 1), ("M-z", 0)), part(("m-a", 0), ("m-b", 2)), part(("m-á", 0), ("m-a", 1))]
    got = joined(parts, "records", ordered=in_file_order)
    assert got is not None and got.column("match_id").num_chunks == 1
    assert list(zip(got.column("match_id").to_pylist(), got.column("seq").to_pylist(), strict=True)) == [
        ("M-z", 0),
        ("m-a", 0),
        ("m-a", 1),
        ("m-b", 0),
        ("m-b", 1),
        ("m-b", 2),
        ("m-á", 0),
    ]
    unsorted = joined(parts, "records")
    assert unsorted is not None and unsorted.column("match_id").to_pylist()[:3] == ["m-b", "m-b", "M-z"]
