"""Loaded matches as a Parquet dataset: the records, typed strokes and aligned shot clock.

Each partition gets one file per table and export, named by a digest of the matches it
holds and the files they came from: exporting the same matches again rewrites the same
bytes under the same name, and several exports (batches of an archive) add files side by
side. A match id already in the dataset from other content is replaced (its older file
rewritten without it), never duplicated; ``overwrite`` replaces the dataset whole.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from cuelog.distributed.clocks import CLOCK_PLACED, CLOCK_SHOTS, keep_clocks, realign
from cuelog.distributed.clocks import results as clock_results
from cuelog.distributed.layout import (
    LOADED,
    LOADED_TABLES,
    MAX_PARTITIONS,
    DatasetError,
    Storage,
    by_partition,
    finished,
    parse_part,
    part_name,
    partition_of,
    read_manifest,
    writing,
)
from cuelog.ingest.clock import DEFAULT_TOLERANCE_S, ClockResult

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
    clocks: tuple[ClockResult, ...] = ()
    """The shot-clock logs kept, each as aligned over the whole dataset."""
    unchanged: frozenset[str] = frozenset()
    """Matches the dataset held already, loaded from the same log: not written again."""

    def to_dict(self) -> dict[str, object]:
        return {
            "parquet": self.url,
            "matches": self.matches,
            "records": self.records,
            "partitions": self.partitions,
            "partitions_written": self.written,
            "unchanged": len(self.unchanged),
        }


def _file_name(rows: list[tuple[str, str]]) -> str:
    """The name of one export's file in one partition: a digest of its matches and their files."""
    text = "\n".join(f"{m}\t{h}" for m, h in sorted(rows))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16] + ".parquet"


def _existing(storage: Storage, parts: Iterable[int]) -> dict[int, dict[str, list[tuple[str, str]]]]:
    """For each of these partitions already written: match id -> the files that hold it, each
    with the content hash of the log the match was loaded from (more than one file only
    after an export that stopped midway). One scan of every file's match ids, by Arrow's
    threads: a dataset written batch by batch holds a file per batch and partition, which
    read one by one cost a write more the larger the archive."""
    files = [
        storage.path("matches", part_name(part), name)
        for part in parts
        for name in storage.listdir("matches", part_name(part))
        if name.endswith(".parquet")
    ]
    held: dict[int, dict[str, list[tuple[str, str]]]] = {}
    if not files:
        return held
    scanner = ds.dataset(files, filesystem=storage.fs, format="parquet").scanner(columns=["match_id", "file_hash"])
    for tagged in scanner.scan_batches():
        directory, name = tagged.fragment.path.rsplit("/", 2)[-2:]
        part = parse_part(directory)
        assert part is not None  # the files listed are in partition directories
        by_match = held.setdefault(part, {})
        ids, hashes = (tagged.record_batch.column(c).to_pylist() for c in ("match_id", "file_hash"))
        for match_id, file_hash in zip(ids, hashes, strict=True):
            by_match.setdefault(match_id, []).append((name, file_hash))
    return held


@dataclass(frozen=True, slots=True)
class Plan:
    """Where an export writes: this export's file in each partition, the older files that
    hold matches it replaces (rewritten without them), and the matches it leaves as they
    are (held already, loaded from the same log)."""

    names: dict[int, str]
    stale: dict[tuple[int, str], frozenset[str]]
    unchanged: frozenset[str] = frozenset()


