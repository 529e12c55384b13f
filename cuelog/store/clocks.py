"""Shot-clock writes: device shots aligned to the loaded strokes and stored in DuckDB.

Ingest pairs the device logs of a run into shots (``cuelog.ingest.clockdb``, or the
Python reader for a log it leaves; :data:`SHOTS_SCHEMA`: one row per shot, the log's number
in the run, the table, the stop's time in epoch microseconds, the lines of its start and
stop, the stop's text, the shot's times). :func:`align` places each shot on the stroke on
the same table (the match record's ``table``) whose time is nearest, within the tolerance
(:mod:`cuelog.store.nearest`, over the shots and the strokes of the tables they name and of
the time they span, read as Arrow columns); :func:`save` stores the placed shots in
``shot_clock`` with one ``DELETE`` (when a stored reading can be replaced) and one ``INSERT
... SELECT`` and records each log in ``ingest_log``. No stroke and no shot becomes a Python
object; what comes back is one row per log and one per shot left over (docs/ingest.md,
"Shot-clock device logs").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from cuelog.store import nearest, summaries
from cuelog.store.loads import SHOT_CLOCK_SCHEMA, loaded_files, log_files

SHOTS_SCHEMA = pa.schema(
    [
        ("log_no", pa.int32()),
        ("table", pa.string()),
        ("ts", pa.int64()),
        ("start_line", pa.int64()),
        ("stop_line", pa.int64()),
        ("stop_text", pa.string()),
        ("shot_s", pa.float64()),
        ("paused_s", pa.float64()),
        ("limit_s", pa.float64()),
    ]
)
"""A paired shot: the device log's number in its batch, the table, the stop's time in
epoch microseconds, the lines of its start and stop, the stop's text, the shot's times."""

_ALIGNED = "cuelog_clock_aligned"
"""A batch's shots as :func:`align` placed them (:data:`cuelog.store.nearest.ALIGNED_SCHEMA`),
an Arrow table registered on the connection, which :func:`save` stores."""

# The strokes a shot can reach: on a table some shot names, within the time the shots span
# (constants, so that DuckDB skips the row groups of other days).
_NEAR = """
SELECT m.table_no AS "table", epoch_us(s.t) AS t, s.match_id, s.frame, s.n
FROM strokes s JOIN matches m USING (match_id)
WHERE list_contains($tables, m.table_no) AND s.t BETWEEN to_timestamp($lo) AND to_timestamp($hi)
"""

_SHOT_COLUMNS = ", ".join(SHOT_CLOCK_SCHEMA.names)


@dataclass(frozen=True, slots=True)
class Placed:
    """What the alignment made of one log's shots: how many were placed on a stroke, the
    matches of those strokes (sorted), and each shot left over as ``(line, table, stop
    text, reason)`` in line order."""

    aligned: int
    matches: list[str]
    left_over: list[tuple[int, str, str, str]]


@dataclass(frozen=True, slots=True)
class ClockFile:
    """A device log whose placed shots are stored: its number in the run and its
    ``ingest_log`` entry (content hash, path, the matches it placed shots on, rows)."""

    log_no: int
    file_hash: str
    name: str
    matches: list[str]
    lines: int


def _create_temp(con: duckdb.DuckDBPyConnection, name: str, schema: pa.Schema) -> None:
    cols = ", ".join(f'"{f.name}" {_SQL_TYPES[f.type]}' for f in schema)
    con.execute(f"CREATE OR REPLACE TEMP TABLE {name} ({cols})")


_SQL_TYPES = {pa.int32(): "INTEGER", pa.int64(): "BIGINT", pa.string(): "VARCHAR", pa.float64(): "DOUBLE"}

PLACED_SCHEMA = pa.schema([f for f in SHOT_CLOCK_SCHEMA if f.name != "source"])
"""A placed shot, one a stroke: the store's shot clock row without its source."""

