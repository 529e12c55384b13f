"""Shot clocks kept in a Parquet dataset and aligned over all of it, whatever the batch.

An archive written batch by batch (``cuelog ingest LOGS --clock CSV --parquet DIR``, once a
day or an event) may get a clock log in another batch than the strokes it times: a device
log spanning two days, or uploaded after the logs. So the dataset keeps each clock log's
paired shots (``clock_shots/<digest>.parquet``, named by the file's content: the same log
again is the same file) and, after every write, the kept clocks stand aligned with every
stroke of the dataset by the same rules and code as a database load (``cuelog.store.clocks``,
over the strokes DuckDB reads from the dataset's views: to the nearest stroke on the same
table, within the tolerance the log was given with).
The result is ``shot_clock/part=.../clocks.parquet`` in each partition, whose readings win
over the exports' own for the same stroke (``layout.read_clock``), as a later clock load
replaces an earlier reading in a database. Logs are aligned in the order of their content
digests, a later one replacing an earlier one's reading of a stroke: the same dataset gives
the same bytes whatever order its batches came in.

What each log placed, aligned on its own, is kept too (``clock_placed/<digest>.parquet``):
a log's placements depend only on its shots and the strokes near them, and which log's
reading a stroke keeps is decided after, over every log's placements. So a write aligns
again only the logs it keeps and those it can change (its strokes near their shots, or a
match it replaces that held a shot of theirs: :func:`_to_align`), reads the others'
placements back, and rewrites the ``clocks.parquet`` files, streamed from DuckDB a
partition at a time (no stroke and no reading becomes a Python object). A dataset aligned
this way, write by write, is the one aligning every log from scratch gives
(``tests/distributed/test_dataset_writes.py``). A log spanning the whole archive is aligned
again by every write whose strokes fall in its span.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from cuelog.distributed.layout import (
    CLOCKS_FILE,
    LOADED,
    Storage,
    by_partition,
    part_name,
    partition_of,
    partitions_present,
    read_manifest,
)
from cuelog.distributed.views import duck_path, loaded_views
from cuelog.ingest.clock import ClockResult, paired_batches
from cuelog.ingest.device import Unplaced
from cuelog.store import clocks as store_clocks
from cuelog.store.arrow import rows_table
from cuelog.store.loads import SHOT_CLOCK_SCHEMA

CLOCK_SHOTS = "clock_shots"
"""The directory of the kept clock logs' shots, one file per log."""

CLOCK_PLACED = "clock_placed"
"""The directory of what each kept clock log placed, aligned on its own over the dataset's
strokes (one file per log, named as its shots' file): a later write aligns again only the
logs it can change (:func:`_to_align`)."""

PLACED_SCHEMA = store_clocks.PLACED_SCHEMA
"""A log's placed shots, one a stroke, in match, frame and stroke order: the store's shot
clock rows without their source (the log is the file)."""

SHOTS_SCHEMA = pa.schema(
    [
        ("source", pa.string()),
        ("path", pa.string()),
        ("tolerance_s", pa.float64()),
        ("table", pa.string()),
        ("start_line", pa.int64()),
        ("stop_line", pa.int64()),
        ("stop_ts", pa.int64()),
        ("stop_text", pa.string()),
        ("shot_s", pa.float64()),
        ("paused_s", pa.float64()),
        ("limit_s", pa.float64()),
    ]
)

# The aligned readings have the shape of the store's shot_clock table.
ALIGNED_SCHEMA = SHOT_CLOCK_SCHEMA


@dataclass(frozen=True, slots=True)
class Placed:
    """What the alignment over the dataset made of one kept clock log."""

    aligned: int
    left_over: list[Unplaced]


def _file(file_hash: str) -> str:
    return f"{file_hash[:16]}.parquet"


def _strokes(storage: Storage) -> duckdb.DuckDBPyConnection | None:
    """Views over the dataset's matches and strokes (None: no stroke yet, a clock-only batch)."""
    if not partitions_present(storage, "strokes"):
        return None
    return loaded_views(storage.url, ("matches", "strokes"), unfinished_ok=True)


_READINGS = "cuelog_clock_readings"
"""The temporary table of every placed shot of every kept log, by the log's position."""

_BY_PART = "cuelog_clock_parts"
"""The registered table of the partition of each match with a reading."""

