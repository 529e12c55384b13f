"""The replay results in the store: the rows of the ``replay_*`` tables and their writes.

``result_tables`` turns match results into one Arrow table per replay table (in a fixed
order, so the rows are the same whatever the number of workers); ``ResultWriter`` writes a
replay's rows under a new generation, committed as the replay streams, and makes the
generation current for the replayed matches in one last transaction (``write_results``
writes a list at once). The ``replay_*`` names are views of each match's current
generation (cuelog/schemas/ddl.sql): a reader sees either the old results or the new ones,
and a replay that fails or is interrupted leaves the old ones.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import operator
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

import pyarrow as pa

from cuelog.replay.model import BY_N, Finding, MatchResult
from cuelog.store import summaries
from cuelog.store.arrow import rows_table
from cuelog.store.settings import SettingHeld

if TYPE_CHECKING:  # the connection is the caller's: a replay worker builds rows without DuckDB
    import duckdb

SIDES = "summary_sides"
"""The key of a chunk's report summaries (``summaries.match_sides`` of each match) beside its replay rows."""

REPLAY_TABLES = (
    "replay_frames",
    "replay_strokes",
    "replay_breaks",
    "replay_findings",
    "replay_corrections",
    "replay_stroke_details",
)


def _findings(match_id: str, frame: int | None, findings: Iterable[Finding]) -> list[tuple[object, ...]]:
    return [
        (match_id, frame, f.n, f.kind, f.rule, f.side, f.points, f.message)
        for f in sorted(findings, key=Finding.sort_key)
    ]


Row = tuple[object, ...]


def result_tables(results: Iterable[MatchResult], *, sides: bool = False) -> dict[str, pa.Table]:
    """The rows of every replay table for these results, as Arrow tables in a fixed order
    (match id order); with ``sides`` the report summaries' side rows too (key :data:`SIDES`)."""
    rows = ResultRows(sides=sides)
    for m in results:
        rows.add(m)
    return rows.tables()


class ResultRows:
    """The rows of the replay tables (with ``sides``, the report summaries' side rows too),
    added a match at a time: a replay worker adds each match as soon as it is replayed,
    while its outcomes are still in the processor's cache, and can drop them then rather
    than after the chunk's last match (a worker's CPU 0.97x; benchmarks/README.md, "replay
    --db: a worker takes its chunk's matches one at a time"). The tables hold the matches
    in id order whatever the order they were added in, so that the rows are the same
    whatever the number of workers."""

    def __init__(self, *, sides: bool = False) -> None:
        self._sides = sides
        # Each match's id and its rows: a list per table, in the order of :meth:`tables`.
        self._matches: list[tuple[str, tuple[list[Row], ...]]] = []

    def add(self, m: MatchResult) -> None:
        """The rows of one match's result."""
        frames: list[Row] = []
        strokes: list[Row] = []
        breaks: list[Row] = []
        details: list[Row] = []
        findings = _findings(m.match, None, m.findings)
        corrections: list[Row] = [
            (m.match, c.frame, c.n, json.dumps(c.set, sort_keys=True), c.note)
            for c in sorted(m.corrections, key=lambda c: (c.frame, c.n))
        ]
        for fr in sorted(m.frames, key=lambda f: f.frame):
            recorded = fr.recorded if fr.recorded is not None else (None, None)
            frames.append(
                (
                    m.match,
                    fr.frame,
                    fr.score[0],
                    fr.score[1],
                    recorded[0],
                    recorded[1],
                    fr.winner,
                    fr.recorded_winner,
                    fr.end_reason,
                    fr.visits[0],
                    fr.visits[1],
                )
            )
            for o in sorted(fr.outcomes, key=BY_N):
                strokes.append(
                    (
                        m.match,
                        fr.frame,
                        o.n,
                        o.striker,
                        o.scored,
                        o.penalty,
                        o.foul,
                        o.miss,
                        o.ball_on,
                        o.break_id,
                        o.visit_id,
                        o.score[0],
                        o.score[1],
                        o.free_ball,
                        o.reasons,  # a tuple: Arrow takes any sequence for a list
                        o.credited,
                    )
                )
                if o.detail:
                    details.extend((m.match, fr.frame, o.n, name, json.dumps(value)) for name, value in o.detail)
            for b in fr.breaks:
                breaks.append((m.match, fr.frame, b.side, b.points, b.from_, b.to))
            findings.extend(_findings(m.match, fr.frame, fr.findings))
        lists: tuple[list[Row], ...] = (frames, strokes, breaks, findings, corrections, details)
        if self._sides:
            lists += (summaries.match_sides(m) if m.frames else [],)
        self._matches.append((m.match, lists))

    def tables(self) -> dict[str, pa.Table]:
        """Every table's rows, the matches in id order (as ``sorted`` by match id: stably)."""
        ordered = sorted(self._matches, key=operator.itemgetter(0))
        names = (*REPLAY_TABLES, SIDES) if self._sides else REPLAY_TABLES
        return {
            name: rows_table(_SCHEMAS[name], list(itertools.chain.from_iterable(lists[i] for _, lists in ordered)))
            for i, name in enumerate(names)
        }


