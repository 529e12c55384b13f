"""The replay on a Dask cluster over Parquet: the same bytes as the in-process replay, whatever
the workers, partitions or task order; a killed worker's task retried; a bad partition
reported with its match and file while the rest completes; reports over the results."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cuelog.distributed.driver import replay_parquet
from cuelog.distributed.layout import part_name, partition_of
from cuelog.store import connect
from cuelog.store.results import REPLAY_TABLES
from tests.distributed.conftest import cuelog, in_process_results, tree, worker_pids


def export(db: Path, dest: Path, partitions: int) -> Path:
    ran = cuelog("export", "--db", str(db), "--parquet", str(dest), "--partitions", str(partitions))
    assert ran.exit_code == 0, ran.stderr
    return dest


def test_one_and_two_workers_give_the_in_process_bytes(season: Path, cluster, tmp_path: Path) -> None:
    data = export(season, tmp_path / "archive", 5)
    expected = tree(in_process_results(season, tmp_path / "expected", 5), REPLAY_TABLES)
    assert len(expected) == 5 * len(REPLAY_TABLES)

    one = cuelog("replay", "--parquet", str(data), "--scheduler", "local:1", "--out", str(tmp_path / "one"))
    assert one.exit_code == 1, one.stderr  # the season has officiating errors: findings
    assert tree(tmp_path / "one", REPLAY_TABLES) == expected

    address = cluster.scheduler.address
    two = cuelog("replay", "--parquet", str(data), "--scheduler", address, "--out", str(tmp_path / "two"), "--json")
    assert two.exit_code == 1, two.stderr
    assert tree(tmp_path / "two", REPLAY_TABLES) == expected
    doc = json.loads(two.stdout)
    assert doc["ok"] is True
    con = connect(season, read_only=True)
    try:
        loaded = con.execute("SELECT count(*) FROM matches").fetchall()[0][0]
    finally:
        con.close()
    assert doc["matches"] == loaded >= 16
    assert doc["findings"] == pq.read_table(tmp_path / "two" / "replay_findings").num_rows > 0
    # Progress: one line per completed partition on stderr (not a terminal here).
    assert [line.split()[1] for line in two.stderr.splitlines() if line.startswith("partition")] == [
        f"{k}/5" for k in range(1, 6)
    ]


def test_task_order_and_partition_count_do_not_change_the_results(season: Path, cluster, tmp_path: Path) -> None:
    three = export(season, tmp_path / "p3", 3)
    seven = export(season, tmp_path / "p7", 7)
    forward = replay_parquet(cluster, str(three), str(tmp_path / "forward"))
    backward = replay_parquet(cluster, str(three), str(tmp_path / "backward"), order=[2, 1, 0])
    assert [o.part for o in forward] == [o.part for o in backward] == [0, 1, 2]
    assert tree(tmp_path / "forward", REPLAY_TABLES) == tree(tmp_path / "backward", REPLAY_TABLES)
    assert tree(tmp_path / "forward", REPLAY_TABLES) == tree(
        in_process_results(season, tmp_path / "expected3", 3), REPLAY_TABLES
    )
    present = [p for p in range(7) if (seven / "matches" / part_name(p)).exists()]
    replay_parquet(cluster, str(seven), str(tmp_path / "seven"), order=present[::-1])
    # Other partitions, other files, the same rows once sorted by match.
    for name in REPLAY_TABLES:
        a = pq.read_table(tmp_path / "forward" / name)
        b = pq.read_table(tmp_path / "seven" / name)
        assert a.num_rows == b.num_rows
        assert _rows(a) == _rows(b)


def _rows(table: pa.Table) -> list[tuple[object, ...]]:
    cols = [c for c in table.column_names if c != "part"]
    return sorted(zip(*(table.column(c).to_pylist() for c in cols), strict=True), key=repr)


def test_a_killed_worker_task_is_retried_and_the_output_is_identical(season: Path, cluster, tmp_path: Path) -> None:
    data = export(season, tmp_path / "archive", 8)
    expected = tree(in_process_results(season, tmp_path / "expected", 8), REPLAY_TABLES)
    pids = worker_pids(cluster)
    killed: list[str] = []

    def kill_one(outcome, done: int, total: int) -> None:
        # Kill, once, a worker process while it is replaying a partition.
        if killed:
            return
        for address, keys in cluster.processing().items():
            if keys and address in pids:
                os.kill(pids[address], signal.SIGKILL)
                killed.extend(str(k) for k in keys)
                return

    outcomes = replay_parquet(cluster, str(data), str(tmp_path / "out"), progress=kill_one)
    assert killed, "no worker had a partition in flight to kill"
    assert all(o.ok for o in outcomes)
    assert {o.part for o in outcomes} == {p for p in range(8) if (data / "matches" / part_name(p)).exists()}
    assert tree(tmp_path / "out", REPLAY_TABLES) == expected
    cluster.wait_for_workers(2, timeout=60)


def test_a_rerun_removes_the_temporary_file_a_killed_writer_left(season: Path, cluster, tmp_path: Path) -> None:
    data = export(season, tmp_path / "archive", 2)
    out = tmp_path / "out"
    replay_parquet(cluster, str(data), str(out))
    expected = tree(out, REPLAY_TABLES)
    # What a worker killed between writing a file and renaming it into place leaves behind.
    left = out / "replay_strokes" / part_name(0) / ".data.parquet.4242.tmp"
    left.write_bytes(b"half a file")
    assert all(o.ok for o in replay_parquet(cluster, str(data), str(out)))
    assert not left.exists()
    assert tree(out, REPLAY_TABLES) == expected


def _break_records(data: Path, part: int, match_id: str) -> str:
    """Replace one record of a match with text that is not JSON; the file that holds it."""
    (path,) = (data / "records" / part_name(part)).glob("*.parquet")
    table = pq.read_table(path)
    bodies = table.column("body").to_pylist()
    ids = table.column("match_id").to_pylist()
    i = ids.index(match_id) + 3
    bodies[i] = '{"type": "stroke", broken'
    fixed = table.set_column(table.schema.get_field_index("body"), "body", pa.array(bodies, pa.string()))
    pq.write_table(fixed, path)
    return str(table.column("line")[i])


def test_a_bad_partition_reports_its_match_and_file_and_the_rest_completes(
    season: Path, cluster, tmp_path: Path
) -> None:
    data = export(season, tmp_path / "archive", 4)
    out = tmp_path / "out"
    # A good run first: the failing partitions' old results must not survive the next one.
    assert all(o.ok for o in replay_parquet(cluster, str(data), str(out)))
    victim = "snooker-00003"
    bad = partition_of(victim, 4)
    line = _break_records(data, bad, victim)
    garbled = next(p for p in range(4) if p != bad and (data / "matches" / part_name(p)).exists())
    (matches_file,) = (data / "matches" / part_name(garbled)).glob("*.parquet")
    matches_file.write_bytes(b"not parquet")
    args = ["replay", "--parquet", str(data), "--scheduler", cluster.scheduler.address, "--out", str(out)]
    ran = cuelog(*args)
    assert ran.exit_code == 2
    assert f"match '{victim}' (" in ran.stderr and f"{victim}.jsonl" in ran.stderr  # the match and its file
    assert str(matches_file) in ran.stderr.replace("\n", "")  # the unreadable file, named
    assert "FAILED" in ran.stderr
    doc = json.loads(cuelog(*args, "--json").stdout)
    by_part = {p["partition"]: p for p in doc["partitions"]}
    (problem,) = by_part[part_name(bad)]["problems"]
    assert problem["file"].endswith(f"{victim}.jsonl") and problem["line"] == int(line)
    assert problem["code"] == "invalid_json"
    assert by_part[part_name(garbled)]["failures"][0].startswith(f"{matches_file}: not a readable Parquet file")
    assert [p["ok"] for p in doc["partitions"]] == [
        p["partition"] not in (part_name(bad), part_name(garbled)) for p in doc["partitions"]
    ]
    for p in range(4):
        written = (out / "replay_frames" / part_name(p) / "data.parquet").exists()
        assert written == (p not in (bad, garbled) and (data / "matches" / part_name(p)).exists())
    frames = pq.read_table(out / "replay_frames").column("match_id").to_pylist()
    assert frames and victim not in frames


def test_report_over_the_cluster_results_equals_report_over_the_database(season: Path, cluster, tmp_path: Path) -> None:
    data = export(season, tmp_path / "archive", 3)
    out = tmp_path / "out"
    replay_parquet(cluster, str(data), str(out))
    for kind in ("breaks", "misses", "clock", "billiards"):
        over_db = cuelog("report", kind, "--db", str(season), "--json", "--by", "match")
        over_results = cuelog("report", kind, "--results", str(out), "--json", "--by", "match")
        assert over_db.exit_code == over_results.exit_code == 0, over_results.stderr
        assert over_results.stdout == over_db.stdout
    rows = json.loads(cuelog("report", "clock", "--results", str(out), "--json").stdout)["players"]
    assert sum(r["shots"] for r in rows) > 0  # the shot clock came along with the results


def test_nineball_report_over_the_cluster_results_counts_the_push_outs(cluster, tmp_path: Path) -> None:
    """A results dataset holds no records: the nine-ball report reads the push outs (WPA 2.4)
    from the replay's strokes there too, and gives what it gives over the database."""
    season = tmp_path / "nine"
    ran = cuelog("simulate", "--rules", "nineball/wpa", "--matches", "6", "--seed", "5", "--out", str(season))
    assert ran.exit_code == 0, ran.stderr
    db = tmp_path / "nine.duckdb"
    assert cuelog("ingest", str(season / "logs"), "--db", str(db)).exit_code == 0
    assert cuelog("replay", "--db", str(db)).exit_code == 0
    out = tmp_path / "out"
    replay_parquet(cluster, str(export(db, tmp_path / "archive", 2)), str(out))
    for by in ("player", "match"):
        over_db = cuelog("report", "nineball", "--db", str(db), "--json", "--by", by)
        over_results = cuelog("report", "nineball", "--results", str(out), "--json", "--by", by)
        assert over_db.exit_code == over_results.exit_code == 0, over_results.stderr
        assert over_results.stdout == over_db.stdout
    declared = sum('"push_out":true' in line for f in (season / "logs").glob("*.jsonl") for line in f.open())
    rows = json.loads(over_results.stdout)["matches"]
    assert declared > 0 and sum(r["push_outs"] for r in rows) == declared


