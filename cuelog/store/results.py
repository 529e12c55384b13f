"""The replay results in the store: the rows of the ``replay_*`` tables and their writes.

``result_tables`` turns match results into one Arrow table per replay table (in a fixed
order, so the rows are the same whatever the number of workers); ``ResultWriter``
replaces a set of matches' rows in one transaction, appending the rows chunk by chunk as
the replay produces them (``write_results`` writes a list at once): a reader sees either
the old results or the new ones.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Sequence

import duckdb
import pyarrow as pa

from cuelog.replay.model import Finding, MatchResult
from cuelog.store import summaries

SIDES = "summary_sides"
"""The key of a chunk's report summaries (``summaries.side_table``) beside its replay rows."""

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


def result_tables(results: Sequence[MatchResult]) -> dict[str, pa.Table]:
    """The rows of every replay table for these results, as Arrow tables in a fixed order."""
    frames: list[tuple[object, ...]] = []
    strokes: list[tuple[object, ...]] = []
    breaks: list[tuple[object, ...]] = []
    findings: list[tuple[object, ...]] = []
    corrections: list[tuple[object, ...]] = []
    details: list[tuple[object, ...]] = []
    for m in sorted(results, key=lambda r: r.match):
        findings.extend(_findings(m.match, None, m.findings))
        corrections.extend(
            (m.match, c.frame, c.n, json.dumps(c.set, sort_keys=True), c.note)
            for c in sorted(m.corrections, key=lambda c: (c.frame, c.n))
        )
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
            for o in sorted(fr.outcomes, key=lambda o: o.n):
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
                        list(o.reasons),
                        o.credited,
                    )
                )
                if o.detail:
                    details.extend((m.match, fr.frame, o.n, name, json.dumps(value)) for name, value in o.detail)
            for b in fr.breaks:
                breaks.append((m.match, fr.frame, b.side, b.points, b.from_, b.to))
            findings.extend(_findings(m.match, fr.frame, fr.findings))
    return {
        "replay_frames": _table(FRAME_SCHEMA, frames),
        "replay_strokes": _table(STROKE_SCHEMA, strokes),
        "replay_breaks": _table(BREAK_SCHEMA, breaks),
        "replay_findings": _table(FINDING_SCHEMA, findings),
        "replay_corrections": _table(CORRECTION_SCHEMA, corrections),
        "replay_stroke_details": _table(DETAIL_SCHEMA, details),
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
# Columns added to replay_strokes after its first release: a database created before gets them
# on its next replay.
_ADDED_COLUMNS = (
    ("replay_strokes", "free_ball", "BOOLEAN"),
    ("replay_strokes", "reasons", "VARCHAR[]"),
    ("replay_strokes", "credited", "INTEGER"),
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


def _table(schema: pa.Schema, rows: list[tuple[object, ...]]) -> pa.Table:
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in schema.names]
    return pa.table([pa.array(col, type=f.type) for col, f in zip(columns, schema, strict=True)], schema=schema)


class ResultWriter:
    """Replace the stored replay results of ``match_ids`` chunk by chunk, in one transaction.

    Used as a context manager: entering deletes the old rows of ``match_ids`` (every row
    when ``every_match``: these are all the loaded matches, much faster than deleting match
    by match), each :meth:`append` inserts the rows of some results as they arrive, and
    leaving commits, or rolls back on an exception or after :meth:`abandon`. DuckDB holds
    the uncommitted rows, not Python, and a reader sees either the old results or the new.
    """

    def __init__(self, con: duckdb.DuckDBPyConnection, match_ids: Sequence[str], *, every_match: bool = False) -> None:
        self._con = con
        self._ids = pa.table({"match_id": pa.array(sorted(set(match_ids)), type=pa.string())})
        self._every_match = every_match
        self._abandoned = False

    def __enter__(self) -> ResultWriter:
        con = self._con
        con.execute("BEGIN TRANSACTION")
        try:
            for table, column, sql_type in _ADDED_COLUMNS:
                con.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {sql_type}")
            con.register("replayed_ids", self._ids)
            for name in REPLAY_TABLES:
                if self._every_match:
                    con.execute(f"DELETE FROM {name}")
                else:
                    con.execute(f"DELETE FROM {name} WHERE match_id IN (SELECT match_id FROM replayed_ids)")
            summaries.delete(con, None if self._every_match else "replayed_ids")
            con.unregister("replayed_ids")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        return self

    def append(self, tables: dict[str, pa.Table]) -> None:
        """Insert the rows of some results (``result_tables``), one Arrow insert per table,
        and their report summaries (``tables[SIDES]`` when the rows came with them, else
        computed from these rows alone)."""
        views = {name: f"new_{name}" for name in REPLAY_TABLES}
        try:
            for name, view in views.items():
                table = tables[name]
                self._con.register(view, table)
                if table.num_rows:
                    cols = ", ".join(table.schema.names)
                    self._con.execute(f"INSERT INTO {name} ({cols}) SELECT {cols} FROM {view}")
            if tables["replay_frames"].num_rows:
                summaries.add_chunk(self._con, views, tables.get(SIDES))
        finally:
            # After a failed insert the transaction refuses everything: the insert's error is the one to see.
            with contextlib.suppress(duckdb.Error):
                for view in views.values():
                    self._con.unregister(view)

    def abandon(self) -> None:
        """Roll back on leaving: the old results stay."""
        self._abandoned = True

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None or self._abandoned:
            self._con.execute("ROLLBACK")
            return
        try:
            # The summaries that read loaded tables too (shot clock, records), once for the
            # whole replay, in its transaction.
            if self._every_match:
                summaries.add_matches(self._con, None)
            else:
                self._con.register("replayed_ids", self._ids)
                summaries.add_matches(self._con, "replayed_ids")
                self._con.unregister("replayed_ids")
            self._con.execute("COMMIT")
        except BaseException:
            self._con.execute("ROLLBACK")
            raise


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
        tables = {**result_tables(results), SIDES: summaries.side_table(results)}
    with ResultWriter(con, match_ids, every_match=every_match) as writer:
        writer.append(tables)
