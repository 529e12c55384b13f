"""Many small files per transaction: each file is still loaded or refused exactly as on its own."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from cuelog.ingest import load, rows
from cuelog.store import connect, loads
from cuelog.store.loads import FileRows
from tests.ingest.conftest import cli, frame, match, snapshot, stroke, write


def _season(folder: Path, n: int) -> list[Path]:
    """``n`` one-match files, as ``cuelog simulate`` writes them."""
    folder.mkdir()
    return [
        write(folder / f"m-{i:03d}.jsonl", [match(match=f"m-{i:03d}"), frame(), stroke(1), stroke(2, striker="B")])
        for i in range(n)
    ]


def _without_load_times(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    snap = snapshot(db)
    snap["ingest_log"] = [row[:4] for row in snap["ingest_log"]]
    return snap


def test_a_season_loaded_in_groups_is_the_season_loaded_file_by_file(tmp_path: Path) -> None:
    files = _season(tmp_path / "logs", 40)
    grouped, single = tmp_path / "grouped.duckdb", tmp_path / "single.duckdb"
    result = cli("ingest", tmp_path / "logs", "--db", grouped, "--json")
    assert result.exit_code == 0, result.stderr
    assert [f["status"] for f in json.loads(result.stdout)["files"]] == ["loaded"] * 40
    con = connect(single)
    assert [load.ingest_file(con, f).status for f in files] == ["loaded"] * 40
    con.close()
    assert _without_load_times(grouped) == _without_load_times(single)


def test_two_files_claiming_one_match_in_one_run_the_second_is_refused(tmp_path: Path) -> None:
    """docs/format.md: a match id belongs to one file; the second claim names the first file."""
    logs = tmp_path / "logs"
    logs.mkdir()
    first = write(logs / "a.jsonl", [match(), frame(), stroke(1)])
    second = write(logs / "b.jsonl", [match(event="Again"), frame(), stroke(1), stroke(2)])
    result = cli("ingest", logs, "--db", tmp_path / "db.duckdb", "--json")
    assert result.exit_code == 2
    a, b = json.loads(result.stdout)["files"]
    assert (a["path"], a["status"]) == (str(first), "loaded")
    assert (b["path"], b["status"]) == (str(second), "rejected")
    [problem] = b["problems"]
    assert (problem["line"], problem["code"]) == (1, "match_exists") and str(first) in problem["found"]


def test_a_bad_file_in_a_group_is_refused_with_its_lines_and_claims(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    write(logs / "a.jsonl", [match(), frame(), stroke(1)])
    write(logs / "b.jsonl", [match(), frame(), "{not json"])
    result = cli("ingest", logs, "--db", tmp_path / "db.duckdb", "--json")
    assert result.exit_code == 2
    _, bad = json.loads(result.stdout)["files"]
    assert [(p["line"], p["code"]) for p in bad["problems"]] == [(1, "match_exists"), (3, "invalid_json")]


def test_the_same_bytes_twice_in_one_run_load_once(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    records = [match(), frame(), stroke(1)]
    write(logs / "a.jsonl", records)
    write(logs / "copy.jsonl", records)
    result = cli("ingest", logs, "--db", tmp_path / "db.duckdb", "--json")
    assert result.exit_code == 0, result.stderr
    assert [f["status"] for f in json.loads(result.stdout)["files"]] == ["loaded", "unchanged"]


def _refusing(name: str, publish: Any) -> Any:
    """``publish_files`` as a store that refuses any group holding the file ``name``."""

    def refuse(con: duckdb.DuckDBPyConnection, rows: list[FileRows]) -> None:
        if any(r.name.endswith(name) for r in rows):
            raise duckdb.ConstraintException("refused by the store")
        publish(con, rows)

    return refuse


def test_a_group_that_cannot_be_published_is_published_file_by_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each file all or nothing: when the store refuses one file of a group, the others load."""
    files = _season(tmp_path / "logs", 5)
    monkeypatch.setattr(loads, "publish_files", _refusing("m-002.jsonl", loads.publish_files))
    con = connect(tmp_path / "db.duckdb")
    results = load.ingest_paths(con, [tmp_path / "logs"])
    loaded = sorted(r[0] for r in con.execute("SELECT match_id FROM matches").fetchall())
    con.close()
    assert [r.status for r in results] == ["loaded", "loaded", "rejected", "loaded", "loaded"]
    assert results[2].path == str(files[2]) and results[2].problems[0].code == "load_failed"
    assert loaded == ["m-000", "m-001", "m-003", "m-004"]