FRAME_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("score_a", pa.int32()),
        ("score_b", pa.int32()),
        ("recorded_a", pa.int32()),
        ("recorded_b", pa.int32()),
        ("winner", pa.string()),
        ("recorded_winner", pa.string()),
        ("end_reason", pa.string()),
        ("visits_a", pa.int32()),
        ("visits_b", pa.int32()),
    ]
)
STROKE_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("striker", pa.string()),
        ("scored", pa.int32()),
        ("penalty", pa.int32()),
        ("foul", pa.bool_()),
        ("miss", pa.bool_()),
        ("ball_on", pa.string()),
        ("break_id", pa.int32()),
        ("visit_id", pa.int32()),
        ("score_a", pa.int32()),
        ("score_b", pa.int32()),
        ("free_ball", pa.bool_()),
        ("reasons", pa.list_(pa.string())),
        ("credited", pa.int32()),
    ]
)
BREAK_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("side", pa.string()),
        ("points", pa.int32()),
        ("from_n", pa.int32()),
        ("to_n", pa.int32()),
    ]
)
FINDING_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("kind", pa.string()),
        ("rule", pa.string()),
        ("side", pa.string()),
        ("points", pa.int32()),
        ("message", pa.string()),
    ]
)


DETAIL_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("name", pa.string()),
        ("value", pa.string()),
    ]
)
CORRECTION_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("fields", pa.string()),
        ("note", pa.string()),
    ]
)
_SCHEMAS: dict[str, pa.Schema] = {
    "replay_frames": FRAME_SCHEMA,
    "replay_strokes": STROKE_SCHEMA,
    "replay_breaks": BREAK_SCHEMA,
    "replay_findings": FINDING_SCHEMA,
    "replay_corrections": CORRECTION_SCHEMA,
    "replay_stroke_details": DETAIL_SCHEMA,
    SIDES: summaries.SIDES_SCHEMA,
}


ROWS = {name: f"{name}_rows" for name in REPLAY_TABLES}
"""Each replay view's table of every generation's rows (cuelog/schemas/ddl.sql)."""

COMMIT_ROWS = 2 * 122_880
"""Rows (of every table) gathered before they are inserted and committed: one transaction
per chunk of a few matches would cost a commit and six statements per chunk. About two
DuckDB row groups (122,880 rows each), so that the strokes' rows of a transaction (nine in
ten of its rows) fill at least one: DuckDB writes a transaction's full row groups straight
to the database file, where a smaller one goes to the write-ahead log and is written again
at the checkpoint (measured: 1M stroke rows inserted in 0.85-1.0 CPU s a transaction of
216,000 or more against 1.3-1.5 s of 100,000; benchmarks/README.md, "replay --db: write
batches of row groups"). The gathered Arrow tables are about 20 MB."""