_KEPT_SCHEMA = pa.schema([("log_no", pa.int32()), *PLACED_SCHEMA])
"""The placed shots :func:`keep_placed` adds, by the log's number."""


def create_placed(con: duckdb.DuckDBPyConnection, table: str) -> None:
    """A fresh, empty temporary table ``table`` for :func:`keep_placed`: ``log_no`` and the
    columns of :data:`PLACED_SCHEMA`."""
    _create_temp(con, table, _KEPT_SCHEMA)


def stored_matches(con: duckdb.DuckDBPyConnection) -> set[str]:
    """Before a run's first :func:`save`: the matches the shot clock holds readings of, in
    one scan, so that a batch placing shots on none of them (on a first load, every batch)
    skips the ``DELETE`` of replaced readings, which scans the stored shot clock
    (benchmarks/README.md, "The clocks' statements at 10M"). :func:`save` adds the matches
    it stores readings of. Held in Python, not in a temporary table, so that batches may be
    stored on more than one connection (a cursor each)."""
    return {match_id for (match_id,) in con.execute("SELECT DISTINCT match_id FROM shot_clock").fetchall()}


def drop_placed(con: duckdb.DuckDBPyConnection) -> None:
    """Forget the shots :func:`align` placed on this connection."""
    con.unregister(_ALIGNED)


def align(con: duckdb.DuckDBPyConnection, shots: pa.Table, tolerance_us: int) -> dict[int, Placed]:
    """Align ``shots`` (:data:`SHOTS_SCHEMA`, any column order) to the strokes (read-only on
    the store's tables), for :func:`save`: what each log gave, by log number (a log with no
    shot is absent). DuckDB reads the strokes near them as Arrow columns;
    :func:`cuelog.store.nearest.placed` applies the rule to both."""
    shots = shots.select(SHOTS_SCHEMA.names).cast(SHOTS_SCHEMA)
    first, last = (pc.min(shots.column("ts")).as_py() or 0), (pc.max(shots.column("ts")).as_py() or 0)
    # The span of the stops, widened by the tolerance and a second each way (``to_timestamp``
    # takes seconds as a double); only the gap decides what is near enough.
    strokes = con.sql(
        _NEAR,
        params={
            "tables": pc.unique(shots.column("table")).to_pylist(),
            "lo": (first - tolerance_us) / 1e6 - 1,
            "hi": (last + tolerance_us) / 1e6 + 1,
        },
    ).to_arrow_table()
    # Registered, not copied into a table: DuckDB reads the Arrow columns where they are.
    con.register(_ALIGNED, nearest.placed(shots, strokes, tolerance_us))
    placed = {
        log_no: Placed(aligned=int(n), matches=sorted(ms or []), left_over=[])
        for log_no, n, ms in con.execute(
            f"SELECT log_no, count(*) FILTER (reason IS NULL), list(DISTINCT match_id) FILTER (reason IS NULL)"
            f" FROM {_ALIGNED} GROUP BY log_no"
        ).fetchall()
    }
    for log_no, line, table, text, reason in con.execute(
        f'SELECT log_no, stop_line, "table", stop_text, reason FROM {_ALIGNED}'
        " WHERE reason IS NOT NULL ORDER BY log_no, stop_line"
    ).fetchall():
        placed[log_no].left_over.append((line, table, text, reason))
    return placed


def keep_placed(con: duckdb.DuckDBPyConnection, table: str) -> None:
    """Add every shot :func:`align` placed to the caller's table ``table`` (made by
    :func:`create_placed`), so that a Parquet dataset's alignment, which writes its own
    files, keeps the readings of several runs in DuckDB instead of in Python."""
    cols = ", ".join(f'"{name}"' for name in _KEPT_SCHEMA.names)
    con.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM {_ALIGNED} WHERE reason IS NULL")