@pytest.mark.parametrize("window", [1, 1 << 20])
def test_files_read_ahead_in_windows_load_as_in_one_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, window: int
) -> None:
    """Which files are loaded already is asked a window of logs at a time: a copy of a file
    in a later window, a file loaded by an earlier run, a file that is not there and one
    that is not a log are each reported as when every file is in one window."""
    files = _season(tmp_path / "logs", 6)
    write(tmp_path / "logs" / "m-006-copy.jsonl", [match(match="m-001"), frame(), stroke(1), stroke(2, striker="B")])
    (tmp_path / "logs" / "m-007-bad.jsonl").write_text("{not json\n", encoding="utf-8")
    db = tmp_path / "db.duckdb"
    con = connect(db)
    assert load.ingest_paths(con, [files[3]])[0].status == "loaded"
    monkeypatch.setattr(load, "WINDOW_BYTES", window)
    results = load.ingest_paths(con, [tmp_path / "logs", tmp_path / "missing.jsonl"])
    con.close()
    statuses = [(Path(r.path).name, r.status, [p.code for p in r.problems]) for r in results]
    assert statuses == [
        ("m-000.jsonl", "loaded", []),
        ("m-001.jsonl", "loaded", []),
        ("m-002.jsonl", "loaded", []),
        ("m-003.jsonl", "unchanged", []),
        ("m-004.jsonl", "loaded", []),
        ("m-005.jsonl", "loaded", []),
        ("m-006-copy.jsonl", "unchanged", []),
        ("m-007-bad.jsonl", "rejected", ["invalid_json"]),
        ("missing.jsonl", "rejected", ["unreadable"]),
    ]


def _season_with_clocks(folder: Path, n: int) -> list[Path]:
    """``n`` one-match files of different lengths, some with shot-clock records."""
    folder.mkdir()
    files = []
    for i in range(n):
        strokes = [stroke(k, striker="AB"[k % 2]) for k in range(1, 2 + i % 5)]
        clocks = [{"type": "clock", "frame": 1, "n": 1, "elapsed_s": 10.5 + i}] if i % 3 == 0 else []
        files.append(write(folder / f"m-{i:03d}.jsonl", [match(match=f"m-{i:03d}"), frame(), *strokes, *clocks]))
    return files


def test_groups_of_many_chunks_store_each_file_as_on_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group's rows become Arrow columns chunk by chunk, and a group is published once it is
    big enough: with tiny chunks and groups, files span chunk and group boundaries, and the
    store holds what loading each file on its own gives."""
    files = _season_with_clocks(tmp_path / "logs", 30)
    con = connect(tmp_path / "single.duckdb")
    assert [load.ingest_file(con, f).status for f in files] == ["loaded"] * 30
    con.close()
    monkeypatch.setattr(rows, "CHUNK", 7)
    monkeypatch.setattr(load, "GROUP_RECORDS", 40)
    result = cli("ingest", tmp_path / "logs", "--db", tmp_path / "grouped.duckdb", "--json")
    assert result.exit_code == 0, result.stderr
    assert [f["status"] for f in json.loads(result.stdout)["files"]] == ["loaded"] * 30
    assert _without_load_times(tmp_path / "grouped.duckdb") == _without_load_times(tmp_path / "single.duckdb")


def test_a_group_is_published_before_a_file_would_take_it_past_two_row_groups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A transaction adds at most GROUP_RECORDS records (two DuckDB row groups): a group a file
    would take past it is published first, so that no transaction leaves a few rows in a row
    group of their own, for the next checkpoint to merge. A file holding more than that is
    published alone."""
    files = _season_with_clocks(tmp_path / "logs", 30)
    big = [match(match="m-big"), frame(), *(stroke(k, striker="AB"[k % 2]) for k in range(1, 50))]
    files.append(write(tmp_path / "logs" / "m-011-big.jsonl", big))
    published: list[list[int]] = []
    store = loads.publish_files

    def publish(con: duckdb.DuckDBPyConnection, rows: list[FileRows]) -> None:
        published.append([r.records for r in rows])
        store(con, rows)

    monkeypatch.setattr(loads, "publish_files", publish)
    monkeypatch.setattr(load, "GROUP_RECORDS", 40)
    con = connect(tmp_path / "db.duckdb")
    results = load.ingest_paths(con, [tmp_path / "logs"])
    con.close()
    assert [r.status for r in results] == ["loaded"] * 31
    expected: list[list[int]] = [[]]
    for f in sorted(files):  # the order a folder is loaded in
        n = len(f.read_text(encoding="utf-8").splitlines())
        if expected[-1] and sum(expected[-1]) + n > 40:
            expected.append([])
        expected[-1].append(n)
    assert [51] in published and all(sum(g) <= 40 for g in published if g != [51])
    assert published == expected