REPLAY_MEMORY = "64MB"
"""DuckDB's memory limit while a replay streams. DuckDB keeps every block it reads or
writes cached until its limit (80% of the machine's memory by default), so a replay that
reads every record and writes every result would grow with the store; it needs only the
blocks of the chunks in flight (measured: 64 MB keeps DuckDB's own part of a 1M-stroke
replay under 50 MB, at the same speed; benchmarks/README.md, "replay --db: committed by
generation, memory flat"). Larger work spills to DuckDB's temporary directory."""


def memory_capped(con: duckdb.DuckDBPyConnection, limit: str = REPLAY_MEMORY) -> SettingHeld:
    """DuckDB's memory limit set to ``limit`` meanwhile, then set back."""
    return SettingHeld(con, "memory_limit", limit)


def set_aside_single_generation(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Rename the replay tables of a database made before generations (plain tables named
    like today's views) out of the way, inside the caller's transaction; returns the new
    names, for :func:`adopt_single_generation` once the DDL made the generation tables."""
    old = {
        r[0]
        for r in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT temporary"
        ).fetchall()
    }
    moved = []
    for name in REPLAY_TABLES:
        if name in old:
            con.execute(f"ALTER TABLE {name} RENAME TO {name}_before_generations")
            moved.append(name)
    return moved


def adopt_single_generation(con: duckdb.DuckDBPyConnection, moved: Sequence[str]) -> None:
    """Copy the set-aside results into the generation tables as the current generation of
    their matches (columns matched by name: an older table may lack later columns), then
    drop the old tables. Inside the caller's transaction."""
    if not moved:
        return
    gen = int(con.execute("SELECT nextval('replay_generation')").fetchall()[0][0])
    for name in moved:
        con.execute(f"INSERT INTO {ROWS[name]} BY NAME SELECT *, {gen} AS gen FROM {name}_before_generations")
    matches = " UNION ".join(f"SELECT match_id FROM {name}_before_generations" for name in moved)
    con.execute(f"INSERT OR REPLACE INTO replay_current SELECT match_id, {gen} FROM ({matches})")
    for name in moved:
        con.execute(f"DROP TABLE {name}_before_generations")


def set_aside_keyed_frames(con: duckdb.DuckDBPyConnection) -> bool:
    """Rename ``replay_frames_rows`` out of the way if it has the primary key stores were made
    with before (cuelog/schemas/ddl.sql says why it went), inside the caller's transaction;
    True if it did, for :func:`adopt_keyed_frames` once the DDL made the table without it.
    DuckDB cannot drop a key from a table: the rows are copied into a new one."""
    keyed = con.execute(
        "SELECT count(*) FROM duckdb_constraints() WHERE schema_name = 'main' "
        "AND table_name = 'replay_frames_rows' AND constraint_type = 'PRIMARY KEY'"
    ).fetchall()[0][0]
    if keyed:
        con.execute("ALTER TABLE replay_frames_rows RENAME TO replay_frames_rows_keyed")
    return bool(keyed)


def adopt_keyed_frames(con: duckdb.DuckDBPyConnection, moved: bool) -> None:
    """Copy the frames :func:`set_aside_keyed_frames` set aside into the table without the
    key and drop the old one. Inside the caller's transaction."""
    if moved:
        con.execute("INSERT INTO replay_frames_rows BY NAME SELECT * FROM replay_frames_rows_keyed")
        con.execute("DROP TABLE replay_frames_rows_keyed")


@dataclasses.dataclass(frozen=True, slots=True)
class _Batch:
    """Rows gathered for one transaction: each replay table's parts and the side rows."""

    tables: dict[str, list[pa.Table]]
    sides: list[pa.Table]


class ResultWriter:
    """Replace the stored replay results of ``match_ids``, the rows written chunk by chunk
    under a new generation and committed as they go, made current in one last transaction.

    Used as a context manager: each :meth:`append` gathers the rows of some results, which
    are inserted and committed once about ``COMMIT_ROWS`` rows are gathered, by a thread of
    the writer's own while the caller goes on (it must not use ``con`` meanwhile: a cursor
    of its own reads); leaving makes the generation current for ``match_ids`` (one small
    transaction), then removes every row no match shows any more. On an exception or after :meth:`abandon` the generation is
    never made current: readers, who see only each match's current generation (the
    ``replay_*`` views), keep seeing the previous results, and its rows are removed. Neither
    Python nor DuckDB holds a whole replay's rows, so memory does not grow with the replay.
    ``match_ids`` are Arrow strings, each id once (a replay's come so from
    :func:`cuelog.store.reads.listed_matches`; a federation's ids as Python strings were
    held for the whole replay). ``every_match`` says these are all the loaded matches: no
    other match keeps results.
    ``written()``, if given, is called once every row is written, before the generation is
    made current (a streaming replay gives DuckDB its threads back there:
    :func:`cuelog.store.settings.threads_held`).
    """

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        match_ids: pa.Array | pa.ChunkedArray,
        *,
        every_match: bool = False,
        commit_rows: int | None = None,
        written: Callable[[], None] | None = None,
    ) -> None:
        self._con = con
        self._written = written
        self._ids = pa.table({"match_id": match_ids})
        self._every_match = every_match
        self._commit_rows = COMMIT_ROWS if commit_rows is None else commit_rows
        self._abandoned = False
        self._gathered: dict[str, list[pa.Table]] = {name: [] for name in REPLAY_TABLES}
        self._sides: list[pa.Table] = []
        self._held = 0
        self.gen = 0
        # One thread writes the gathered rows on the connection while the caller replays the
        # next chunks (the caller reads on cursors of its own meanwhile, never on ``con``).
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuelog-writer")
        self._pending: Future[None] | None = None
        # The chunks are written and the generation made current under a small DuckDB memory
        # limit (the shot summaries are joined a range of matches at a time for it), set
        # back when the writer closes.
        self._cap = memory_capped(con)

    def __enter__(self) -> ResultWriter:
        self.gen = int(self._con.execute("SELECT nextval('replay_generation')").fetchall()[0][0])
        self._cap.__enter__()
        return self

    def append(self, tables: dict[str, pa.Table]) -> None:
        """Gather the rows of some results (``result_tables``, with their report summaries
        under ``SIDES`` when built); write them once enough are held."""
        for name in REPLAY_TABLES:
            if tables[name].num_rows:
                self._gathered[name].append(tables[name])
                self._held += tables[name].num_rows
        if SIDES in tables and tables[SIDES].num_rows:
            self._sides.append(tables[SIDES])
        if self._held >= self._commit_rows:
            self._hand_over()

    def _hand_over(self) -> None:
        """Give the gathered rows to the writing thread (once it wrote the previous ones) and
        gather anew: DuckDB releases the GIL while it inserts, so the next chunks replay
        meanwhile. At most two batches are held: one being written, one being gathered."""
        self._wait()
        batch = _Batch(tables=self._gathered, sides=self._sides)
        self._gathered = {name: [] for name in REPLAY_TABLES}
        self._sides = []
        self._held = 0
        self._pending = self._thread.submit(self._write, batch)

    def _wait(self) -> None:
        """Wait for the batch being written; its error, if any, is raised here."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.result()

    def _write(self, batch: _Batch) -> None:
        """Insert a batch under this generation, one transaction, one insert per table."""
        con = self._con
        con.execute("BEGIN TRANSACTION")
        try:
            for name, parts in batch.tables.items():
                if not parts:
                    continue
                con.register("gathered_rows", pa.concat_tables(parts))
                con.execute(f"INSERT INTO {ROWS[name]} BY NAME SELECT *, {self.gen} AS gen FROM gathered_rows")
                con.unregister("gathered_rows")
            summaries.insert_sides(con, batch.sides, self.gen)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    def abandon(self) -> None:
        """Never make this generation current: the previous results stay."""
        self._abandoned = True

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        keep = kind is None and not self._abandoned
        try:
            try:
                try:
                    if keep:
                        self._hand_over()
                        self._wait()
                    else:
                        with contextlib.suppress(Exception):  # the error being raised is the one to report
                            self._wait()
                finally:
                    self._thread.shutdown(wait=True)  # nothing uses the connection from here on but this thread
                if keep:
                    if self._written is not None:
                        self._written()
                    self._make_current()
            finally:
                self._cap.__exit__(None, None, None)
        except BaseException:
            self._discard()
            raise
        if not keep:
            self._discard()
            return
        # The shot times' ranges fill whole row groups, which DuckDB writes to the database file
        # as the transaction goes, so their commit leaves the checkpoint to the connection's
        # close, which runs it without any limit (measured at 10M strokes: 779 MB there, against
        # 384 MB for the rest of the replay). The replay's last writes are checkpointed here,
        # under the limit the summaries had.
        with memory_capped(self._con, summaries.SHOTS_MEMORY):
            _collect(self._con, self.gen if self._every_match else None)
            self._con.execute("CHECKPOINT")

    def _make_current(self) -> None:
        con = self._con
        # The summaries that read loaded tables too (shot clock, records) are made current with
        # the rows; the shot times a range of matches at a time, under a limit of their own (the
        # replay's is for the chunks in flight, and they are written by now).
        with memory_capped(con, summaries.SHOTS_MEMORY):
            con.execute("BEGIN TRANSACTION")
            try:
                if self._every_match:
                    con.execute("DELETE FROM replay_current")
                con.register("replayed_ids", self._ids)
                con.execute(f"INSERT OR REPLACE INTO replay_current SELECT match_id, {self.gen} FROM replayed_ids")
                summaries.add_matches(con, None if self._every_match else "replayed_ids", self.gen)
                con.unregister("replayed_ids")
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise

    def _discard(self) -> None:
        """Remove this generation's rows (best effort: if this fails too, the next replay's
        collection removes them; no reader sees them meanwhile)."""
        import duckdb  # here, not at the top: a replay worker imports this module without DuckDB

        try:
            for name in REPLAY_TABLES:
                self._con.execute(f"DELETE FROM {ROWS[name]} WHERE gen = {self.gen}")
            summaries.discard(self._con, self.gen)
        except duckdb.Error:
            pass


def _collect(con: duckdb.DuckDBPyConnection, only: int | None) -> None:
    """Remove every row that is not of its match's current generation: the results a replay
    replaced, and the rows of a replay that was interrupted before it was made current.
    ``only``: the one generation every match now shows (after a replay of every match), so
    the rows of any other go without a join (measured: 2.2 s with the join at 1M strokes)."""
    summaries.collect(con, only)
    for name in REPLAY_TABLES:
        if only is not None:
            con.execute(f"DELETE FROM {ROWS[name]} WHERE gen <> {only}")
            continue
        con.execute(
            f"DELETE FROM {ROWS[name]} r WHERE NOT EXISTS "
            "(SELECT 1 FROM replay_current c WHERE c.match_id = r.match_id AND c.gen = r.gen)"
        )


def write_results(
    con: duckdb.DuckDBPyConnection,
    match_ids: Sequence[str],
    results: Sequence[MatchResult],
    *,
    every_match: bool = False,
    tables: dict[str, pa.Table] | None = None,
) -> None:
    """Replace the stored replay results of ``match_ids`` with ``results``, in one transaction.

    ``match_ids`` are the matches that were replayed: their old rows go even if a match now
    has no frames, so no stale result survives a replay. ``every_match`` says these are all
    the loaded matches, so every old row goes. ``tables`` are the rows of ``results`` when
    already built (``result_tables``).
    """
    if tables is None:
        tables = result_tables(results, sides=True)
    ids = pa.array(sorted(set(match_ids)), type=pa.string())
    with ResultWriter(con, ids, every_match=every_match) as writer:
        writer.append(tables)