def _plan(
    con: duckdb.DuckDBPyConnection, storage: Storage, partitions: int, *, fresh: bool, keep_other: bool, empty_ok: bool
) -> Plan:
    """Assign every loaded match its partition (registered as ``export_chosen``), name each
    partition's file and find the older files holding the same match ids (none when ``fresh``:
    the dataset is being replaced whole). With ``keep_other``, a match id the dataset holds
    from other content is refused (DatasetError) instead of replaced. No loaded match is a
    DatasetError unless ``empty_ok`` (a batch of shot clocks only)."""
    rows = con.execute(
        "SELECT m.match_id, m.file_hash, coalesce(l.path, m.file_hash) FROM matches m "
        "LEFT JOIN ingest_log l ON l.file_hash = m.file_hash ORDER BY m.match_id"
    ).fetchall()
    if not rows and not empty_ok:
        raise DatasetError("the database has no loaded matches; load logs first with `cuelog ingest LOGS --db FILE`")
    existing = {} if fresh else _existing(storage, {partition_of(r[0], partitions) for r in rows})
    # A match the dataset holds from the same log is left as it is: the same bytes loaded
    # again change nothing, whichever batch brings them (as a database finds them unchanged).
    # Not after a write that stopped midway: its match files may lack their other tables,
    # and running it again must write them.
    unchanged = (
        {
            match_id
            for match_id, file_hash, _ in rows
            if (held := existing.get(partition_of(match_id, partitions), {}).get(match_id))
            and all(h == file_hash for _, h in held)
        }
        if finished(storage)
        else set()
    )
    rows = [r for r in rows if r[0] not in unchanged]
    by_part: dict[int, list[tuple[str, str]]] = {}
    for match_id, file_hash, _ in rows:
        by_part.setdefault(partition_of(match_id, partitions), []).append((match_id, file_hash))
    names = {part: _file_name(items) for part, items in by_part.items()}
    stale: dict[tuple[int, str], set[str]] = {}
    for part, items in by_part.items():
        held_here = existing.get(part, {})
        for m, _ in items:
            for name, _ in held_here.get(m, ()):
                if name != names[part]:
                    stale.setdefault((part, name), set()).add(m)
    if keep_other and stale:
        clashes = sorted(f"{m} (in {part_name(p)}/{name})" for (p, name), ids in stale.items() for m in ids)
        raise DatasetError(
            f"{storage.url}: already holds these match ids from other content: {', '.join(clashes)}; "
            "give --replace to replace them"
        )
    chosen = pa.table(
        {
            "match_id": pa.array([r[0] for r in rows], type=pa.string()),
            "part": pa.array([partition_of(r[0], partitions) for r in rows], type=pa.int32()),
            "path": pa.array([r[2] for r in rows], type=pa.string()),
        }
    )
    con.register("export_chosen", chosen)
    return Plan(names, {key: frozenset(ids) for key, ids in stale.items()}, frozenset(unchanged))


def _rewrite_stale(storage: Storage, part: int, old: str, replaced: frozenset[str]) -> None:
    """An older file without the matches an export replaced, under the name its remaining
    matches give (the name an export of just those would write), or removed when none remain.
    The matches table goes last: it is what the next export plans from, so an export that
    stops midway finds the same work again."""
    where = part_name(part)
    held = storage.read_table("matches", where, old)
    keep = [
        (m, h)
        for m, h in zip(held.column("match_id").to_pylist(), held.column("file_hash").to_pylist(), strict=True)
        if m not in replaced
    ]
    new = _file_name(keep) if keep else None
    gone = pa.array(sorted(replaced), type=pa.string())
    for table in reversed(LOADED_TABLES):
        if not storage.exists(table, where, old):
            continue
        if new is not None:
            rows = storage.read_table(table, where, old)
            storage.write_table(
                rows.filter(pc.invert(pc.is_in(rows.column("match_id"), value_set=gone))), table, where, new
            )
        storage.delete_file(table, where, old)


def _sweep(storage: Storage, names: dict[int, str]) -> None:
    """Remove every loaded file this export did not write (``--overwrite``), and the kept
    clocks with what they placed."""
    for table in LOADED_TABLES:
        for directory in storage.listdir(table):
            part = parse_part(directory)
            for name in storage.listdir(table, directory):
                if part is None or name != names.get(part):
                    storage.delete_file(table, directory, name)
            if not storage.listdir(table, directory):
                storage.delete_dir(table, directory)
    storage.delete_dir(CLOCK_SHOTS)
    storage.delete_dir(CLOCK_PLACED)