def test_bad_options_exit_2_with_a_message(season: Path, tmp_path: Path) -> None:
    data = export(season, tmp_path / "archive", 2)
    cases = [
        (["--parquet", str(data), "--out", str(tmp_path / "o")], "go together"),
        (["--parquet", str(data), "--scheduler", "nowhere", "--out", str(tmp_path / "o")], "scheduler"),
        (["--parquet", str(data), "--scheduler", "local:0", "--out", str(tmp_path / "o")], "local:N"),
        (["--parquet", str(tmp_path), "--scheduler", "local:1", "--out", str(tmp_path / "o")], "_cuelog.json"),
        (["--parquet", str(data), "--scheduler", "local:1", "--out", str(data)], "own directory"),
        (["--parquet", str(data), "--db", str(season), "--scheduler", "local:1", "--out", "x"], "whole dataset"),
        (["--parquet", str(data), "--match", "m", "--scheduler", "local:1", "--out", "x"], "--match"),
    ]
    for args, message in cases:
        ran = cuelog("replay", *args)
        assert ran.exit_code == 2, args
        assert message in ran.stderr.replace("\n", ""), (args, ran.stderr)
    ran = cuelog("report", "breaks", "--results", str(data))
    assert ran.exit_code == 2 and "'kind'" in ran.stderr.replace("\n", "")