_SOURCES = "cuelog_clock_sources"
"""The registered table of each kept log's position and content hash."""

# One reading per stroke: the latest log's in digest order (its position), as a later
# clock load replaces an earlier reading in a database; by partition, then match, frame
# and stroke, the order of each partition's file.
_WINNERS = f"""
SELECT r.match_id, r.frame, r.n, r.shot_s, r.paused_s, r.limit_s, s.source, p.part
FROM {_READINGS} r JOIN {_SOURCES} s USING (log_no) JOIN {_BY_PART} p USING (match_id)
QUALIFY row_number() OVER (PARTITION BY r.match_id, r.frame, r.n ORDER BY r.log_no DESC) = 1
ORDER BY p.part, r.match_id, r.frame, r.n
"""


@dataclass(slots=True)
class _Log:
    """A kept clock log as a realignment needs it: its file in :data:`CLOCK_SHOTS`, content
    hash and tolerance, the first and last stop of its shots on each table (epoch
    microseconds), and its shots when it is to be aligned (read then: the other logs' facts
    come from the file of their saved placements, whose size is theirs, not their shots')."""

    name: str
    source: str
    tolerance_s: float
    spans: list[tuple[str, int, int]]
    shots: pa.Table | None = None


_LOG_KEY = b"cuelog_clock_log"
"""The key, in the metadata of a log's saved placements, of its source, tolerance and spans."""


def _read_log(storage: Storage, name: str) -> _Log | None:
    """A kept log with its shots (None when it kept none)."""
    shots = storage.read_table(CLOCK_SHOTS, name)
    if not shots.num_rows:
        return None
    spans = shots.group_by("table").aggregate([("stop_ts", "min"), ("stop_ts", "max")]).sort_by("table")
    rows = zip(*(spans.column(c).to_pylist() for c in ("table", "stop_ts_min", "stop_ts_max")), strict=True)
    source, tolerance = shots.column("source")[0].as_py(), shots.column("tolerance_s")[0].as_py()
    return _Log(name, str(source), float(tolerance), [(str(t), int(lo), int(hi)) for t, lo, hi in rows], shots)


_SAVED_VERSION = 1
"""The version of the saved placements: files of another (or none) are aligned again."""


def _saved_log(storage: Storage, name: str) -> _Log | None:
    """A kept log as its saved placements describe it, without its shots; None when they
    do not say (an older file: the log is read and aligned again)."""
    metadata = storage.read_schema(CLOCK_PLACED, name).metadata or {}
    meta = json.loads(metadata.get(_LOG_KEY, b"{}"))
    if meta.get("version") != _SAVED_VERSION:
        return None
    return _Log(name, meta["source"], meta["tolerance_s"], [(t, lo, hi) for t, lo, hi in meta["spans"]])


def _logs(storage: Storage, saved_ok: bool, fresh: set[str]) -> list[_Log]:
    """The kept logs in digest order (each log's position is its ``log_no``): with
    ``saved_ok``, those with saved placements and not kept by this write (``fresh``) as their
    saved placements describe them, the others with their shots."""
    names = sorted(n for n in storage.listdir(CLOCK_SHOTS) if n.endswith(".parquet"))
    saved = set(storage.listdir(CLOCK_PLACED)) if saved_ok else set()
    fresh_names = {_file(h) for h in fresh}
    logs = [
        (_saved_log(storage, n) if n in saved and n not in fresh_names else None) or _read_log(storage, n)
        for n in names
    ]
    return [log for log in logs if log is not None]


def _numbered(shots: pa.Table, log_no: int) -> pa.Table:
    """A log's kept shots as :func:`cuelog.store.clocks.align` takes them, numbered ``log_no``."""
    return shots.rename_columns({"stop_ts": "ts"}).append_column(
        "log_no", pa.array([log_no] * shots.num_rows, pa.int32())
    )


def _shots(storage: Storage, log: _Log) -> pa.Table:
    if log.shots is None:
        read = _read_log(storage, log.name)
        assert read is not None  # a log with saved placements kept shots
        log.shots = read.shots
    assert log.shots is not None
    return log.shots


