"""Ingest's writes: a file's rows published in one transaction; shot-clock rows.

A file's rows (Arrow tables, or for a large log readers streaming them from the files
they were spooled to while it was read: :mod:`cuelog.ingest.spool`) are published with
the file's ``matches`` rows and its ``ingest_log`` entry in one transaction: a file is
loaded completely or not at all. A replaced match's rows go in the same transaction.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from cuelog.schemas.records import Match
from cuelog.store import summaries
from cuelog.store.arrow import joined, rows_table
from cuelog.store.reads import in_file_order
from cuelog.store.settings import SettingHeld

if TYPE_CHECKING:  # the connection is the caller's: an ingest worker builds rows without DuckDB
    import duckdb

# Tables that hold a match's rows; a replaced match is removed from each of them. The
# replay tables are derived from the records, so they go too, every generation (a new replay
# rebuilds them).
MATCH_TABLES = (
    "records",
    "strokes",
    "shot_clock",
    "replay_frames_rows",
    "replay_strokes_rows",
    "replay_breaks_rows",
    "replay_findings_rows",
    "replay_corrections_rows",
    "replay_stroke_details_rows",
    "replay_current",
    *summaries.SUMMARY_TABLES,
    "matches",
)

RECORDS_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("seq", pa.int32()),
        ("line", pa.int32()),
        ("type", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("body", pa.string()),
    ]
)
STROKES_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("striker", pa.string()),
        ("t", pa.timestamp("us", tz="UTC")),
        ("first", pa.list_(pa.string())),
        ("potted", pa.list_(pa.string())),
        ("nominated", pa.string()),
        ("foul_called", pa.bool_()),
        ("points_called", pa.int32()),
        ("miss_called", pa.bool_()),
        ("free_ball_called", pa.bool_()),
        ("score_a", pa.int32()),
        ("score_b", pa.int32()),
        ("break_", pa.int32()),
    ]
)
SHOT_CLOCK_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("shot_s", pa.float64()),
        ("paused_s", pa.float64()),
        ("limit_s", pa.float64()),
        ("source", pa.string()),
    ]
)


VACUUM_TASKS = 2
"""Row-group merges (DuckDB's vacuum tasks, ``max_vacuum_tasks``) a checkpoint may run while
ingest loads: DuckDB's default of 100 holds every merge's row groups in memory at once, and
an automatic checkpoint during a large load took 1.7-2.7 s and 700 MB more (benchmarks/README.md,
"Ingest at 10M: the checkpoints' merges bounded")."""


@contextlib.contextmanager
def vacuum_bounded(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """At most :data:`VACUUM_TASKS` vacuum tasks a checkpoint while this runs, the last
    checkpoint included (made here, not when the database is closed), and the setting as it
    was after (it is the database's, not the connection's)."""
    with SettingHeld(con, "max_vacuum_tasks", lambda before: min(int(before), VACUUM_TASKS)):
        yield
        con.execute("CHECKPOINT")


def first_row(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]) -> tuple[Any, ...] | None:
    """The first row of a query, or None. Fetches the whole result: DuckDB 2 refuses new
    work on a connection while a result is still unfinished."""
    rows = con.execute(sql, params).fetchall()
    return rows[0] if rows else None


def insert_arrow(con: duckdb.DuckDBPyConnection, table: str, data: pa.Table | pa.RecordBatchReader) -> None:
    """Append an Arrow table (or the batches a reader streams) to a store table, by column name."""
    cols = ", ".join(data.schema.names)
    con.register("cuelog_batch", data)
    try:
        con.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM cuelog_batch")
    finally:
        con.unregister("cuelog_batch")


def delete_matches(con: duckdb.DuckDBPyConnection, ids: Sequence[str]) -> None:
    """Remove every row of those of these matches already loaded (a replacement), inside the
    caller's transaction. A ``DELETE`` scans its table, so none runs when none is loaded (a
    first load), and one a table removes them all (one a match and table took 1.86 s for a
    20-match file replaced in a store of 10M strokes, against 0.29 s)."""
    held = con.execute("SELECT match_id FROM matches WHERE list_contains(?, match_id)", [list(ids)]).fetchall()
    if not held:
        return
    con.register("cuelog_replaced", pa.table({"match_id": pa.array([m for (m,) in held], type=pa.string())}))
    try:
        for table in MATCH_TABLES:
            con.execute(f"DELETE FROM {table} WHERE match_id IN (SELECT match_id FROM cuelog_replaced)")
        # The file that loaded one no longer stands for it: loading that file again must be
        # treated as a new claim on the match id, not as a no-op.
        con.execute("DELETE FROM ingest_log WHERE list_has_any(matches, (SELECT list(match_id) FROM cuelog_replaced))")
    finally:
        con.unregister("cuelog_replaced")


MATCHES_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("rules", pa.string()),
        ("side_a", pa.string()),
        ("side_b", pa.string()),
        ("best_of", pa.int32()),
        ("event", pa.string()),
        ("date", pa.string()),
        ("venue", pa.string()),
        ("table_no", pa.string()),
        ("referee", pa.string()),
        ("file_hash", pa.string()),
        ("body", pa.string()),
    ]
)


def _match_row(m: Match, text: str, file_hash: str) -> tuple[Any, ...]:
    return (
        m.match,
        m.rules,
        m.sides.get("A", ""),
        m.sides.get("B", ""),
        m.best_of,
        m.event,
        m.date,
        m.venue,
        m.table,
        m.referee,
        file_hash,
        text,
    )


def _insert_match_rows(con: duckdb.DuckDBPyConnection, rows: list[tuple[Any, ...]]) -> None:
    if rows:
        insert_arrow(con, "matches", rows_table(MATCHES_SCHEMA, rows))


def insert_matches(con: duckdb.DuckDBPyConnection, matches: list[tuple[Match, str]], file_hash: str) -> None:
    """One ``matches`` row per match record (with its text), in one statement."""
    _insert_match_rows(con, [_match_row(m, text, file_hash) for m, text in matches])


def publish(
    con: duckdb.DuckDBPyConnection,
    name: str,
    file_hash: str,
    matches: list[tuple[Match, str]],
    records: int,
    rows: Mapping[str, pa.Table | pa.RecordBatchReader],
) -> None:
    """Put a file's rows (Arrow tables, or readers streaming them from a spool) into the
    store in one transaction, with its ``matches`` rows and its ``ingest_log`` entry."""
    con.begin()
    try:
        ids = [m.match for m, _ in matches]
        # Conflicts were refused while checking; a match id already loaded is a replacement.
        delete_matches(con, ids)
        if matches:
            insert_matches(con, matches, file_hash)
        insert_rows(con, rows)
        con.execute(
            "INSERT INTO ingest_log VALUES (?, ?, ?, ?, now())",
            [file_hash, name, [m.match for m, _ in matches], records],
        )
        con.commit()
    except BaseException:
        con.rollback()
        raise


ROW_SCHEMAS: dict[str, pa.Schema] = {
    "records": RECORDS_SCHEMA,
    "strokes": STROKES_SCHEMA,
    "shot_clock": SHOT_CLOCK_SCHEMA,
}
"""The columns of the rows ingest builds for each table it fills, in order."""


def insert_rows(con: duckdb.DuckDBPyConnection, rows: Mapping[str, pa.Table | pa.RecordBatchReader]) -> None:
    """Insert the rows of each store table (Arrow, in :data:`ROW_SCHEMAS` column order)."""
    for table in ROW_SCHEMAS:
        data = rows.get(table)
        if data is not None and (isinstance(data, pa.RecordBatchReader) or data.num_rows):
            insert_arrow(con, table, data)


def database_folder(con: duckdb.DuckDBPyConnection) -> Path | None:
    """The folder of the connection's database file (None for a database in memory)."""
    row = first_row(con, "SELECT path FROM duckdb_databases() WHERE database_name = current_database()", [])
    return Path(row[0]).resolve().parent if row is not None and row[0] else None


