"""The rows ingest stores for each record, and the Arrow tables they are inserted as.

A file's records become rows of ``records``, ``strokes`` and ``shot_clock``
(:data:`cuelog.store.loads.ROW_SCHEMAS`), built as tuples while the file is read
(:class:`Rows`). The files of a worker's batch, or of a group published together
(:class:`GroupRows`), turn their rows into Arrow tables every :data:`CHUNK` records: the
tuples are still in the processor's cache, and a group as large as two DuckDB row groups
(:data:`GROUP_RECORDS`) holds Python objects for one chunk at most (a record as tuples
costs several times its Arrow columns).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from cuelog.schemas.records import Choice, Clock, Event, Frame, FrameEnd, Match, Record, Stroke
from cuelog.store.arrow import rows_table
from cuelog.store.loads import ROW_SCHEMAS

CHUNK = 700
"""Records held as tuples before they become Arrow columns (a few more: a file's rows are
added whole). Made into columns while the tuples and the texts they hold are still in the
processor's cache, about three small logs' worth: the checks of a batch about 0.97x the
CPU of making its whole batch columns at once (one core's ingest, where the loading process
checks the logs itself, 0.99x); a worker sends the chunks as several record batches a
table, which costs about that back, so a worker as a whole is within a few percent either
way (benchmarks/README.md, "Ingest: the rows made Arrow columns while they are in the
cache")."""

GROUP_RECORDS = 2 * 122_880
"""A group of files holds at most this many records (a file holding more is published
alone): two DuckDB row groups (122,880 rows each) of ``records`` and at least one of
``strokes``. DuckDB writes a transaction's full row groups straight to the database file
instead of to its write-ahead log and then again at the checkpoint: insert and commit
cost about half as much a record as in groups of 20,000 (benchmarks/README.md, "Ingest of
the logs: whole row groups"). A group is published before a file would take it past this,
not once it has: a group a few records over left a row group of those few, which ingest's
checkpoints, and then the first checkpoint of the next command to write the store, merged
with their neighbours, compressing the records' text again (benchmarks/README.md,
"Ingest: no group past two row groups")."""

Tables = Mapping[str, pa.Table]
"""Rows by store table, as Arrow tables in :data:`cuelog.store.loads.ROW_SCHEMAS` column order
(a file of a worker's batch: :class:`cuelog.store.arrow.Ranges` of the batch's tables)."""


@dataclass(slots=True)
class Rows:
    """Rows waiting to become Arrow columns, as tuples in table column order."""

    records: list[tuple[Any, ...]] = field(default_factory=list)
    strokes: list[tuple[Any, ...]] = field(default_factory=list)
    clocks: list[tuple[Any, ...]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.records)

    def clear(self) -> None:
        self.records.clear()
        self.strokes.clear()
        self.clocks.clear()

    def add(self, match_id: str, seq: int, line: int, text: str, record: Record, t: int | None = None) -> None:
        """A record's rows; ``t``: a stroke's time in microseconds since the epoch, as
        :func:`cuelog.ingest.validate.time_us` reads it (the check read it already)."""
        if isinstance(record, Stroke):  # a TypedStroke too
            self.add_stroke(match_id, seq, line, text, record, t)
            return
        n: int | None = None
        if isinstance(record, Clock):
            n = record.n
            self.clocks.append(
                (match_id, record.frame, record.n, record.elapsed_s, record.paused_s, record.limit_s, "record")
            )
        elif isinstance(record, (Choice, Event)):
            n = record.after
        frame = None if isinstance(record, Match) else record.frame
        self.records.append((match_id, seq, line, _TYPE_NAMES[type(record)], frame, n, text))

    def add_stroke(self, match_id: str, seq: int, line: int, text: str, stroke: Stroke, t: int | None) -> None:
        """A stroke's rows (:meth:`add` for a record known to be a stroke)."""
        self.records.append((match_id, seq, line, "stroke", stroke.frame, stroke.n, text))
        self.strokes.append(_stroke_row(match_id, stroke, t))

    def extend(self, other: Rows) -> None:
        self.records.extend(other.records)
        self.strokes.extend(other.strokes)
        self.clocks.extend(other.clocks)

    def counts(self) -> dict[str, int]:
        """Rows by store table."""
        return {"records": len(self.records), "strokes": len(self.strokes), "shot_clock": len(self.clocks)}

    def arrow(self) -> Tables:
        """The rows as Arrow tables (empty tables included), then cleared."""
        out = {
            table: rows_table(ROW_SCHEMAS[table], rows)
            for table, rows in (("records", self.records), ("strokes", self.strokes), ("shot_clock", self.clocks))
        }
        self.clear()
        return out


def _stroke_row(match_id: str, s: Stroke, t: int | None) -> tuple[Any, ...]:
    """A ``strokes`` row (:data:`cuelog.store.loads.STROKES_SCHEMA`)."""
    call = s.call
    if call is None:
        foul, points, miss, free_ball = False, None, False, False
    else:
        foul, points, miss, free_ball = call.foul, call.points, call.miss, call.free_ball
    score = s.score or (None, None)
    return (
        match_id,
        s.frame,
        s.n,
        s.striker,
        t,
        s.first,
        s.potted,
        s.nominated,
        foul,
        points,
        miss,
        free_ball,
        score[0],
        score[1],
        s.break_,
    )


_TYPE_NAMES: dict[type[Any], str] = {
    Match: "match",
    Frame: "frame",
    Stroke: "stroke",
    Choice: "choice",
    Event: "event",
    FrameEnd: "frame_end",
    Clock: "clock",
}


@dataclass(frozen=True, slots=True)
class _Own:
    """A file's rows in a group as the Arrow tables it came with."""

    tables: Tables


@dataclass(slots=True)
class GroupRows:
    """The rows of a group of files (or of a worker's batch): each file's place in them, its
    rows as Arrow chunks of about :data:`CHUNK` records, the latest rows still as tuples."""

    chunks: dict[str, list[pa.Table]] = field(default_factory=lambda: {table: [] for table in ROW_SCHEMAS})
    pending: Rows = field(default_factory=Rows)
    places: list[dict[str, tuple[int, int]] | _Own] = field(default_factory=list)
    ends: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ROW_SCHEMAS, 0))

    def add(self, rows: Rows) -> int:
        """Take a file's rows (``rows`` is left empty); the file's index in the group."""
        place = {}
        for table, count in rows.counts().items():
            place[table] = (self.ends[table], count)
            self.ends[table] += count
        self.places.append(place)
        self.pending.extend(rows)
        rows.clear()
        if len(self.pending) >= CHUNK:
            self._chunk()
        return len(self.places) - 1

    def add_tables(self, tables: Tables) -> int:
        """Take a file's rows as Arrow tables (as a worker built them); the file's index.
        They are kept as they are: the file's rows need no slicing out of the group's."""
        self.places.append(_Own(tables))
        return len(self.places) - 1

    def _chunk(self) -> None:
        if not len(self.pending):  # every stroke and clock row is a record's
            return
        for table, data in self.pending.arrow().items():
            if data.num_rows:
                self.chunks[table].append(data)

    def whole(self) -> Tables:
        """Every file's rows added with :meth:`add`, in order: one Arrow table per store
        table, of the chunks as they are (no copy)."""
        self._chunk()
        return {
            table: pa.concat_tables(chunks) if chunks else ROW_SCHEMAS[table].empty_table()
            for table, chunks in self.chunks.items()
        }

    def tables(self) -> list[Tables]:
        """Each file's rows: slices of one Arrow table per store table (no copy), or the
        tables it came with."""
        whole = self.whole()
        return [
            place.tables
            if isinstance(place, _Own)
            else {table: whole[table].slice(start, count) for table, (start, count) in place.items()}
            for place in self.places
        ]