def _align_all(
    con: duckdb.DuckDBPyConnection, storage: Storage, logs: list[_Log], only: list[int]
) -> dict[str, Placed]:
    """The kept clock logs at positions ``only`` (in digest order) aligned over the
    dataset's views (:mod:`cuelog.store.clocks`, the rule of a database load), the logs
    of one tolerance at a time, their placed shots left in :data:`_READINGS`: what each log
    placed, by its content hash. A log's placements depend on its own shots and on the
    strokes near them only: of two shots of one log on one stroke the nearer keeps it, and
    which log's reading a stroke keeps is decided after (:data:`_WINNERS`)."""
    by_tolerance: dict[float, list[int]] = {}
    for i in only:
        by_tolerance.setdefault(logs[i].tolerance_s, []).append(i)
    got: dict[int, store_clocks.Placed] = {}
    for tolerance, group in sorted(by_tolerance.items()):
        shots = pa.concat_tables(_numbered(_shots(storage, logs[i]), i) for i in group)
        try:
            got.update(store_clocks.align(con, shots, round(tolerance * 1e6)))
            store_clocks.keep_placed(con, _READINGS)
        finally:
            store_clocks.drop_placed(con)
    placed: dict[str, Placed] = {}
    for i in only:
        log = got.get(i) or store_clocks.Placed(aligned=0, matches=[], left_over=[])
        left = [Unplaced(line, t, text, "stop", reason) for line, t, text, reason in log.left_over]
        placed[logs[i].source] = Placed(log.aligned, left)
    return placed


# Run on the connection holding the write's matches: its strokes stay in DuckDB.
_STROKES_NEAR = """
SELECT DISTINCT sp.log_no FROM cuelog_clock_spans sp
JOIN (SELECT m.table_no AS "table", epoch_us(s.t) AS t FROM strokes s JOIN matches m USING (match_id)) b
    ON b."table" = sp."table" AND b.t BETWEEN sp.lo AND sp.hi
"""

# Run on the dataset's connection: the saved placements of the logs not read.
_ON_MATCHES = """
SELECT DISTINCT f.log_no FROM read_parquet($files, filename = true) p JOIN cuelog_clock_saved f USING (filename)
WHERE p.match_id IN (SELECT match_id FROM cuelog_clock_batch_matches)
"""


def _to_align(
    con: duckdb.DuckDBPyConnection, storage: Storage, logs: list[_Log], batch: duckdb.DuckDBPyConnection | None
) -> list[int]:
    """The positions of the kept logs to align again: every one without ``batch`` (the
    connection holding the matches this write brings, new or replacing the dataset's);
    else the logs read with their shots (kept by this write, whose results are reported,
    or with no placements saved), and those the write can change: a stroke of it on one of
    their tables within the time their shots there span, widened by their tolerance and a
    second (as :func:`cuelog.store.clocks.align` reads the strokes; a stroke farther from
    every shot of a log is neither any shot's stroke nor nearer than it), or a placed shot
    of theirs on a match it replaces (its strokes are gone: a shot may now take another,
    and one a shot of theirs kept from another may now be free). Any other log's
    placements are the same as before."""
    everything = list(range(len(logs)))
    again = {i for i in everything if logs[i].shots is not None}
    rest = [i for i in everything if i not in again]
    if batch is None or not rest:
        return everything
    batch.register("cuelog_clock_spans", _reach(logs, rest))
    try:
        reached = {int(row[0]) for row in batch.execute(_STROKES_NEAR).fetchall()}
    finally:
        batch.unregister("cuelog_clock_spans")
    files = [duck_path(storage, CLOCK_PLACED, logs[i].name) for i in rest]
    con.register("cuelog_clock_batch_matches", batch.sql("SELECT match_id FROM matches").to_arrow_table())
    con.register("cuelog_clock_saved", pa.table({"filename": files, "log_no": pa.array(rest, pa.int32())}))
    try:
        reached |= {int(row[0]) for row in con.execute(_ON_MATCHES, {"files": files}).fetchall()}
    finally:
        con.unregister("cuelog_clock_batch_matches")
        con.unregister("cuelog_clock_saved")
    return sorted(again | reached)


def _reach(logs: list[_Log], positions: list[int]) -> pa.Table:
    """Per log and table, the times of the strokes its alignment reads: its shots' span
    there, widened by its tolerance and a second each way."""
    rows = [
        (i, table, lo - margin, hi + margin)
        for i in positions
        for margin in [round(logs[i].tolerance_s * 1e6) + 1_000_000]
        for table, lo, hi in logs[i].spans
    ]
    return rows_table(_REACH_SCHEMA, rows)