def _check_target(storage: Storage, partitions: int, overwrite: bool) -> None:
    """An export goes into an empty directory or a cuelog loaded dataset, never anything else
    (``--overwrite`` deletes only a dataset's own files)."""
    if not (storage.exists() and storage.listdir()):
        return
    try:
        found = read_manifest(storage, LOADED, unfinished_ok=True)
    except DatasetError as exc:
        raise DatasetError(f"{exc}; export into an empty directory or a cuelog dataset") from None
    if found != partitions and not overwrite:
        raise DatasetError(
            f"{storage.url}: a dataset of {found} partitions; export to it with --partitions {found}, "
            "or give --overwrite to replace it whole"
        )


def _write_tables(con: duckdb.DuckDBPyConnection, storage: Storage, names: dict[int, str]) -> int:
    """Write this export's file of every table in each partition; the partitions written."""
    written: set[int] = set()
    for table in LOADED_TABLES:
        done: set[int] = set()
        for part, rows in by_partition(con.sql(_QUERIES[table]).to_arrow_reader(65_536)):
            storage.write_table(rows, table, part_name(part), names[part])
            done.add(part)
        # A table with no rows now (no shot clock this time) keeps no file of an earlier export.
        for part in set(names) - done:
            storage.delete_file(table, part_name(part), names[part])
        written |= done
    return len(written)


def export_db(
    con: duckdb.DuckDBPyConnection,
    url: str,
    partitions: int,
    *,
    overwrite: bool = False,
    keep_other: bool = False,
    clock_logs: Sequence[Path] = (),
    tolerance_s: float = DEFAULT_TOLERANCE_S,
) -> Exported:
    """Write the matches loaded in ``con`` to the dataset at ``url`` (created if needed).

    Into an existing dataset: a match it already holds is replaced by this export's version
    (the older file rewritten without it; refused with ``keep_other``), other matches stay;
    ``overwrite`` makes the dataset exactly this export. ``clock_logs`` (shot-clock CSVs,
    ``cuelog ingest --parquet``) are kept in the dataset; every kept clock is then aligned
    over the whole dataset (``cuelog.distributed.clocks``). The dataset is marked unfinished
    until every file is written.
    """
    if not 1 <= partitions <= MAX_PARTITIONS:
        raise DatasetError(f"partitions: expected 1..{MAX_PARTITIONS}, found {partitions}")
    storage = Storage.open(url)
    _check_target(storage, partitions, overwrite)
    # Shot-clock times come out in UTC whatever the machine's zone: same input, same bytes.
    con.execute("SET TimeZone = 'UTC'")
    plan = _plan(con, storage, partitions, fresh=overwrite, keep_other=keep_other, empty_ok=bool(clock_logs))
    try:
        with writing(storage, LOADED, partitions):
            written = _write_tables(con, storage, plan.names)
            for (part, old), replaced in sorted(plan.stale.items()):
                _rewrite_stale(storage, part, old, replaced)
            if overwrite:
                _sweep(storage, plan.names)
            kept, rejected = keep_clocks(storage, clock_logs, tolerance_s)
            placed = realign(storage, con, [k.file_hash for k in kept])
        records = con.execute("SELECT count(*) FROM records r SEMI JOIN export_chosen c USING (match_id)").fetchall()
    finally:
        con.unregister("export_chosen")
    matches = int(con.execute("SELECT count(*) FROM matches").fetchall()[0][0]) - len(plan.unchanged)
    done = {c.path: c for c in [*rejected, *clock_results(kept, placed)]}
    clocks = tuple(done[str(p)] for p in clock_logs)
    return Exported(matches, int(records[0][0]), partitions, written, url, clocks, plan.unchanged)