def loaded_file(con: duckdb.DuckDBPyConnection, file_hash: str) -> tuple[list[str], int] | None:
    """The matches and record count of a file already loaded with this content hash, or None."""
    seen = first_row(con, "SELECT matches, records FROM ingest_log WHERE file_hash = ?", [file_hash])
    return None if seen is None else (list(seen[0]), int(seen[1]))


def held_matches(con: duckdb.DuckDBPyConnection, ids: Sequence[str]) -> dict[str, tuple[str, str | None]]:
    """For each of ``ids`` already loaded: the content hash and path of the file that loaded it.

    One query for a whole file: a statement costs milliseconds, a file holds many matches.
    """
    return {
        str(row[0]): (str(row[1]), row[2])
        for row in con.execute(
            "SELECT m.match_id, m.file_hash, l.path FROM matches m "
            "LEFT JOIN ingest_log l ON l.file_hash = m.file_hash WHERE list_contains(?, m.match_id)",
            [sorted(set(ids))],
        ).fetchall()
    }


def loaded_files(con: duckdb.DuckDBPyConnection, hashes: Sequence[str]) -> dict[str, tuple[list[str], int]]:
    """For each content hash already loaded: its matches and record count (one query)."""
    if not hashes:
        return {}
    return {
        str(h): (list(m), int(n))
        for h, m, n in con.execute(
            "SELECT file_hash, matches, records FROM ingest_log WHERE list_contains(?, file_hash)",
            [sorted(set(hashes))],
        ).fetchall()
    }