_REACH_SCHEMA = pa.schema([("log_no", pa.int32()), ("table", pa.string()), ("lo", pa.int64()), ("hi", pa.int64())])


def _save_placements(con: duckdb.DuckDBPyConnection, storage: Storage, logs: list[_Log], only: list[int]) -> None:
    """Save what each of these logs placed (from :data:`_READINGS`) in :data:`CLOCK_PLACED`,
    with the log's source, tolerance and spans in the file's metadata."""
    for i in only:
        log = logs[i]
        rows = con.sql(
            f"SELECT {', '.join(PLACED_SCHEMA.names)} FROM {_READINGS} WHERE log_no = $log ORDER BY match_id, frame, n",
            params={"log": i},
        ).to_arrow_table()
        meta = {"version": _SAVED_VERSION, "source": log.source, "tolerance_s": log.tolerance_s, "spans": log.spans}
        rows = rows.cast(PLACED_SCHEMA).replace_schema_metadata({_LOG_KEY: json.dumps(meta, sort_keys=True)})
        storage.write_table(rows, CLOCK_PLACED, log.name)


def _add_saved(con: duckdb.DuckDBPyConnection, storage: Storage, logs: list[_Log], only: list[int]) -> None:
    """Add the saved placements of these logs to :data:`_READINGS`, under their positions."""
    if not only:
        return
    files = [duck_path(storage, CLOCK_PLACED, logs[i].name) for i in only]
    con.register("cuelog_clock_saved", pa.table({"filename": files, "log_no": pa.array(only, pa.int32())}))
    try:
        cols = ", ".join(f"p.{name}" for name in PLACED_SCHEMA.names)
        con.execute(
            f"INSERT INTO {_READINGS} SELECT f.log_no, {cols} FROM read_parquet($files, filename = true) p"
            " JOIN cuelog_clock_saved f USING (filename)",
            {"files": files},
        )
    finally:
        con.unregister("cuelog_clock_saved")


def _no_stroke(shots: pa.Table) -> Placed:
    """A kept log's shots when the dataset has no stroke yet: none placed."""
    rows = zip(*(shots.column(c).to_pylist() for c in ("stop_line", "table", "stop_text")), strict=True)
    return Placed(0, [Unplaced(line, t, text, "stop", "no_stroke") for line, t, text in rows])


def _write_readings(con: duckdb.DuckDBPyConnection, storage: Storage, logs: list[_Log], partitions: int) -> set[int]:
    """Write each partition's ``clocks.parquet`` from :data:`_READINGS` (one reading per
    stroke), streamed from DuckDB a partition at a time; the partitions written."""
    ids = [row[0] for row in con.execute(f"SELECT DISTINCT match_id FROM {_READINGS}").fetchall()]
    # The partition of a match is a hash Python computes (layout.partition_of): once a match.
    parts = pa.array([partition_of(m, partitions) for m in ids], pa.int32())
    con.register(_BY_PART, pa.table({"match_id": pa.array(ids, pa.string()), "part": parts}))
    sources = [log.source for log in logs]
    con.register(_SOURCES, pa.table({"log_no": pa.array(range(len(logs)), pa.int32()), "source": sources}))
    try:
        reader = con.sql(_WINNERS).to_arrow_reader(65_536)
        return {_write_part(storage, part, readings) for part, readings in by_partition(reader)}
    finally:
        con.unregister(_BY_PART)
        con.unregister(_SOURCES)


def _write_part(storage: Storage, part: int, readings: pa.Table) -> int:
    storage.write_table(readings.combine_chunks().cast(ALIGNED_SCHEMA), "shot_clock", part_name(part), CLOCKS_FILE)
    return part


