"""Shot-clock device logs (docs/format.md section 5): parse, pair into shots, align to strokes.

A device writes one CSV row per event, ``table,ts,event``. Per table, in time order:

* ``start`` begins timing a shot; a ``start`` while a shot is still running abandons
  that shot (reported as ``no_stop``);
* ``pause`` / ``resume`` stop and restart the clock; the time between them is the
  shot's paused time, not its shot time (a ``stop`` while paused ends the pause too);
* ``stop`` ends the shot: the cue ball was struck. Its time is matched to the stroke;
* ``expire`` says the clock ran out: the running time at that moment is the shot's
  limit (stored as ``limit_s``); timing continues until the ``stop``;
* ``reset`` abandons the running shot (reported as ``reset``); a reset with no shot
  running is the device being cleared between shots and means nothing.

A row that fits none of this (a ``stop``, ``pause``, ``resume`` or ``expire`` with no shot
running, a ``resume`` while not paused) is a stray row. Each shot's ``stop`` is joined
as-of to the stroke on the same table (the match record's ``table``) whose ``t`` is
nearest, within a tolerance. Shots and rows that cannot be placed are reported, never
silently dropped, and do not fail the load. A malformed row is a Problem (exit 2), and
the CSV is then rejected whole.
"""

from __future__ import annotations

import collections
import contextlib
import csv
import hashlib
import io
import os
from collections.abc import Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cuelog.errors import Problem
from cuelog.ingest.device import EVENTS, Unplaced
from cuelog.ingest.validate import parse_time

# DuckDB, Arrow and the store are imported where a load needs them, not here: `cuelog
# validate` and `cuelog watch` read and pair device logs with this module alone, and
# nothing here needs Polars.
if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

    from cuelog.store import clocks as store_clocks