@dataclass(frozen=True, slots=True)
class FileRows:
    """A checked file's rows, ready to publish: the match records with their text, and the
    rows of each table as Arrow (:data:`ROW_SCHEMAS` column order)."""

    name: str
    file_hash: str
    matches: list[tuple[Match, str]]
    records: int
    rows: Mapping[str, pa.Table]


_INGEST_LOG_SCHEMA = pa.schema(
    [("file_hash", pa.string()), ("path", pa.string()), ("matches", pa.list_(pa.string())), ("records", pa.int64())]
)

LogEntry = tuple[str, str, list[str], int]
"""An ``ingest_log`` entry: the file's hash, its path, the match ids it holds, its records (lines)."""


def log_files(con: duckdb.DuckDBPyConnection, entries: Sequence[LogEntry]) -> None:
    """Record loaded files in ``ingest_log``, one insert for all (inside the caller's transaction)."""
    if not entries:
        return
    con.register("cuelog_files", rows_table(_INGEST_LOG_SCHEMA, entries))
    try:
        con.execute("INSERT INTO ingest_log SELECT file_hash, path, matches, records, now() FROM cuelog_files")
    finally:
        con.unregister("cuelog_files")


def publish_files(con: duckdb.DuckDBPyConnection, files: Sequence[FileRows]) -> None:
    """Publish several checked files in one transaction: a statement per table for all of
    them, instead of a transaction and a dozen statements per file.

    Matches already loaded are replaced (the caller refused the conflicts). If anything
    fails, nothing of any of the files is left (the caller may retry file by file).
    """
    con.begin()
    try:
        ids = [m.match for f in files for m, _ in f.matches]
        delete_matches(con, ids)
        _insert_match_rows(con, [_match_row(m, text, f.file_hash) for f in files for m, text in f.matches])
        insert_rows(con, _merged(files))
        log_files(con, [(f.file_hash, f.name, [m.match for m, _ in f.matches], f.records) for f in files])
        con.commit()
    except BaseException:
        con.rollback()
        raise


def _merged(files: Sequence[FileRows]) -> dict[str, pa.Table]:
    """The files' rows as one Arrow table per store table, each in one chunk: a file's rows
    are part of its group's or its batch's (:class:`~cuelog.store.arrow.Ranges`), and DuckDB
    scans a table of many small chunks chunk by chunk. In file order, but the records in
    match id order: a replay reads a run of consecutive match ids at a time, which then lies
    in one stretch of each row group, not in hundreds (at 10M strokes its reads take half
    the CPU, and the records' text compresses to 0.72x; benchmarks/README.md, "Ingest: a
    group's records stored in match id order")."""
    out = {}
    for table in ROW_SCHEMAS:
        rows = joined([f.rows for f in files], table, ordered=in_file_order if table == "records" else None)
        if rows is not None:
            out[table] = rows
    return out