def test_a_refused_file_of_a_group_of_chunks_leaves_the_others_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Published file by file after the group fails, each file gets exactly its own rows."""
    files = _season_with_clocks(tmp_path / "logs", 12)
    expected = tmp_path / "expected.duckdb"
    con = connect(expected)
    kept = [f for f in files if not f.name.endswith("m-004.jsonl")]
    assert [load.ingest_file(con, f).status for f in kept] == ["loaded"] * 11
    con.close()
    monkeypatch.setattr(loads, "publish_files", _refusing("m-004.jsonl", loads.publish_files))
    monkeypatch.setattr(rows, "CHUNK", 5)
    db = tmp_path / "db.duckdb"
    con = connect(db)
    results = load.ingest_paths(con, [tmp_path / "logs"])
    con.close()
    assert [r.status for r in results] == ["loaded"] * 4 + ["rejected"] + ["loaded"] * 7
    assert _without_load_times(db) == _without_load_times(expected)


def test_a_season_of_gzipped_logs_is_published_in_groups_like_plain_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A gzipped one-match log is a small log (what counts is what it holds): it joins a
    group instead of a transaction of its own, and loads what the same log loads plain. A
    gzipped log holding more than ON_ITS_OWN_BYTES, or a broken one, is loaded on its own,
    with the result it gets alone."""
    plain = _season(tmp_path / "plain", 30)
    zipped = tmp_path / "zipped"
    zipped.mkdir()
    for f in plain:
        with gzip.open(zipped / f"{f.name}.gz", "wb") as fh:
            fh.write(f.read_bytes())
    big = [match(match="big"), frame(), *(stroke(n, striker="AB"[n % 2]) for n in range(1, 40))]
    with gzip.open(zipped / "z-big.jsonl.gz", "wt", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in big))
    (zipped / "z-broken.jsonl.gz").write_bytes(gzip.compress(plain[0].read_bytes())[:-9])
    monkeypatch.setattr(load, "ON_ITS_OWN_BYTES", 3000)
    on_their_own: list[str] = []
    alone = load.ingest_file

    def spied(con: duckdb.DuckDBPyConnection, path: Path, **kwargs: Any) -> load.FileResult:
        on_their_own.append(Path(path).name)
        return alone(con, path, **kwargs)

    con = connect(tmp_path / "single.duckdb")
    expected = [alone(con, f).to_dict() for f in sorted(zipped.iterdir())]
    con.close()
    monkeypatch.setattr(load, "ingest_file", spied)
    con = connect(tmp_path / "grouped.duckdb")
    results = [r.to_dict() for r in load.ingest_paths(con, [zipped])]
    con.close()
    assert results == expected
    assert on_their_own == ["z-big.jsonl.gz", "z-broken.jsonl.gz"]
    assert [r["status"] for r in results] == ["loaded"] * 31 + ["rejected"]
    assert _without_load_times(tmp_path / "grouped.duckdb") == _without_load_times(tmp_path / "single.duckdb")
    result = cli("ingest", tmp_path / "plain", "--db", tmp_path / "plain.duckdb", "--json")
    assert result.exit_code == 0, result.stderr
    zipped_rows = _without_load_times(tmp_path / "grouped.duckdb")
    plain_rows = _without_load_times(tmp_path / "plain.duckdb")
    for table in ("records", "strokes"):
        assert [r for r in zipped_rows[table] if r[0] != "big"] == plain_rows[table]