LOADED = ("matches", "records", "strokes", "shot_clock")


def test_ingest_parquet_writes_what_ingest_then_export_writes(tmp_path: Path, examples_dir: Path) -> None:
    db = tmp_path / "ex.duckdb"
    assert cuelog("ingest", str(examples_dir), "--db", str(db)).exit_code == 0
    exported = tree(export(db, tmp_path / "exported", 4), LOADED)
    ran = cuelog("ingest", str(examples_dir), "--parquet", str(tmp_path / "direct"), "--partitions", "4", "--json")
    assert ran.exit_code == 0, ran.stderr
    assert json.loads(ran.stdout)["parquet"]["matches"] == pq.read_table(tmp_path / "exported" / "matches").num_rows
    assert tree(tmp_path / "direct", LOADED) == exported
    assert not Path("cuelog.duckdb").exists() or db.exists()  # no stray database written


@pytest.mark.parametrize("partitions", [1, 6])
def test_export_again_writes_the_same_bytes_each_match_in_its_partition(
    season: Path, tmp_path: Path, partitions: int
) -> None:
    first = tree(export(season, tmp_path / "a", partitions), LOADED)
    again = tree(export(season, tmp_path / "a", partitions), LOADED)
    assert first == again
    assert all(f.split("/")[1] == part_name(int(f.split("/")[1][5:], 16)) for f in first)
    ids = pq.read_table(tmp_path / "a" / "matches").column("match_id").to_pylist()
    for f in first:
        table, part = f.split("/")[:2]
        held = set(pq.read_table(tmp_path / "a" / f).column("match_id").to_pylist())
        assert all(part_name(partition_of(m, partitions)) == part for m in held), (table, part)
    assert len(ids) == len(set(ids))


def test_fsspec_urls_for_the_dataset_the_results_and_the_report(season: Path, cluster, tmp_path: Path) -> None:
    data = f"file://{tmp_path}/archive"
    out = f"file://{tmp_path}/out"
    assert cuelog("export", "--db", str(season), "--parquet", data, "--partitions", "3").exit_code == 0
    ran = cuelog("replay", "--parquet", data, "--scheduler", cluster.scheduler.address, "--out", out)
    assert ran.exit_code == 1, ran.stderr
    assert tree(tmp_path / "out", REPLAY_TABLES) == tree(
        in_process_results(season, tmp_path / "expected", 3), REPLAY_TABLES
    )
    over_db = cuelog("report", "breaks", "--db", str(season), "--json")
    assert cuelog("report", "breaks", "--results", out, "--json").stdout == over_db.stdout


