"""Writing into a Parquet dataset that already holds matches: `cuelog export` replaces the
matches it exports (never duplicates them), `--overwrite` replaces the dataset whole, a write
that stops midway leaves a mark every reader refuses, a directory that is not a cuelog
dataset is refused; `cuelog ingest --parquet` keeps the shot clocks and aligns them over
every stroke of the dataset, whichever batch brought the clock or the strokes."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cuelog.distributed import clocks as distributed_clocks
from cuelog.distributed.clocks import CLOCK_PLACED, CLOCK_SHOTS, keep_clocks, realign
from cuelog.distributed.export import export_db
from cuelog.distributed.layout import CLOCKS_FILE, Storage, partitions_present, read_clock
from cuelog.ingest.clock import pair_shots, read_clock_csv
from cuelog.store import connect
from cuelog.store.results import REPLAY_TABLES
from tests.conftest import EXAMPLES
from tests.distributed.conftest import cuelog, tree

LOADED = ("matches", "records", "strokes", "shot_clock")
EVERYTHING = (*LOADED, "clock_shots")


def ingest(db: Path, *paths: Path, replace: bool = False) -> None:
    ran = cuelog("ingest", *map(str, paths), "--db", str(db), *(["--replace"] if replace else []))
    assert ran.exit_code == 0, ran.stdout + ran.stderr


def export(db: Path, dest: Path, partitions: int = 3, *extra: str) -> Path:
    ran = cuelog("export", "--db", str(db), "--parquet", str(dest), "--partitions", str(partitions), *extra)
    assert ran.exit_code == 0, ran.stderr
    return dest


def ids(data: Path) -> list[str]:
    return sorted(pq.read_table(data / "matches").column("match_id").to_pylist())


@pytest.fixture
def two_batches(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Two databases of different matches (the examples; a simulated event), and a copy of
    the officiating example's log to correct."""
    sim = tmp_path / "sim"
    ran = cuelog("simulate", "--rules", "billiards/wpbsa-2024", "--matches", "3", "--seed", "2", "--out", str(sim))
    assert ran.exit_code == 0, ran.stderr
    logs = tmp_path / "logs"
    shutil.copytree(EXAMPLES, logs, ignore=shutil.ignore_patterns("*.csv", "*.toml", "*.corrections.jsonl"))
    first, second = tmp_path / "first.duckdb", tmp_path / "second.duckdb"
    ingest(first, logs)
    ingest(second, sim / "logs")
    return first, second, logs / "snooker-officiating.jsonl"


def _correct(log: Path) -> None:
    """The recorder's correction of the referee's name: the same match id, other content."""
    lines = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["referee"] = "Corrected Name"
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")


