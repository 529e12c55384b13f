"""Loaded matches as a Parquet dataset: the records, typed strokes and aligned shot clock.

Each partition gets one file per table and export, named by a digest of the matches it
holds and the files they came from: exporting the same matches again rewrites the same
bytes under the same name, and several exports (batches of an archive) add files side by
side. A match id already in the dataset from other content is refused, never duplicated.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

import duckdb
import pyarrow as pa

from cuelog.distributed.layout import (
    LOADED,
    LOADED_TABLES,
    MAX_PARTITIONS,
    DatasetError,
    Storage,
    part_name,
    partition_of,
    read_manifest,
    write_manifest,
)

# Every query lists its rows by partition, then in the order the replay reads them.
_QUERIES = {
    "matches": "SELECT c.part, m.match_id, m.rules, m.side_a, m.side_b, m.best_of, m.event, m.date, m.venue, "
    "m.table_no, m.referee, m.file_hash, CAST(m.body AS VARCHAR) AS body, c.path "
    "FROM matches m JOIN export_chosen c USING (match_id) ORDER BY c.part, m.match_id",
    "records": "SELECT c.part, r.match_id, r.seq, r.line, r.type, r.frame, r.n, CAST(r.body AS VARCHAR) AS body "
    "FROM records r JOIN export_chosen c USING (match_id) ORDER BY c.part, r.match_id, r.seq",
    "strokes": "SELECT c.part, s.* FROM strokes s JOIN export_chosen c USING (match_id) "
    "ORDER BY c.part, s.match_id, s.frame, s.n",
    "shot_clock": "SELECT c.part, k.* FROM shot_clock k JOIN export_chosen c USING (match_id) "
    "ORDER BY c.part, k.match_id, k.frame, k.n",
}


@dataclass(frozen=True, slots=True)
class Exported:
    """What an export wrote: matches and records, in how many partitions, where."""

    matches: int
    records: int
    partitions: int
    written: int
    """Partitions that received files."""
    url: str

    def to_dict(self) -> dict[str, object]:
        return {
            "parquet": self.url,
            "matches": self.matches,
            "records": self.records,
            "partitions": self.partitions,
            "partitions_written": self.written,
        }


def _file_name(rows: list[tuple[str, str]]) -> str:
    """The name of one export's file in one partition: a digest of its matches and their files."""
    text = "\n".join(f"{m}\t{h}" for m, h in sorted(rows))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16] + ".parquet"


def _existing(storage: Storage, part: int) -> dict[str, str]:
    """Match id -> the file that holds it, in a partition already written."""
    held: dict[str, str] = {}
    for name in storage.listdir("matches", part_name(part)):
        if name.endswith(".parquet"):
            ids = storage.read_table("matches", part_name(part), name).column("match_id").to_pylist()
            held.update(dict.fromkeys(ids, name))
    return held


def _plan(con: duckdb.DuckDBPyConnection, storage: Storage, partitions: int) -> dict[int, str]:
    """Assign every loaded match its partition (registered as ``export_chosen``) and name each
    partition's file; raises DatasetError for a match the dataset holds from other content."""
    rows = con.execute(
        "SELECT m.match_id, m.file_hash, coalesce(l.path, m.file_hash) FROM matches m "
        "LEFT JOIN ingest_log l ON l.file_hash = m.file_hash ORDER BY m.match_id"
    ).fetchall()
    if not rows:
        raise DatasetError("the database has no loaded matches; load logs first with `cuelog ingest LOGS --db FILE`")
    by_part: dict[int, list[tuple[str, str]]] = {}
    for match_id, file_hash, _ in rows:
        by_part.setdefault(partition_of(match_id, partitions), []).append((match_id, file_hash))
    names = {part: _file_name(items) for part, items in by_part.items()}
    clashes = sorted(
        f"{m} (in {part_name(part)}/{held[m]})"
        for part, items in by_part.items()
        for held in [_existing(storage, part)]
        for m, _ in items
        if m in held and held[m] != names[part]
    )
    if clashes:
        raise DatasetError(
            f"{storage.url}: already holds these match ids from other content: {', '.join(clashes)}; "
            "export to a new directory, or remove the old files first"
        )
    chosen = pa.table(
        {
            "match_id": pa.array([r[0] for r in rows], type=pa.string()),
            "part": pa.array([partition_of(r[0], partitions) for r in rows], type=pa.int32()),
            "path": pa.array([r[2] for r in rows], type=pa.string()),
        }
    )
    con.register("export_chosen", chosen)
    return names


def _by_partition(con: duckdb.DuckDBPyConnection, sql: str) -> Iterator[tuple[int, pa.Table]]:
    """The rows of a query ordered by partition, one Arrow table per partition (streamed)."""
    current: int | None = None
    batches: list[pa.RecordBatch] = []
    schema: pa.Schema | None = None
    for batch in con.sql(sql).to_arrow_reader(65_536):
        schema = batch.schema
        parts = batch.column(0).to_pylist()
        start = 0
        for i in range(1, len(parts) + 1):
            if i == len(parts) or parts[i] != parts[start]:
                if current is not None and parts[start] != current:
                    yield current, pa.Table.from_batches(batches, schema).drop_columns(["part"])
                    batches = []
                current = parts[start]
                batches.append(batch.slice(start, i - start))
                start = i
    if current is not None and schema is not None:
        yield current, pa.Table.from_batches(batches, schema).drop_columns(["part"])


def export_db(con: duckdb.DuckDBPyConnection, url: str, partitions: int) -> Exported:
    """Write the matches loaded in ``con`` to the dataset at ``url`` (created if needed)."""
    if not 1 <= partitions <= MAX_PARTITIONS:
        raise DatasetError(f"partitions: expected 1..{MAX_PARTITIONS}, found {partitions}")
    storage = Storage.open(url)
    if storage.exists() and storage.listdir():
        found = read_manifest(storage, LOADED)
        if found != partitions:
            raise DatasetError(f"{url}: a dataset of {found} partitions; export to it with --partitions {found}")
    # Shot-clock times come out in UTC whatever the machine's zone: same input, same bytes.
    con.execute("SET TimeZone = 'UTC'")
    names = _plan(con, storage, partitions)
    try:
        written: set[int] = set()
        for table in LOADED_TABLES:
            done: set[int] = set()
            for part, rows in _by_partition(con, _QUERIES[table]):
                storage.write_table(rows, table, part_name(part), names[part])
                done.add(part)
            # A table with no rows now (no shot clock this time) keeps no file of an earlier export.
            for part in set(names) - done:
                storage.delete_file(table, part_name(part), names[part])
            written |= done
        records = con.execute("SELECT count(*) FROM records r SEMI JOIN export_chosen c USING (match_id)").fetchall()
    finally:
        con.unregister("export_chosen")
    write_manifest(storage, LOADED, partitions)
    matches = int(con.execute("SELECT count(*) FROM matches").fetchall()[0][0])
    return Exported(matches, int(records[0][0]), partitions, len(written), url)