def test_a_records_file_without_its_body_column_is_named(season: Path, cluster, tmp_path: Path) -> None:
    data = export(season, tmp_path / "archive", 2)
    (path,) = (data / "records" / part_name(0)).glob("*.parquet")
    pq.write_table(pq.read_table(path).drop_columns(["body"]), path)
    outcomes = replay_parquet(cluster, str(data), str(tmp_path / "out"))
    assert [o.ok for o in outcomes] == [False, True]
    assert outcomes[0].failures == (f"{path}: column 'body' missing; expected columns match_id, seq, line, body",)


def test_export_reports_what_it_wrote_and_refuses_an_empty_database(season: Path, tmp_path: Path) -> None:
    ran = cuelog("export", "--db", str(season), "--parquet", str(tmp_path / "a"), "--partitions", "4", "--json")
    assert ran.exit_code == 0, ran.stderr
    doc = json.loads(ran.stdout)
    loaded = pq.read_table(tmp_path / "a" / "records").num_rows
    assert doc == {
        "parquet": str(tmp_path / "a"),
        "matches": pq.read_table(tmp_path / "a" / "matches").num_rows,
        "records": loaded,
        "partitions": 4,
        "partitions_written": len(list((tmp_path / "a" / "matches").iterdir())),
        "unchanged": 0,
    }
    written = tree(tmp_path / "a", ("matches", "records", "strokes"))
    same = cuelog("export", "--db", str(season), "--parquet", str(tmp_path / "a"), "--partitions", "4", "--json")
    assert same.exit_code == 0, same.stderr
    assert json.loads(same.stdout) | {"parquet": None} == {
        "parquet": None,
        "matches": 0,
        "records": 0,
        "partitions": 4,
        "partitions_written": 0,
        "unchanged": doc["matches"],
    }
    assert tree(tmp_path / "a", ("matches", "records", "strokes")) == written
    again = cuelog("export", "--db", str(season), "--parquet", str(tmp_path / "a"), "--partitions", "5")
    assert again.exit_code == 2 and "--partitions 4" in again.stderr
    empty = tmp_path / "empty.duckdb"
    connect(empty).close()  # a database with its tables and no match
    none = cuelog("export", "--db", str(empty), "--parquet", str(tmp_path / "b"))
    assert none.exit_code == 2 and "no loaded matches" in none.stderr
    assert cuelog("export", "--db", str(tmp_path / "missing.duckdb"), "--parquet", "x").exit_code == 2


def test_corrections_are_applied_on_the_cluster_as_in_process(season: Path, cluster, tmp_path: Path) -> None:
    from cuelog.ingest.corrections import read_corrections

    data = export(season, tmp_path / "archive", 3)
    # The recorder missed the pink being spotted after stroke 7 (S3 R7): the referee did spot it.
    pink = {"match": "example-officiating", "frame": 1, "n": 7, "set": {"respots": [{"ball": "pink", "spot": "pink"}]}}
    fixes = tmp_path / "fixes.jsonl"
    fixes.write_text(json.dumps(pink) + "\n", encoding="utf-8")
    address = cluster.scheduler.address
    ran = cuelog(
        "replay",
        "--parquet",
        str(data),
        "--scheduler",
        address,
        "--out",
        str(tmp_path / "out"),
        "--corrections",
        str(fixes),
    )
    assert ran.exit_code == 1, ran.stderr
    expected = in_process_results(season, tmp_path / "expected", 3, tuple(read_corrections(fixes)))
    assert tree(tmp_path / "out", REPLAY_TABLES) == tree(expected, REPLAY_TABLES)
    stored = pq.read_table(tmp_path / "out" / "replay_corrections").to_pylist()
    assert [(r["match_id"], r["frame"], r["n"]) for r in stored] == [("example-officiating", 1, 7)]
    findings = pq.read_table(tmp_path / "out" / "replay_findings").to_pylist()
    assert not [f for f in findings if f["match_id"] == "example-officiating" and f["kind"] == "respot_missing"]

    fixes.write_text(json.dumps({**pink, "match": "no-such-match"}) + "\n", encoding="utf-8")
    ran = cuelog(
        "replay",
        "--parquet",
        str(data),
        "--scheduler",
        address,
        "--out",
        str(tmp_path / "out"),
        "--corrections",
        str(fixes),
    )
    assert ran.exit_code == 2
    assert "no_such_stroke" in ran.stderr and "fixes.jsonl" in ran.stderr
    assert "partition" not in ran.stderr  # refused before any task ran
    assert tree(tmp_path / "out", REPLAY_TABLES) == tree(expected, REPLAY_TABLES)  # the results left as they were