def test_export_again_after_a_correction_replaces_the_match_and_keeps_the_other_batches(
    two_batches: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    first, second, log = two_batches
    archive = export(second, export(first, tmp_path / "archive"))
    _correct(log)
    ingest(first, log, replace=True)
    export(first, archive)
    assert ids(archive) == sorted(ids(export(first, tmp_path / "a")) + ids(export(second, tmp_path / "b")))
    # Exactly what exporting the corrected database and the other batch afresh writes.
    fresh = export(second, export(first, tmp_path / "fresh"))
    assert tree(archive, LOADED) == tree(fresh, LOADED)
    referee = {
        r["match_id"]: r["referee"] for r in pq.read_table(archive / "matches").to_pylist() if r["referee"] is not None
    }
    assert referee["example-officiating"] == "Corrected Name"


def test_export_replaces_a_match_held_in_a_file_beside_others_and_keeps_those(
    two_batches: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    first, _, log = two_batches
    archive = export(first, tmp_path / "archive", 1)  # one partition: one file holds every example
    single = tmp_path / "single.duckdb"
    _correct(log)
    ingest(single, log)
    export(single, archive, 1)
    files = sorted((archive / "matches" / "part=0000").iterdir())
    assert len(files) == 2  # the corrected match's own file, and the others' file rewritten without it
    assert ids(archive) == ids(export(first, tmp_path / "original", 1))
    held = [sorted(pq.read_table(f).column("match_id").to_pylist()) for f in files]
    assert ["example-officiating"] in held
    ran = cuelog("replay", "--parquet", str(archive), "--scheduler", "local:1", "--out", str(tmp_path / "out"))
    assert ran.exit_code == 1, ran.stderr  # every match once: no "held twice" failure


def test_export_overwrite_makes_the_dataset_exactly_this_export(
    two_batches: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    first, second, _ = two_batches
    archive = export(second, export(first, tmp_path / "archive", 3))
    refused = cuelog("export", "--db", str(second), "--parquet", str(archive), "--partitions", "5")
    assert refused.exit_code == 2 and "--overwrite" in refused.stderr.replace("\n", "")
    export(second, archive, 5, "--overwrite")
    assert tree(archive, EVERYTHING) == tree(export(second, tmp_path / "fresh", 5), EVERYTHING)
    assert json.loads((archive / "_cuelog.json").read_text())["partitions"] == 5


def test_export_refuses_a_directory_that_is_not_a_cuelog_dataset(
    two_batches: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    first, _, _ = two_batches
    other = tmp_path / "photos"
    other.mkdir()
    (other / "holiday.jpg").write_bytes(b"\xff\xd8")
    for extra in ([], ["--overwrite"]):
        ran = cuelog("export", "--db", str(first), "--parquet", str(other), *extra)
        assert ran.exit_code == 2
        assert "not a cuelog Parquet dataset" in ran.stderr.replace("\n", "")
        assert sorted(other.iterdir()) == [other / "holiday.jpg"]
        assert (other / "holiday.jpg").read_bytes() == b"\xff\xd8"
    archive = export(first, tmp_path / "archive")
    ran = cuelog("replay", "--parquet", str(archive), "--scheduler", "local:1", "--out", str(tmp_path / "results"))
    assert ran.exit_code == 1, ran.stderr
    ran = cuelog("export", "--db", str(first), "--parquet", str(tmp_path / "results"), "--overwrite")
    assert ran.exit_code == 2 and "expected 'loaded'" in ran.stderr.replace("\n", "")
    assert tree(tmp_path / "results", REPLAY_TABLES)  # the results were left alone


def _export_stopping(
    db: Path, archive: Path, monkeypatch: pytest.MonkeyPatch, full: Callable[[tuple[str, ...]], bool]
) -> None:
    """An export of ``db`` into ``archive`` (3 partitions) that stops with a full disk at the
    first file ``full`` says of (the file's path parts in the dataset)."""
    real = Storage.write_table

    def full_disk(self: Storage, table: pa.Table, *parts: str) -> None:
        if full(parts):
            raise OSError(28, "No space left on device")
        real(self, table, *parts)

    monkeypatch.setattr(Storage, "write_table", full_disk)
    con = connect(db, read_only=True)
    try:
        with pytest.raises(OSError):
            export_db(con, str(archive), 3)
    finally:
        con.close()
        monkeypatch.undo()


def test_an_export_that_stops_midway_is_refused_by_readers_until_run_again(
    two_batches: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _, log = two_batches
    archive = export(first, tmp_path / "archive")
    _correct(log)
    ingest(first, log, replace=True)
    calls = {"n": 0}

    def third_file(parts: tuple[str, ...]) -> bool:
        calls["n"] += 1
        return calls["n"] > 2

    _export_stopping(first, archive, monkeypatch, third_file)
    for args in (
        ["replay", "--parquet", str(archive), "--scheduler", "local:1", "--out", str(tmp_path / "out")],
        ["diff", "--dataset", str(archive), "--scheduler", "local:1", "--rules", "snooker/classic"],
    ):
        ran = cuelog(*args)
        assert ran.exit_code == 2 and "did not finish" in ran.stderr.replace("\n", ""), args
    export(first, archive)  # run again: the dataset is whole
    assert tree(archive, LOADED) == tree(export(first, tmp_path / "fresh"), LOADED)
    assert "complete" not in json.loads((archive / "_cuelog.json").read_text())


def test_ingest_parquet_refuses_another_file_for_a_held_match_unless_replace(
    two_batches: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    _, _, log = two_batches
    archive = tmp_path / "archive"
    assert cuelog("ingest", str(log), "--parquet", str(archive), "--partitions", "2").exit_code == 0
    _correct(log)
    ran = cuelog("ingest", str(log), "--parquet", str(archive), "--partitions", "2")
    assert ran.exit_code == 2 and "--replace" in ran.stderr.replace("\n", "")
    ran = cuelog("ingest", str(log), "--parquet", str(archive), "--partitions", "2", "--replace")
    assert ran.exit_code == 0, ran.stderr
    (row,) = pq.read_table(archive / "matches").to_pylist()
    assert row["referee"] == "Corrected Name"


def test_ingest_parquet_of_a_log_held_already_leaves_its_match_as_it_is_in_any_batch(
    two_batches: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    # The same bytes loaded again change nothing, as a database finds them unchanged: in a
    # batch of other files too (whose files in the dataset are named by other contents).
    logs = sorted(two_batches[2].parent.glob("*.jsonl"))
    archive = tmp_path / "archive"
    assert cuelog("ingest", *map(str, logs[:2]), "--parquet", str(archive), "--partitions", "2").exit_code == 0
    before = tree(archive, ("matches", "records", "strokes"))
    ran = cuelog("ingest", *map(str, logs[1:]), "--parquet", str(archive), "--partitions", "2", "--json")
    assert ran.exit_code == 0, ran.stderr
    doc = json.loads(ran.stdout)
    exported = doc["parquet"]
    assert (exported["matches"], exported["unchanged"]) == (len(logs) - 2, 1)
    assert [f["status"] for f in doc["files"]] == ["unchanged"] + ["loaded"] * (len(logs) - 2)
    assert set(before.items()) <= set(tree(archive, ("matches", "records", "strokes")).items())
    held = pq.read_table(archive / "matches").column("match_id").to_pylist()
    assert len(held) == len(set(held)) == len(logs)
    human = cuelog("ingest", str(logs[0]), "--parquet", str(archive), "--partitions", "2")
    assert human.exit_code == 0 and "wrote 0 match(es)" in human.stdout and "1 unchanged" in human.stdout


def test_a_batch_that_stopped_after_its_match_files_writes_the_rest_when_run_again(
    two_batches: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The matches files of a new batch are written first: they hold its matches from the
    # same logs, but not yet their records. Running the batch again must write those, not
    # take the matches for held already.
    first, second, _ = two_batches
    archive = export(first, tmp_path / "archive")
    _export_stopping(second, archive, monkeypatch, lambda parts: parts[0] != "matches")
    done = cuelog("export", "--db", str(second), "--parquet", str(archive), "--partitions", "3", "--json")
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["unchanged"] == 0
    held = ids(archive)
    assert sorted(pq.read_table(archive / "records").column("match_id").unique().to_pylist()) == held
    assert len(held) == len(set(held))


# -- shot clocks over batches ----------------------------------------------------------


@pytest.fixture(scope="module")
def clocked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six snooker matches on four tables, each table's shot-clock log spanning several matches."""
    root = tmp_path_factory.mktemp("clocked")
    ran = cuelog("simulate", "--rules", "snooker/wpbsa-2024", "--matches", "6", "--seed", "3", "--out", str(root))
    assert ran.exit_code == 0, ran.stderr
    return root


def clock_rows(data: Path) -> list[tuple[object, ...]]:
    """The shot clock a replay of the dataset reads, every partition, sorted."""
    storage = Storage.open(str(data))
    rows = []
    for part in partitions_present(storage, "shot_clock"):
        table = read_clock(storage, part)
        assert table is not None
        cols = ("match_id", "frame", "n", "shot_s", "paused_s", "limit_s", "source")
        rows += list(zip(*(table.column(c).to_pylist() for c in cols), strict=True))
    return sorted(rows, key=repr)


def ingest_parquet(data: Path, *paths: Path, clocks: tuple[Path, ...] = ()) -> dict[str, object]:
    args = [str(p) for p in (*paths, *clocks)]  # CSVs among the paths are read as clock logs
    ran = cuelog("ingest", *args, "--parquet", str(data), "--partitions", "3", "--json")
    assert ran.exit_code == 0, ran.stdout + ran.stderr
    return json.loads(ran.stdout)  # type: ignore[no-any-return]


def test_a_clock_in_another_batch_than_its_strokes_is_aligned_as_in_a_database(clocked: Path, tmp_path: Path) -> None:
    logs = sorted((clocked / "logs").glob("*.jsonl"))
    clocks = tuple(sorted((clocked / "clocks").glob("*.csv")))
    db = tmp_path / "all.duckdb"
    ingest(db, *logs)
    ran = cuelog("ingest", *map(str, clocks), "--db", str(db), "--json")
    assert ran.exit_code == 0
    in_db = {c["path"]: c for c in json.loads(ran.stdout)["clocks"]}
    con = connect(db, read_only=True)
    try:
        expected = sorted(con.execute("SELECT * FROM shot_clock").fetchall(), key=repr)
    finally:
        con.close()
    assert sum(1 for r in expected if r[6] != "record") > 100

    # The clocks with the first half of the logs; the second half's strokes come later.
    a = tmp_path / "a"
    batch = ingest_parquet(a, *logs[:3], clocks=clocks)
    assert 0 < sum(c["aligned"] for c in batch["clocks"]) < sum(c["aligned"] for c in in_db.values())
    ingest_parquet(a, *logs[3:])
    assert clock_rows(a) == expected
    # The clocks first, before any stroke; then the logs.
    b = tmp_path / "b"
    alone = ingest_parquet(b, clocks=clocks)
    assert [c["aligned"] for c in alone["clocks"]] == [0] * len(clocks)
    assert all(c["unplaced"] == c["shots"] for c in alone["clocks"]) and not (b / "matches").exists()
    ingest_parquet(b, *logs)
    assert clock_rows(b) == expected
    # The logs first, the clocks in a later batch: each clock's report as a database gives it.
    c = tmp_path / "c"
    ingest_parquet(c, *logs)
    late = ingest_parquet(c, clocks=clocks)
    assert clock_rows(c) == expected
    for got in late["clocks"]:
        want = in_db[got["path"]]
        assert (got["shots"], got["aligned"], got["unplaced"]) == (want["shots"], want["aligned"], want["unplaced"])
    # Whatever order the batches came in, the aligned clocks are the same bytes.
    aligned = {d: tree(d, ("shot_clock",)) for d in (a, b, c)}
    assert {k: v for k, v in aligned[a].items() if k.endswith(CLOCKS_FILE)} == {
        k: v for k, v in aligned[b].items() if k.endswith(CLOCKS_FILE)
    }
    assert tree(a, ("clock_shots",)) == tree(c, ("clock_shots",))


def test_the_clock_report_over_the_cluster_results_of_batched_ingests_equals_the_database(
    clocked: Path, cluster, tmp_path: Path
) -> None:
    logs = sorted((clocked / "logs").glob("*.jsonl"))
    clocks = tuple(sorted((clocked / "clocks").glob("*.csv")))
    db = tmp_path / "all.duckdb"
    ingest(db, *logs, *clocks)
    assert cuelog("replay", "--db", str(db)).exit_code in (0, 1)
    data = tmp_path / "archive"
    ingest_parquet(data, *logs[:2], clocks=clocks[:2])
    ingest_parquet(data, *logs[2:], clocks=clocks[2:])
    out = tmp_path / "out"
    ran = cuelog("replay", "--parquet", str(data), "--scheduler", cluster.scheduler.address, "--out", str(out))
    assert ran.exit_code in (0, 1), ran.stderr
    over_db = cuelog("report", "clock", "--db", str(db), "--json", "--by", "match")
    over_results = cuelog("report", "clock", "--results", str(out), "--json", "--by", "match")
    assert over_results.exit_code == 0, over_results.stderr
    assert over_results.stdout == over_db.stdout
    assert sum(r["shots"] for r in json.loads(over_results.stdout)["matches"]) > 100


def test_a_dataset_keeps_each_clock_log_s_shots_as_the_python_pairing_gives_them(tmp_path: Path) -> None:
    """Clock logs paired for a dataset (in DuckDB, or by the Python reader for a log with a
    spaced cell): each kept file holds the shots of docs/format.md section 5 in the Python
    pairing's order, start lines included; a malformed log is rejected and not kept."""
    rows = [
        "7,2026-05-01T14:00:09.000Z,stop",  # stray: no shot running
        "7,2026-05-01T14:00:01.000Z,start",
        "8,2026-05-01T14:00:02.000Z,start",
        "7,2026-05-01T14:00:05.000Z,pause",
        "7,2026-05-01T14:00:06.500Z,resume",
        "8,2026-05-01T14:00:04.250Z,stop",
        "7,2026-05-01T14:00:07.000Z,expire",
        "7,2026-05-01T14:00:08.000Z,stop",
        "8,2026-05-01T14:00:10.000Z,start",  # no stop
    ]
    plain = tmp_path / "plain.csv"
    plain.write_text("table,ts,event\n" + "\n".join(rows) + "\n")
    spaced = tmp_path / "spaced.csv"
    spaced.write_text("table,ts,event\n" + "\n".join(rows).replace(",stop", ", stop") + "\n")
    bad = tmp_path / "bad.csv"
    bad.write_text("table,ts,event\n7,yesterday,stop\n")
    storage = Storage.open(str(tmp_path / "data"))
    kept, rejected = keep_clocks(storage, [plain, bad, spaced], 2.0)
    assert [r.path for r in rejected] == [str(bad)]
    for k, path in zip(kept, (plain, spaced), strict=True):
        _, read, _ = read_clock_csv(path)
        shots, unplaced = pair_shots(read)
        assert (k.path, k.rows, k.shots, k.unplaced) == (str(path), len(read), len(shots), unplaced)
        table = storage.read_table(CLOCK_SHOTS, f"{k.file_hash[:16]}.parquet")
        names = ("table", "start_line", "stop_line", "stop_ts", "stop_text", "shot_s", "paused_s", "limit_s")
        assert list(zip(*(table.column(n).to_pylist() for n in names), strict=True)) == [
            (s.table, s.start_line, s.stop_line, s.stop_ts, s.stop_text, s.shot_s, s.paused_s, s.limit_s) for s in shots
        ]
    assert [u.reason for u in kept[0].unplaced] == ["stop_without_start", "no_stop"]


def _started_earlier(source: Path, dest: Path, seconds: int) -> Path:
    """A copy of a clock log whose shots start ``seconds`` earlier: the same stops, so the
    same strokes, with other shot times."""
    out = [source.read_text(encoding="utf-8").splitlines()[0]]
    for line in source.read_text(encoding="utf-8").splitlines()[1:]:
        table, ts, event = line.split(",")
        if event == "start":
            ts = (datetime.fromisoformat(ts) - timedelta(seconds=seconds)).isoformat(timespec="milliseconds")
            ts = ts.replace("+00:00", "Z")
        out.append(f"{table},{ts},{event}")
    dest.write_text("\n".join(out) + "\n", encoding="utf-8")
    return dest


def test_two_clock_logs_of_the_same_strokes_the_last_by_content_digest_gives_the_reading(
    clocked: Path, tmp_path: Path
) -> None:
    # A later clock load replaces an earlier reading of a stroke in a database; a dataset
    # takes its logs in the order of their content digests, whatever batch brought them.
    logs = sorted((clocked / "logs").glob("*.jsonl"))
    first = sorted((clocked / "clocks").glob("*.csv"))[0]
    second = _started_earlier(first, tmp_path / "again.csv", 1)
    by_digest = sorted([first, second], key=lambda p: hashlib.sha256(p.read_bytes()).hexdigest())
    db = tmp_path / "in-digest-order.duckdb"
    ingest(db, *logs)
    for clock in by_digest:
        ingest(db, clock)
    con = connect(db, read_only=True)
    try:
        expected = sorted(con.execute("SELECT * FROM shot_clock WHERE source <> 'record'").fetchall(), key=repr)
    finally:
        con.close()
    last = hashlib.sha256(by_digest[-1].read_bytes()).hexdigest()
    assert len(expected) > 20 and {r[6] for r in expected} == {last}

    one, other = tmp_path / "one", tmp_path / "other"
    ingest_parquet(one, *logs, clocks=(by_digest[0],))
    ingest_parquet(one, clocks=(by_digest[1],))
    ingest_parquet(other, *logs, clocks=(by_digest[1],))
    ingest_parquet(other, clocks=(by_digest[0],))
    assert clock_rows(one) == clock_rows(other) == expected
    clocks_files = [
        {k: v for k, v in tree(d, ("shot_clock",)).items() if k.endswith(CLOCKS_FILE)} for d in (one, other)
    ]
    assert clocks_files[0] == clocks_files[1]


def _later(log: Path, dest: Path, seconds: int) -> Path:
    """A correction of a match log: every time in it ``seconds`` later (the same match id)."""
    text = re.sub(
        r'"t": ?"([^"]+)"',
        lambda m: (
            '"t":"'
            + (datetime.fromisoformat(m.group(1)) + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")
            + '"'
        ),
        log.read_text(encoding="utf-8"),
    )
    dest.write_text(text.replace("+00:00", "Z"), encoding="utf-8")
    return dest


def _aligned_from_scratch(data: Path, scratch: Path) -> dict[str, bytes]:
    """The shot clock and the saved placements of a copy of the dataset whose every kept log
    is aligned again (none saved)."""
    shutil.copytree(data, scratch)
    shutil.rmtree(scratch / CLOCK_PLACED, ignore_errors=True)
    realign(Storage.open(str(scratch)))
    return tree(scratch, ("shot_clock", CLOCK_PLACED))


def test_a_write_aligns_again_only_the_clock_logs_it_can_change_and_gives_what_aligning_all_gives(
    clocked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Six matches on four tables over two days (tables 1 and 2 play both days), a clock log
    # a table spanning its days. A write aligns again the logs it keeps, and the logs whose
    # shots its strokes come near or that placed a shot on a match it replaces; the others'
    # placements are read back. Whatever it aligned, the dataset must be what aligning every
    # log from scratch gives.
    logs = sorted((clocked / "logs").glob("*.jsonl"))
    clocks = tuple(sorted((clocked / "clocks").glob("*.csv")))
    assert [c.name for c in clocks] == ["snooker-1.csv", "snooker-2.csv", "snooker-3.csv", "snooker-4.csv"]
    aligned: list[list[str]] = []
    align_all = distributed_clocks._align_all

    def spy(con: object, storage: Storage, logs: list[object], only: list[int]) -> object:
        shots = [distributed_clocks._shots(storage, logs[i]) for i in only]  # type: ignore[arg-type]
        aligned.append(sorted(Path(table.column("path")[0].as_py()).name for table in shots))
        return align_all(con, storage, logs, only)  # type: ignore[arg-type]

    monkeypatch.setattr(distributed_clocks, "_align_all", spy)
    again = _started_earlier(clocks[0], tmp_path / "again.csv", 1)
    (tmp_path / "corrected").mkdir()
    corrected = _later(logs[4], tmp_path / "corrected" / logs[4].name, 2 * 86_400)
    data = tmp_path / "data"
    batches: list[tuple[list[str], list[str]]] = [
        ([*map(str, logs[:4]), *map(str, clocks)], []),  # day 1's matches and every log
        (list(map(str, logs[4:])), []),  # day 2's matches: tables 1 and 2
        ([str(again)], []),  # another log of table 1
        # A match of table 1 replaced, played two days later: no log's shots are near its strokes
        # now, but two logs placed shots on its old ones.
        ([str(corrected)], ["--replace"]),
    ]
    expected = [
        sorted(c.name for c in clocks),
        ["snooker-1.csv", "snooker-2.csv"],
        ["again.csv"],
        ["again.csv", "snooker-1.csv"],
    ]
    for number, ((paths, extra), want) in enumerate(zip(batches, expected, strict=True)):
        aligned.clear()
        ran = cuelog("ingest", *paths, "--parquet", str(data), "--partitions", "3", "--json", *extra)
        assert ran.exit_code == 0, ran.stdout + ran.stderr
        assert aligned == [want], number
        assert tree(data, ("shot_clock", CLOCK_PLACED)) == _aligned_from_scratch(data, tmp_path / f"scratch{number}")
    assert clock_rows(data) != []


def test_saved_placements_that_do_not_describe_their_log_are_aligned_again(
    clocked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A placements file of another version (or written before the version was kept) is not
    # trusted: its log is read and aligned again by the next write.
    logs = sorted((clocked / "logs").glob("*.jsonl"))
    clocks = tuple(sorted((clocked / "clocks").glob("*.csv")))
    data = tmp_path / "data"
    ingest_parquet(data, *logs, clocks=clocks)
    (placements,) = [p for p in (data / CLOCK_PLACED).iterdir() if p.name == f"{_digest(clocks[3])[:16]}.parquet"]
    pq.write_table(pq.read_table(placements).replace_schema_metadata(None), placements)
    aligned: list[int] = []
    align_all = distributed_clocks._align_all

    def spy(con: object, storage: Storage, logs: list[object], only: list[int]) -> object:
        aligned.append(len(only))
        return align_all(con, storage, logs, only)  # type: ignore[arg-type]

    monkeypatch.setattr(distributed_clocks, "_align_all", spy)
    ingest_parquet(data, clocks=(_started_earlier(clocks[0], tmp_path / "again.csv", 1),))
    assert aligned == [2]  # the new log, and the one whose placements said nothing
    assert tree(data, ("shot_clock", CLOCK_PLACED)) == _aligned_from_scratch(data, tmp_path / "scratch")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