def realign(
    storage: Storage, batch: duckdb.DuckDBPyConnection | None = None, fresh: Sequence[str] = ()
) -> dict[str, Placed]:
    """Align the dataset's kept clock logs with all its strokes and write each partition's
    ``clocks.parquet`` (removed where no reading falls); what each log aligned now placed,
    by content hash. Nothing to do (and nothing read) when the dataset keeps no clock log.

    ``batch`` is the connection holding the matches this write brought and ``fresh`` the
    content hashes of the logs it kept: only the logs the write can change are aligned
    again (:func:`_to_align`), the others' placements are read from their saved files;
    without ``batch``, every log is. The readings stay in DuckDB and are written a
    partition at a time: no reading is held in Python."""
    if not storage.listdir(CLOCK_SHOTS):  # (``--overwrite`` removes the aligned files with the kept logs)
        return {}
    partitions = read_manifest(storage, LOADED, unfinished_ok=True)
    logs = _logs(storage, batch is not None, set(fresh))
    con = _strokes(storage) if logs else None
    if con is None:  # no stroke in the dataset yet (or no shot kept): nothing placed
        storage.delete_dir(CLOCK_PLACED)
        placed, written = {log.source: _no_stroke(_shots(storage, log)) for log in logs}, set()
    else:
        try:
            store_clocks.create_placed(con, _READINGS)
            again = _to_align(con, storage, logs, batch)
            placed = _align_all(con, storage, logs, again)
            _save_placements(con, storage, logs, again)
            aligned = set(again)
            _add_saved(con, storage, logs, [i for i in range(len(logs)) if i not in aligned])
            written = _write_readings(con, storage, logs, partitions)
        finally:
            con.close()
    for part in partitions_present(storage, "shot_clock"):
        if part not in written:
            storage.delete_file("shot_clock", part_name(part), CLOCKS_FILE)
    return placed


@dataclass(frozen=True, slots=True)
class Kept:
    """A clock log read and paired, before the alignment over the dataset."""

    path: str
    file_hash: str
    rows: int
    shots: int
    unplaced: list[Unplaced]


def keep_clocks(storage: Storage, paths: Sequence[Path], tolerance_s: float) -> tuple[list[Kept], list[ClockResult]]:
    """Read and pair each clock log and keep its shots in the dataset; the logs kept, and a
    result for each log rejected (a malformed row: the log is not kept, as with a database).
    The logs are paired as a database load pairs them (:func:`cuelog.ingest.clock.paired_batches`:
    plain logs together in DuckDB, in batches), each log's shots in the order the Python
    pairing gives them (table, stop time, stop line)."""
    kept: list[Kept] = []
    rejected: list[ClockResult] = []
    for batch in paired_batches(paths):
        by_log = _split_by_log(batch.shots, len(batch.found))
        for log_no, f in enumerate(batch.found):
            if f.problems or f.file_hash is None:
                rejected.append(ClockResult(f.name, f.file_hash, "rejected", f.rows, 0, 0, [], f.problems))
                continue
            storage.write_table(
                _kept_table(by_log[log_no], f.file_hash, f.name, tolerance_s), CLOCK_SHOTS, _file(f.file_hash)
            )
            kept.append(Kept(f.name, f.file_hash, f.rows, f.shots, f.unplaced))
    return kept, rejected


def _split_by_log(shots: pa.Table, logs: int) -> list[pa.Table]:
    """The shots of each log of a batch (as :func:`cuelog.ingest.clock.pair_batch` gives them, by log number)."""
    counts = dict(zip(*(c.to_pylist() for c in pc.value_counts(shots.column("log_no")).flatten()), strict=True))
    out: list[pa.Table] = []
    offset = 0
    for log_no in range(logs):
        n = counts.get(log_no, 0)
        out.append(shots.slice(offset, n))
        offset += n
    return out


def _kept_table(shots: pa.Table, file_hash: str, path: str, tolerance_s: float) -> pa.Table:
    """A log's shots as the dataset keeps them (:data:`SHOTS_SCHEMA`)."""
    n = shots.num_rows
    columns = {
        "source": pa.array([file_hash] * n, pa.string()),
        "path": pa.array([path] * n, pa.string()),
        "tolerance_s": pa.array([tolerance_s] * n, pa.float64()),
        "stop_ts": shots.column("ts"),
        **{name: shots.column(name) for name in SHOTS_SCHEMA.names if name in shots.column_names},
    }
    return pa.table([columns[name] for name in SHOTS_SCHEMA.names], schema=SHOTS_SCHEMA)


def results(kept: Sequence[Kept], placed: dict[str, Placed]) -> list[ClockResult]:
    """What each kept log gave once aligned over the dataset, as a database load reports it."""
    out = []
    for k in kept:
        got = placed.get(k.file_hash, Placed(0, []))
        unplaced = sorted(k.unplaced + got.left_over, key=lambda u: u.line)
        out.append(ClockResult(k.path, k.file_hash, "loaded", k.rows, k.shots, got.aligned, unplaced, []))
    return out