def save(con: duckdb.DuckDBPyConnection, files: Sequence[ClockFile], held: set[str]) -> None:
    """Store the placed shots of these logs and record the logs, inside the caller's
    transaction, with one ``DELETE`` (when a reading can be replaced) and one ``INSERT``:
    the rows that storing each log in turn leaves (a newer reading of a stroke replaces the
    older: one row per match, frame and stroke; each log's rows in match, frame and stroke
    order). ``held``: the matches the shot clock holds readings of (:func:`stored_matches`),
    which this adds to. (Were the transaction rolled back, it would hold a match too many:
    a ``DELETE`` that finds nothing to replace, never one left out.)"""
    if not files:
        return
    logs = f"list_contains({[f.log_no for f in files]}, log_no)"
    keys = f"SELECT DISTINCT match_id, frame, n FROM {_ALIGNED} WHERE reason IS NULL AND {logs}"
    # The matches these logs place readings on, read once: for the DELETE, the run's note
    # and the shot summaries.
    placed = con.sql(f"SELECT DISTINCT match_id FROM {_ALIGNED} WHERE reason IS NULL AND {logs}").to_arrow_table()
    con.register("cuelog_clock_placed", placed)
    try:
        # A reading can be replaced only on a match the shot clock holds readings of.
        placed_ids = set(placed.column("match_id").to_pylist())
        if not held.isdisjoint(placed_ids):
            # The stored clock's rows sifted by their match alone first (a few hundred ids),
            # so that only those are looked up by match, frame and stroke: at 10M strokes 70
            # ms against 125 a batch (benchmarks/README.md, "The clocks' statements at 10M").
            con.execute(
                f"DELETE FROM shot_clock USING ({keys}) k"
                " WHERE shot_clock.match_id IN (SELECT match_id FROM cuelog_clock_placed)"
                " AND shot_clock.match_id = k.match_id AND shot_clock.frame = k.frame AND shot_clock.n = k.n"
            )
        held |= placed_ids
    finally:
        con.unregister("cuelog_clock_placed")
    # The latest log's reading of each stroke, in the order of storing each log in turn: the
    # alignment gave the rows in log and stroke order (DuckDB keeps it: no ORDER BY, no join;
    # 0.74x the time of both at 1M) and marked the latest readings. Each log's source is
    # looked up by its number.
    sources: list[str | None] = [None] * (max(f.log_no for f in files) + 1)
    for f in files:
        sources[f.log_no] = f.file_hash
    columns = ", ".join("$sources[log_no + 1]" if c == "source" else c for c in SHOT_CLOCK_SCHEMA.names)
    con.execute(
        f"INSERT INTO shot_clock ({_SHOT_COLUMNS}) SELECT {columns} FROM {_ALIGNED} WHERE latest AND {logs}",
        {"sources": sources},
    )
    # The replayed matches' shot times for the reports, in this transaction (summaries.py).
    summaries.refresh_shots(con, placed.column("match_id"))
    _log_files(con, files)


def _log_files(con: duckdb.DuckDBPyConnection, files: Sequence[ClockFile]) -> None:
    """The ``ingest_log`` entries of :func:`save`: new files in one insert, a changed list
    of matches updated, as recording each file in turn does (the same bytes under a second
    name keep the first name)."""
    held = {h: sorted(m) for h, (m, _) in loaded_files(con, [f.file_hash for f in files]).items()}
    new: dict[str, tuple[str, list[str], int]] = {}
    changed: dict[str, list[str]] = {}
    for f in files:
        if f.file_hash not in held:
            new[f.file_hash] = (f.name, f.matches, f.lines)
        elif held[f.file_hash] != f.matches:
            changed[f.file_hash] = f.matches
        held[f.file_hash] = f.matches
    for file_hash, match_ids in changed.items():
        if file_hash in new:
            new[file_hash] = (new[file_hash][0], match_ids, new[file_hash][2])
        else:
            con.execute("UPDATE ingest_log SET matches = ? WHERE file_hash = ?", [match_ids, file_hash])
    log_files(con, [(file_hash, path, match_ids, lines) for file_hash, (path, match_ids, lines) in new.items()])