COLUMNS = ("table", "ts", "event")
DEFAULT_TOLERANCE_S = 2.0
SHOW_UNPLACED = 5
"""How many unplaced rows a report lists (all are counted)."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class ClockRow:
    """One device event: table, time (microseconds since the epoch, UTC), event, CSV line."""

    table: str
    ts: int
    event: str
    line: int
    text: str


@dataclass(frozen=True, slots=True)
class Shot:
    """One timed shot, from its ``start`` row to its ``stop`` row."""

    table: str
    start_line: int
    stop_line: int
    stop_ts: int
    stop_text: str
    shot_s: float
    paused_s: float
    limit_s: float | None


@dataclass(frozen=True, slots=True)
class ClockResult:
    """What one device log gave: rows read, shots paired, shots stored, and what was left over."""

    path: str
    file_hash: str | None
    status: str
    rows: int
    shots: int
    aligned: int
    unplaced: list[Unplaced]
    problems: list[Problem]

    def unplaced_by_reason(self) -> dict[str, int]:
        """How many rows were placed on no stroke, by reason (the reasons in sorted order)."""
        counts: dict[str, int] = {}
        for u in self.unplaced:
            counts[u.reason] = counts.get(u.reason, 0) + 1
        return dict(sorted(counts.items()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "hash": self.file_hash,
            "status": self.status,
            "rows": self.rows,
            "shots": self.shots,
            "aligned": self.aligned,
            "unplaced": len(self.unplaced),
            "unplaced_by_reason": self.unplaced_by_reason(),
            "first_unplaced": [u.to_dict() for u in self.unplaced[:SHOW_UNPLACED]],
            "problems": [p.to_dict() for p in self.problems],
        }


def read_clock_csv(path: str | os.PathLike[str]) -> tuple[str | None, list[ClockRow], list[Problem]]:
    """The rows of a device log with its content hash; every malformed row is a Problem."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return None, [], [Problem(name, 0, "", "unreadable", exc.strerror or str(exc), "a readable CSV file")]
    file_hash = hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return file_hash, [], [Problem(name, line, "", "not_utf8", f"byte 0x{data[exc.start]:02x}", "UTF-8 text")]
    lines = text.splitlines()
    problems: list[Problem] = []
    rows: list[ClockRow] = []
    header: list[str] | None = None
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            cells = next(csv.reader(io.StringIO(raw)))
        except csv.Error as exc:
            problems.append(Problem(name, number, "", "bad_csv", str(exc), "comma-separated values"))
            continue
        cells = [c.strip() for c in cells]
        if header is None:
            header = cells
            missing = [c for c in COLUMNS if c not in header]
            if missing:
                problems.append(
                    Problem(name, number, ",".join(missing), "bad_header", ",".join(cells), ",".join(COLUMNS))
                )
                return file_hash, [], problems
            continue
        if len(cells) != len(header):
            problems.append(
                Problem(name, number, "", "bad_csv", f"{len(cells)} column(s)", f"{len(header)}: {','.join(header)}")
            )
            continue
        row = dict(zip(header, cells, strict=True))
        table, ts, event = row["table"], row["ts"], row["event"]
        bad = False
        if not table:
            problems.append(Problem(name, number, "table", "missing_field", "empty", "the table number"))
            bad = True
        parsed = parse_time(ts)
        if parsed is None:
            problems.append(
                Problem(
                    name, number, "ts", "bad_time", repr(ts), 'ISO 8601 with offset, e.g. "2026-05-01T14:03:22.120Z"'
                )
            )
            bad = True
        if event not in EVENTS:
            problems.append(Problem(name, number, "event", "unknown_event", repr(event), ", ".join(EVENTS)))
            bad = True
        if not bad and parsed is not None:
            rows.append(ClockRow(table, (parsed - _EPOCH) // _US, event, number, ts))
    if header is None:
        problems.append(Problem(name, 1, "", "empty_file", "no rows", "a header table,ts,event and device rows"))
    return file_hash, rows, problems


@dataclass(slots=True)
class _Running:
    start: ClockRow
    paused_us: int = 0
    paused_at: int | None = None
    limit_s: float | None = None


def pair_shots(rows: list[ClockRow]) -> tuple[list[Shot], list[Unplaced]]:
    """Pair device rows per table into shots (see the module docstring for the rules)."""
    shots: list[Shot] = []
    unplaced: list[Unplaced] = []
    running: dict[str, _Running] = {}

    def stray(row: ClockRow, reason: str) -> None:
        unplaced.append(Unplaced(row.line, row.table, row.text, row.event, reason))

    for row in sorted(rows, key=lambda r: (r.table, r.ts, r.line)):
        shot = running.get(row.table)
        if row.event == "start":
            if shot is not None:
                stray(shot.start, "no_stop")
            running[row.table] = _Running(row)
        elif shot is None:
            if row.event != "reset":
                stray(row, f"{row.event}_without_start")
        elif row.event == "pause":
            if shot.paused_at is None:
                shot.paused_at = row.ts
            else:
                stray(row, "already_paused")
        elif row.event == "resume":
            if shot.paused_at is None:
                stray(row, "resume_without_pause")
            else:
                shot.paused_us += row.ts - shot.paused_at
                shot.paused_at = None
        elif row.event == "expire":
            paused = shot.paused_us + (row.ts - shot.paused_at if shot.paused_at is not None else 0)
            shot.limit_s = (row.ts - shot.start.ts - paused) / 1e6
        elif row.event == "reset":
            stray(shot.start, "reset")
            del running[row.table]
        else:  # stop
            if shot.paused_at is not None:
                shot.paused_us += row.ts - shot.paused_at
            elapsed = row.ts - shot.start.ts
            shots.append(
                Shot(
                    row.table,
                    shot.start.line,
                    row.line,
                    row.ts,
                    row.text,
                    (elapsed - shot.paused_us) / 1e6,
                    shot.paused_us / 1e6,
                    shot.limit_s,
                )
            )
            del running[row.table]
    for shot in running.values():
        stray(shot.start, "no_stop")
    unplaced.sort(key=lambda u: u.line)
    return shots, unplaced


def shots_table(shots: Sequence[Shot], log_no: int) -> pa.Table:
    """Shots paired in Python (:func:`pair_shots`) as a batch's shots are held
    (:data:`cuelog.store.clocks.SHOTS_SCHEMA`), under the log's number in its batch."""
    import pyarrow as pa

    from cuelog.store.clocks import SHOTS_SCHEMA

    return pa.table(
        {
            "log_no": [log_no] * len(shots),
            "table": [s.table for s in shots],
            "ts": [s.stop_ts for s in shots],
            "start_line": [s.start_line for s in shots],
            "stop_line": [s.stop_line for s in shots],
            "stop_text": [s.stop_text for s in shots],
            "shot_s": [s.shot_s for s in shots],
            "paused_s": [s.paused_s for s in shots],
            "limit_s": [s.limit_s for s in shots],
        },
        schema=SHOTS_SCHEMA,
    )


@dataclass(frozen=True, slots=True)
class Found:
    """A device log read and paired: its rows, how many shots it gave (its batch's
    :class:`PairedBatch` holds them) and its rows left over, or its problems."""

    name: str
    file_hash: str | None
    rows: int
    shots: int
    unplaced: list[Unplaced]
    problems: list[Problem]


PAIR_BYTES = 12 << 20
"""Device logs paired, aligned and stored together at most (bytes; a larger log alone): the
memory of a run is bounded by this, not by the season (at 1M strokes, 92 MB of device logs,
8 MB batches peaked at 373 MB against 1,190 MB for 64 MB ones). 12 MB of device logs of two
rows a shot hold some 130,000 shots, more than a DuckDB row group (122,880 rows): DuckDB
writes a transaction that adds a full row group straight to the database file, where
smaller ones go to the write-ahead log first and are written again by the checkpoint that
follows. The stores of the 1M season's batches took 0.8 s against 1.6-1.9 s, and ingest with
the clocks 0.92x the time of 8 MB batches (benchmarks/README.md, "Shot clocks: plain shots
not paired by windows, and batches of a row group")."""


def _python_paired(log_no: int, path: Path) -> tuple[Found, pa.Table | None]:
    """A log the DuckDB pairing left, by the Python reader, which names every bad row; and
    its shots (None when it has problems)."""
    file_hash, read, problems = read_clock_csv(path)
    if problems or file_hash is None:
        return Found(str(path), file_hash, len(read), 0, [], problems), None
    paired, unplaced = pair_shots(read)
    return Found(str(path), file_hash, len(read), len(paired), unplaced, []), shots_table(paired, log_no)


def pair_batch(con: duckdb.DuckDBPyConnection, batch: list[Path]) -> tuple[list[Found], pa.Table]:
    """Read and pair a batch of device logs (:func:`batches`): plain ones together in
    DuckDB, any other by the Python reader. What each log gave, and the shots of all of them
    (:data:`cuelog.store.clocks.SHOTS_SCHEMA`, numbered by position), in the order the device
    rows are paired: by log, then table, stop time and stop line."""
    import pyarrow as pa

    from cuelog.ingest import clockdb  # DuckDB and Arrow come with it: imported where a load needs them

    datas = [_read_bytes(p) for p in batch]
    paired, shots = clockdb.pair_logs(con, [None if d is None else clockdb.device_rows(d) for d in datas])
    found: list[Found] = []
    more = [shots]
    for log_no, (path, data, fast) in enumerate(zip(batch, datas, paired, strict=True)):
        if data is not None and fast is not None:
            file_hash = hashlib.sha256(data).hexdigest()
            found.append(Found(str(path), file_hash, fast.rows, fast.shots, fast.unplaced, []))
        else:
            log, its_shots = _python_paired(log_no, path)
            found.append(log)
            if its_shots is not None:
                more.append(its_shots)
    every = pa.concat_tables(more)
    return found, every.sort_by(
        [("log_no", "ascending"), ("table", "ascending"), ("ts", "ascending"), ("stop_line", "ascending")]
    )


def _placed(placed: dict[int, store_clocks.Placed], log_no: int) -> store_clocks.Placed:
    """What the alignment made of a log (nothing, for a log without shots)."""
    from cuelog.store.clocks import Placed

    return placed.get(log_no) or Placed(aligned=0, matches=[], left_over=[])


def _result(found: Found, placed: store_clocks.Placed) -> ClockResult:
    if found.problems or found.file_hash is None:
        return ClockResult(found.name, found.file_hash, "rejected", found.rows, 0, 0, [], found.problems)
    left = [Unplaced(line, table, text, "stop", reason) for line, table, text, reason in placed.left_over]
    unplaced = sorted(found.unplaced + left, key=lambda u: u.line)
    return ClockResult(found.name, found.file_hash, "loaded", found.rows, found.shots, placed.aligned, unplaced, [])


def _store_all(
    con: duckdb.DuckDBPyConnection, found: list[Found], placed: dict[int, store_clocks.Placed], held: set[str]
) -> list[ClockResult]:
    """Store the placed shots of a batch in one transaction (one INSERT, and one DELETE if a
    reading can be replaced), leaving the rows of storing each log in turn (a later log's
    reading of a stroke replaces an earlier one). If the store refuses the batch, each log
    is stored on its own, all or nothing."""
    import duckdb

    from cuelog.store import clocks as store_clocks

    results = [_result(f, _placed(placed, i)) for i, f in enumerate(found)]
    files = [
        store_clocks.ClockFile(
            log_no=i, file_hash=r.file_hash, name=r.path, matches=_placed(placed, i).matches, lines=r.rows
        )
        for i, r in enumerate(results)
        if r.status == "loaded" and r.file_hash is not None
    ]
    try:
        _transaction(con, files, held)
    except duckdb.Error:
        for f in files:
            _transaction(con, [f], held)
    return results


def _transaction(con: duckdb.DuckDBPyConnection, files: list[store_clocks.ClockFile], held: set[str]) -> None:
    if not files:
        return
    from cuelog.store.clocks import save

    con.begin()
    try:
        save(con, files, held)
        con.commit()
    except BaseException:
        con.rollback()
        raise


def ingest_clock(
    con: duckdb.DuckDBPyConnection, path: str | os.PathLike[str], tolerance_s: float = DEFAULT_TOLERANCE_S
) -> ClockResult:
    """Read, pair and align one device log and store its shots, atomically.

    Aligning is repeated on every load (strokes loaded since may now match), and gives the
    same rows for the same store, so loading the same CSV twice changes nothing.
    """
    return ingest_clocks(con, [path], tolerance_s)[0]


def ingest_clocks(
    con: duckdb.DuckDBPyConnection,
    paths: Sequence[str | os.PathLike[str]],
    tolerance_s: float = DEFAULT_TOLERANCE_S,
    paired: Iterable[PairedBatch] | None = None,
) -> list[ClockResult]:
    """Every device log of a run, each stored on its own as :func:`ingest_clock` says.

    The logs are paired in batches of up to :data:`PAIR_BYTES` (:func:`paired_batches`, or
    ``paired``: the same batches of ``paths`` paired already, say by :func:`pairing_ahead`
    while the logs loaded). The shots of a batch are aligned to the loaded strokes and
    stored by DuckDB (:mod:`cuelog.store.clocks`): no stroke is read into Python.
    """
    from cuelog.store import clocks as store_clocks
    from cuelog.store.loads import vacuum_bounded

    tolerance_us = round(tolerance_s * 1e6)
    held = store_clocks.stored_matches(con)
    out: list[ClockResult] = []
    # Two cursors of the store take the batches in turn: while the batch before is stored
    # on one, a thread aligns the next on the other (the alignment only reads the loaded
    # strokes and matches, and what it places is registered on its own cursor). The batches are
    # still stored one after the other, in order (benchmarks/README.md, "Shot clocks: the
    # next batch aligned while the one before is stored").
    cursors = (con.cursor(), con.cursor())
    aligner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuelog-clock-align")
    try:
        with vacuum_bounded(con):
            before: tuple[PairedBatch, duckdb.DuckDBPyConnection, Future[dict[int, store_clocks.Placed]]] | None = None
            for k, batch in enumerate(paired if paired is not None else paired_batches(paths)):
                cursor = cursors[k % 2]
                aligned = aligner.submit(_aligned, cursor, batch, tolerance_us)
                if before is not None:
                    out += _stored(*before, held)
                before = (batch, cursor, aligned)
            if before is not None:
                out += _stored(*before, held)
    finally:
        aligner.shutdown(wait=True)  # an alignment in flight ends before its cursor closes
        for cursor in cursors:
            store_clocks.drop_placed(cursor)
            cursor.close()
    return out


def _aligned(
    cursor: duckdb.DuckDBPyConnection, batch: PairedBatch, tolerance_us: int
) -> dict[int, store_clocks.Placed]:
    """A batch's shots aligned on ``cursor`` (what it placed registered there, for :func:`_stored`)."""
    from cuelog.store import clocks as store_clocks

    return store_clocks.align(cursor, batch.shots, tolerance_us)


def _stored(
    batch: PairedBatch,
    cursor: duckdb.DuckDBPyConnection,
    aligned: Future[dict[int, store_clocks.Placed]],
    held: set[str],
) -> list[ClockResult]:
    """A batch aligned by :func:`_aligned` stored on its cursor, what it placed then dropped."""
    from cuelog.store import clocks as store_clocks

    try:
        return _store_all(cursor, batch.found, aligned.result(), held)
    finally:
        store_clocks.drop_placed(cursor)


@dataclass(frozen=True, slots=True)
class PairedBatch:
    """A batch of device logs paired: what each log gave, and the shots of all of them
    (:data:`cuelog.store.clocks.SHOTS_SCHEMA`, numbered by the log's position in the batch,
    in the order :func:`pair_batch` gives)."""

    found: list[Found]
    shots: pa.Table


PAIRING_THREADS = 2
"""Batches paired at once, each by a thread on a DuckDB of its own: pairing is mostly Arrow,
numpy and DuckDB, which release Python's lock. After the logs, the pairing of each next
batch held up the aligning and storing of the shot clocks, which then kept 1.45 of two
cores busy (benchmarks/README.md, "Shot clocks: two batches paired at once")."""


def paired_batches(paths: Sequence[str | os.PathLike[str]]) -> Generator[PairedBatch, None, None]:
    """The logs in batches (:func:`batches`), each paired by :func:`pair_batch` on a DuckDB
    of its own, in memory, :data:`PAIRING_THREADS` batches at once, given in order: pairing
    reads nothing of the store, so it may run before the logs are loaded, and beside them."""
    if not paths:
        return
    import duckdb

    # One DuckDB thread each: the batches side by side use the cores (the 1M season's
    # pairing alone 0.96-0.98 s against 1.02-1.07 with DuckDB's thread per core each).
    mems = [duckdb.connect(config={"threads": 1}) for _ in range(PAIRING_THREADS)]
    pool = ThreadPoolExecutor(max_workers=PAIRING_THREADS, thread_name_prefix="cuelog-clock-pair")
    pending: collections.deque[Future[tuple[list[Found], pa.Table]]] = collections.deque()
    try:
        # Batch k on connection k % PAIRING_THREADS: at most that many batches are in flight,
        # so a connection is free again once the batch before on it has been given.
        for k, batch in enumerate(batches([Path(p) for p in paths])):
            if len(pending) == PAIRING_THREADS:
                yield PairedBatch(*pending.popleft().result())
            pending.append(pool.submit(pair_batch, mems[k % PAIRING_THREADS], batch))
        while pending:
            yield PairedBatch(*pending.popleft().result())
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True)  # a batch in flight ends before its connection closes
        for mem in mems:
            mem.close()


PAIRED_AHEAD = 2
"""Batches :func:`pairing_ahead` holds paired at most (each of up to :data:`PAIR_BYTES` of
logs; a batch's shots take a fraction of its bytes). With the one being handed over and
the one being paired, four batches, 48 MB of logs, as three held and one handed over were
before :data:`PAIRING_THREADS` (three held with two threads peaked 1.10x at 1M, against
1.06x with two)."""


@contextlib.contextmanager
def pairing_ahead(paths: Sequence[str | os.PathLike[str]]) -> Iterator[Iterator[PairedBatch]]:
    """:func:`paired_batches` run by a thread of its own from the moment this is entered
    (:class:`cuelog.ingest.ahead.ReadAhead`), while the caller does other work (loads the
    logs the clocks align to): the batches come out in order, at most :data:`PAIRED_AHEAD`
    held. DuckDB and Arrow pair without holding Python's lock, so on two cores the pairing
    costs the caller little. An error in the thread is raised where its batch would have
    come; leaving early stops the thread."""
    from cuelog.ingest.ahead import ReadAhead

    ahead = ReadAhead(paired_batches(paths), PAIRED_AHEAD, name="cuelog-clock-pairing")
    try:
        yield iter(ahead)
    finally:
        ahead.close()


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None  # the Python reader reports it


def batches(paths: list[Path]) -> list[list[Path]]:
    """The paths in order, cut into batches of at most :data:`PAIR_BYTES` (a larger file alone)."""
    batches: list[list[Path]] = []
    size = 0
    for path in paths:
        try:
            n = path.stat().st_size
        except OSError:
            n = 0
        if not batches or size + n > PAIR_BYTES:
            batches.append([])
            size = 0
        batches[-1].append(path)
        size += n
    return batches