@pytest.mark.parametrize("before", [100, 0])
def test_checkpoints_while_loading_run_few_row_group_merges_and_the_setting_is_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before: int
) -> None:
    # DuckDB's vacuum tasks (row groups merged at a checkpoint) each hold their row groups in
    # memory: a load's automatic checkpoints run at most loads.VACUUM_TASKS of them (never
    # more than the database allowed), its last checkpoint too (made before it returns, not
    # when the database is closed: nothing is left in the write-ahead log), and the
    # database's setting is as it was after.
    from cuelog.ingest import clock
    from cuelog.store import clocks as store_clocks

    _season(tmp_path / "logs", 3)
    device = tmp_path / "t1.csv"
    device.write_text("table,ts,event\n1,2026-05-01T14:00:01.000Z,start\n1,2026-05-01T14:00:10.000Z,stop\n")
    seen: list[int] = []

    def setting(con: duckdb.DuckDBPyConnection) -> int:
        return int(con.execute("SELECT current_setting('max_vacuum_tasks')").fetchall()[0][0])

    def publish(real: Any) -> Any:
        def recorded(con: duckdb.DuckDBPyConnection, *args: Any) -> Any:
            seen.append(setting(con))
            return real(con, *args)

        return recorded

    monkeypatch.setattr(loads, "publish_files", publish(loads.publish_files))
    monkeypatch.setattr(store_clocks, "save", publish(store_clocks.save))
    db = tmp_path / "s.duckdb"
    wal = tmp_path / "s.duckdb.wal"
    con = connect(db)
    con.execute(f"SET max_vacuum_tasks = {before}")
    assert [r.status for r in load.ingest_paths(con, [tmp_path / "logs"])] == ["loaded"] * 3
    assert not wal.exists() or wal.stat().st_size == 0
    assert [r.status for r in clock.ingest_clocks(con, [device])] == ["loaded"]
    assert not wal.exists() or wal.stat().st_size == 0
    assert seen == [min(before, loads.VACUUM_TASKS)] * 2  # one group of logs, one of clocks
    assert setting(con) == before
    con.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_logs_load_on_the_duckdb_threads_the_checking_workers_leave_and_the_setting_is_set_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    # On cores the checking processes keep busy, DuckDB's other threads only take turns with
    # them: a load's inserts run on the cores they leave (this process checking alone: the
    # one it checks on), and the database's own setting is as it was after.
    from cuelog.ingest import cores

    _season(tmp_path / "logs", 3)
    monkeypatch.setattr(cores, "usable_cores", lambda: 4)
    seen: list[int] = []
    real = loads.publish_files

    def recorded(con: duckdb.DuckDBPyConnection, *args: Any) -> Any:
        seen.append(int(con.execute("SELECT current_setting('threads')").fetchall()[0][0]))
        return real(con, *args)

    monkeypatch.setattr(loads, "publish_files", recorded)
    con = connect(tmp_path / "s.duckdb")
    con.execute("SET threads = 7")
    try:
        assert [r.status for r in load.ingest_paths(con, [tmp_path / "logs"], workers=workers)] == ["loaded"] * 3
        assert seen == [4 - workers]
        assert int(con.execute("SELECT current_setting('threads')").fetchall()[0][0]) == 7
    finally:
        con.close()


def test_a_groups_records_are_stored_in_match_id_order_each_match_in_file_order(tmp_path: Path) -> None:
    """Files whose match ids do not follow the files' order, one holding two matches: a
    group's records go into the store in match id order, each match's records in the order
    of its file (a replay reads a run of consecutive ids at a time); the strokes stay in
    file order. The rows are those of the files loaded one by one."""
    logs = tmp_path / "logs"
    logs.mkdir()
    ids = {"a.jsonl": ["m-5"], "b.jsonl": ["m-2", "m-9"], "c.jsonl": ["m-1"], "d.jsonl": ["m-7"]}
    files = []
    for name, matches in ids.items():
        records: list[Any] = []
        for m in matches:
            records += [match(match=m), frame(), stroke(1), stroke(2, striker="B"), stroke(3)]
        files.append(write(logs / name, records))
    db, single = tmp_path / "s.duckdb", tmp_path / "single.duckdb"
    result = cli("ingest", logs, "--db", db, "--json")
    assert result.exit_code == 0, result.stderr

    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.execute("SELECT match_id, seq, line FROM records ORDER BY rowid").fetchall()
        strokes = [m for (m,) in con.execute("SELECT match_id FROM strokes ORDER BY rowid").fetchall()]
    finally:
        con.close()
    assert [m for m, _, _ in stored] == [m for m in sorted(m for ms in ids.values() for m in ms) for _ in range(5)]
    assert stored == sorted(stored)  # and each match's records by seq, lines in file order
    assert list(dict.fromkeys(strokes)) == ["m-5", "m-2", "m-9", "m-1", "m-7"]

    con = connect(single)
    assert [load.ingest_file(con, f).status for f in files] == ["loaded"] * 4
    con.close()
    assert _without_load_times(db) == _without_load_times(single)
