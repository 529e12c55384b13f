"""Shot-clock device logs paired in DuckDB, many logs in one pass, not row by row in Python.

:func:`pair_logs` gives, for each device log written as the devices write it (the header
``table,ts,event``, plain ASCII cells, no quotes, no blank lines, every row sound), what
:func:`cuelog.ingest.clock.read_clock_csv` and :func:`cuelog.ingest.clock.pair_shots` give:
the rows are split into columns by Arrow (:func:`device_rows`, each row keeping its line),
their times checked and read, and the plain shots (a start and its stop, nothing else
running: nearly every row) marked, by Arrow and numpy (:func:`_marked`; by DuckDB, as
:data:`_READ` and :data:`_MARK` say, when Arrow cannot read a time); window functions over
each table's other rows in time order pair them into shots by the rules of docs/format.md
section 5 (the module docstring of :mod:`cuelog.ingest.clock`). Every other log gives ``None`` and goes through the Python
reader, which reports each bad row with its line and field: a log is never paired here
when that reader would find a problem in it.

The logs of a run are paired together because a statement's fixed cost, not the rows,
is most of the time for a device log of a few thousand rows. (DuckDB's ``read_csv`` was
measured too: it numbers the rows of several files in one sequence, and splitting with
Arrow costs less than a statement per file.)
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Final

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from cuelog.ingest.device import EVENTS, Unplaced
from cuelog.store.clocks import SHOTS_SCHEMA

HEADER = b"table,ts,event\n"
_PLAIN = bytes(range(0x21, 0x7F)).replace(b'"', b"") + b"\n"
"""The bytes of a plain log: the fast path leaves any other to the Python reader (spaces:
cells are stripped there; quotes; control characters: ``str.splitlines`` splits on some;
non-ASCII). ``bytes.translate`` deletes these and what is left is what the fast path
cannot take (a regular expression over the bytes measured 6.8x slower)."""

TIME = (
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?"
    r"(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"
)
"""The times ``cuelog.ingest.validate.parse_time`` accepts whose DuckDB cast gives the same
instant (hours 0-23, at most microseconds); a day the calendar lacks casts to NULL."""

_EVENTS = ", ".join(f"'{e}'" for e in EVENTS)

# The rows cast once and stored in the order the pairing reads them: by file and table, then
# time, then line. Every window of the pairing then runs over that order as it streams
# (DuckDB's streaming window: no partition, no sort of its own), which a scan gives back
# because DuckDB keeps a table's insertion order (``preserve_insertion_order``, on by
# default; cuelog never turns it off).
_READ = f"""
CREATE OR REPLACE TEMP TABLE cuelog_device AS
SELECT file, tbl, text, event, line, epoch_us(t) AS us,
       coalesce(tbl <> '' AND regexp_full_match(text, '{TIME}') AND substr(text, 1, 4) <> '0000'
                AND t IS NOT NULL AND event IN ({_EVENTS}), false) AS sound
FROM (SELECT *, TRY_CAST(text AS TIMESTAMPTZ) AS t FROM cuelog_device_rows)
ORDER BY file, tbl, us, line
"""

# A start right after a stop or a reset (or first in its file and table), whose next row
# is its file and table's stop, is a shot with no pause and no expiry: the shot the rules
# of the pairing below give it, started when nothing runs and ended by its own stop, so
# taking both rows out leaves the pairing of every other row as it was (nothing runs
# before the start or after the stop). Most shots are such a pair (99% of the rows of a
# simulated season), so one streaming pass marks them, each pair's stop makes its shot
# (:data:`_PLAIN_SHOTS`), and only the other rows are paired: the pairing's CPU at 1M strokes
# 2.5 s against 3.4 s (benchmarks/README.md, "Shot clocks: plain shots not paired by
# windows, and batches of a row group"). A view: read twice, by the rows left and by the
# shots, it costs less than writing every row again.
_MARK = """
CREATE OR REPLACE TEMP VIEW cuelog_device_marked AS
SELECT *, coalesce(
        event = 'start' AND after = 'stop' AND same_after AND (NOT same_before OR before IN ('stop', 'reset'))
        OR event = 'stop' AND before = 'start' AND same_before
           AND (NOT same_before2 OR before2 IN ('stop', 'reset')), false) AS plain_shot
FROM (
    SELECT *, lead(event) OVER () AS after, lag(event) OVER () AS before, lag(event, 2) OVER () AS before2,
           lead(file) OVER () = file AND lead(tbl) OVER () = tbl AS same_after,
           coalesce(lag(file) OVER () = file AND lag(tbl) OVER () = tbl, false) AS same_before,
           coalesce(lag(file, 2) OVER () = file AND lag(tbl, 2) OVER () = tbl, false) AS same_before2,
           lag(us) OVER () AS before_us, lag(line) OVER () AS before_line
    FROM cuelog_device
)
"""

# The rows left to pair, in the same order (a table: the pairing's windows stream over its scan).
_REST = """
CREATE OR REPLACE TEMP TABLE cuelog_device_rest AS
SELECT file, tbl, text, event, line, us FROM cuelog_device_marked WHERE NOT plain_shot
"""

# One pass over the rows left, in that order (``i``), each window running from the first row to
# the current one. A file and table (a partition) begins where either changes (``p``, its
# first row); ``s`` is the last start so far, and a row is in a shot when that start is in
# its partition: the shot runs until its first stop or reset (``k`` counts the stops and
# resets so far, ``ks`` at the start), and a row after that finds no shot running. Pause
# and resume toggle the clock; one that does not toggle is a stray, so the clock is paused
# exactly when the last toggle of the shot before a row was a pause (``toggle``: the index
# of the last toggle so far and whether it paused, in one number). The time paused so far
# is the closing resumes' times less the opening pauses' times, each from the shot's
# start, plus the row's own time while paused: a running sum over all rows, less its value
# at the shot's start. The limit is the running time at the shot's last expiry. A start
# whose shot ends (the next row starts a shot or another partition) still running with no
# stop or reset is ``no_stop``; one ended by a reset is ``reset``. (This replaced windows
# per file and table, an aggregate per shot joined back, and windows per shot: each sorted
# the rows again.) Kept are the rows a shot or a stray is read from: not the starts and
# expiries inside a shot, a third of the rows and more.
_PAIR = """
WITH numbered AS (
    SELECT *, row_number() OVER () AS i,
           coalesce(file <> lag(file) OVER () OR tbl <> lag(tbl) OVER (), true) AS np,
           event = 'start' AS is_start, event IN ('stop', 'reset') AS is_term
    FROM cuelog_device_rest
), counted AS (
    SELECT *, max(CASE WHEN np THEN i END) OVER w AS p, max(CASE WHEN is_start THEN i END) OVER w AS s,
           sum(is_term::INT) OVER w AS k,
           last_value(CASE WHEN is_start THEN us END IGNORE NULLS) OVER w AS start_us,
           last_value(CASE WHEN is_start THEN line END IGNORE NULLS) OVER w AS start_line,
           last_value(CASE WHEN is_start THEN text END IGNORE NULLS) OVER w AS start_text,
           max(CASE WHEN event IN ('pause', 'resume') THEN 2 * i + (event = 'pause')::INT END) OVER w AS toggle
    FROM numbered WINDOW w AS (ROWS UNBOUNDED PRECEDING)
), started AS (
    SELECT *, coalesce(s >= p, false) AS in_shot, max(CASE WHEN is_start THEN k END) OVER w AS ks,
           lag(toggle) OVER () AS toggle_before, lead(np OR is_start, 1, true) OVER () AS shot_ends
    FROM counted WINDOW w AS (ROWS UNBOUNDED PRECEDING)
), toggles AS (
    SELECT *, running AND event = 'pause' AND toggled IS DISTINCT FROM 'pause' AS opens,
           running AND event = 'resume' AND coalesce(toggled = 'pause', false) AS closes
    FROM (SELECT *, in_shot AND k - is_term::INT = ks AS running,
                 CASE WHEN in_shot AND toggle_before // 2 > s
                      THEN CASE WHEN toggle_before % 2 = 1 THEN 'pause' ELSE 'resume' END END AS toggled
          FROM started)
), summed AS (
    SELECT *, sum(CASE WHEN closes THEN us - start_us WHEN opens THEN start_us - us ELSE 0 END) OVER w AS c
    FROM toggles WINDOW w AS (ROWS UNBOUNDED PRECEDING)
), paused AS (
    SELECT *, (c - last_value(CASE WHEN is_start THEN c END IGNORE NULLS) OVER w
               + CASE WHEN toggled = 'pause' AND event NOT IN ('pause', 'resume') THEN us - start_us ELSE 0 END
              )::BIGINT AS paused_us
    FROM summed WINDOW w AS (ROWS UNBOUNDED PRECEDING)
), expired AS (
    SELECT *, CASE WHEN running AND event = 'expire' THEN (us - start_us - paused_us)::DOUBLE / 1e6 END AS at_expiry
    FROM paused
)
SELECT * FROM (
    SELECT file, tbl, text, event, line, us, start_us, paused_us, running, opens, closes, is_term, shot_ends,
           start_line, start_text,
           CASE WHEN max(CASE WHEN at_expiry IS NOT NULL THEN i END) OVER w > s
                THEN last_value(at_expiry IGNORE NULLS) OVER w END AS limit_s
    FROM expired WINDOW w AS (ROWS UNBOUNDED PRECEDING)
) WHERE NOT running OR event IN ('stop', 'reset', 'pause', 'resume') OR shot_ends
"""

# The shots of the sound logs (cuelog.store.clocks.SHOTS_SCHEMA), in no order: the caller
# gives the order (cuelog.ingest.clock, the alignment's sort), so sorting them here too cost
# 0.09 of the statement's 0.52 CPU s at 1M. The paired rows' shots; and the plain shots,
# when DuckDB marked them (else :func:`_marked` made them).
_PAIRED_SHOTS = """
SELECT s.file::INTEGER AS log_no, s.tbl AS "table", s.us::BIGINT AS ts, s.start_line::BIGINT AS start_line,
       s.line::BIGINT AS stop_line, s.text AS stop_text, (s.us - s.start_us - s.paused_us)::DOUBLE / 1e6 AS shot_s,
       s.paused_us::DOUBLE / 1e6 AS paused_s, s.limit_s::DOUBLE AS limit_s
FROM cuelog_paired s
WHERE s.running AND s.event = 'stop' AND list_contains($sound, s.file)
"""
_PLAIN_SHOTS = """
SELECT file::INTEGER AS log_no, tbl AS "table", us::BIGINT AS ts, before_line::BIGINT AS start_line,
       line::BIGINT AS stop_line, text AS stop_text, (us - before_us)::DOUBLE / 1e6 AS shot_s, 0::DOUBLE AS paused_s,
       NULL::DOUBLE AS limit_s
FROM cuelog_device_marked
WHERE plain_shot AND event = 'stop' AND list_contains($sound, file)
"""

# Rows that end up in no shot, and why (the reasons of cuelog.ingest.clock.pair_shots).
_STRAYS = """
SELECT file, line, tbl, text, event, reason FROM (
    SELECT file, line, tbl, text, event, CASE
        WHEN NOT running AND event <> 'reset' THEN event || '_without_start'
        WHEN running AND event = 'pause' AND NOT opens THEN 'already_paused'
        WHEN running AND event = 'resume' AND NOT closes THEN 'resume_without_pause'
    END AS reason
    FROM cuelog_paired
    UNION ALL
    SELECT file, start_line, tbl, start_text, 'start', CASE WHEN event = 'reset' THEN 'reset' ELSE 'no_stop' END
    FROM cuelog_paired
    WHERE running AND (event = 'reset' OR shot_ends AND NOT is_term)
) WHERE reason IS NOT NULL AND list_contains($sound, file)
ORDER BY file, line
"""


def plain(data: bytes) -> bool:
    """Bytes the fast path reads exactly as the Python reader would."""
    return data.startswith(HEADER) and not data.translate(None, _PLAIN) and b"\n\n" not in data


def device_rows(data: bytes) -> pa.Table | None:
    """The rows of a plain device log as columns ``tbl, text, event, line``, or None when
    the log is not plain or a row has other than three cells."""
    if not plain(data):
        return None
    # Arrow's CSV reader splits the rows, not Python: a plain log has no quotes, escapes,
    # spaces or blank lines, so its cells are the text between the commas, and a row of
    # other than three cells is an error. (Splitting the lines and cells with Arrow's
    # compute functions took 1.5 times as long: benchmarks/README.md, "Shot clocks:
    # device logs split by Arrow's CSV reader".)
    try:
        table = pcsv.read_csv(pa.BufferReader(data), **_CSV)
    except pa.ArrowInvalid:
        return None
    if not table.num_rows:
        return None
    # The rows' lines in the file, the header being line 1: counted in Arrow, as a list of
    # Python ints costs as much as the split.
    lines = pc.cumulative_sum(pa.repeat(pa.scalar(1, pa.int64()), table.num_rows), start=1)
    return pa.table([*table.columns, lines], names=["tbl", "text", "event", "line"])


_CSV = {
    "read_options": pcsv.ReadOptions(use_threads=False),
    "parse_options": pcsv.ParseOptions(
        quote_char=False, escape_char=False, newlines_in_values=False, ignore_empty_lines=False
    ),
    "convert_options": pcsv.ConvertOptions(
        column_types=dict.fromkeys(HEADER.decode().strip().split(","), pa.large_string()),
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    ),
}
"""Every cell read as text, as it is: no quoting, no nulls, no inferred types."""


@dataclass(frozen=True, slots=True)
class Paired:
    """A device log paired in DuckDB: its rows, how many shots it gave and its rows left over."""

    rows: int
    shots: int
    unplaced: list[Unplaced]


def pair_logs(con: duckdb.DuckDBPyConnection, logs: list[pa.Table | None]) -> tuple[list[Paired | None], pa.Table]:
    """Each log (:func:`device_rows`) paired, all in one pass, and the shots of all of them
    (:data:`cuelog.store.clocks.SHOTS_SCHEMA`, in no order) under each log's position in
    ``logs``; None for a log that is None or has a row the Python reader would report (it
    gives no shot). Uses temporary tables only, dropped after."""
    none: list[Paired | None] = [None] * len(logs)
    given = [(i, t) for i, t in enumerate(logs) if t is not None and t.num_rows]
    if not given:
        return none, SHOTS_SCHEMA.empty_table()
    rows = pa.concat_tables(t.add_column(0, "file", pa.repeat(pa.scalar(i, pa.int32()), t.num_rows)) for i, t in given)
    marked = _marked(rows)
    try:
        sound, plain = _marked_in_duckdb(con, rows) if marked is None else _marked_rows_in(con, marked)
        if not sound:
            return none, SHOTS_SCHEMA.empty_table()
        con.execute(f"CREATE OR REPLACE TEMP TABLE cuelog_paired AS {_PAIR}")
        paired = con.sql(_PAIRED_SHOTS, params={"sound": sound}).to_arrow_table()
        shots = pa.concat_tables([plain.cast(SHOTS_SCHEMA), paired.cast(SHOTS_SCHEMA)])
        strays = con.execute(_STRAYS, {"sound": sound}).fetchall()
    except duckdb.Error:
        return none, SHOTS_SCHEMA.empty_table()  # the Python reader takes every log, and names what is wrong
    finally:
        for name in ("cuelog_device_rows", "cuelog_device_left"):
            with contextlib.suppress(duckdb.Error):
                con.unregister(name)
        con.execute("DROP TABLE IF EXISTS cuelog_device")
        con.execute("DROP VIEW IF EXISTS cuelog_device_marked")
        con.execute("DROP TABLE IF EXISTS cuelog_device_rest")
        con.execute("DROP TABLE IF EXISTS cuelog_paired")
    counts = np.bincount(shots.column("log_no").to_numpy(), minlength=len(logs))
    left: dict[int, list[Unplaced]] = {}
    for file, line, table, text, event, reason in strays:
        left.setdefault(file, []).append(Unplaced(line, table, text, event, reason))
    out = none.copy()
    for i, t in given:
        if i in sound:
            out[i] = Paired(t.num_rows, int(counts[i]), left.get(i, []))
    return out, shots


def _marked_in_duckdb(con: duckdb.DuckDBPyConnection, rows: pa.Table) -> tuple[list[int], pa.Table]:
    """The sound logs of ``rows`` and their plain shots, the rows read, checked and marked
    by DuckDB; the other rows into ``cuelog_device_rest``."""
    con.register("cuelog_device_rows", rows)
    con.execute(_READ)
    checked = con.execute("SELECT file, bool_and(sound) FROM cuelog_device GROUP BY file").fetchall()
    sound = sorted(f for f, ok in checked if ok)
    if not sound:
        return sound, SHOTS_SCHEMA.empty_table()
    con.execute(_MARK)
    con.execute(_REST)
    return sound, con.sql(_PLAIN_SHOTS, params={"sound": sound}).to_arrow_table()


@dataclass(frozen=True, slots=True)
class _Marked:
    """What :func:`_marked` made of a batch's rows: the sound logs, their plain shots
    (:data:`cuelog.store.clocks.SHOTS_SCHEMA`) and their other rows, in the pairing's order,
    with their times."""

    sound: list[int]
    plain: pa.Table
    rest: pa.Table


def _marked_rows_in(con: duckdb.DuckDBPyConnection, marked: _Marked) -> tuple[list[int], pa.Table]:
    """The sound logs and plain shots :func:`_marked` made, its other rows into
    ``cuelog_device_rest`` (in their order: the pairing's windows read it as stored)."""
    if marked.sound:
        con.register("cuelog_device_left", marked.rest)
        con.execute("CREATE OR REPLACE TEMP TABLE cuelog_device_rest AS SELECT * FROM cuelog_device_left")
    return marked.sound, marked.plain


_EVENT_NAMES: Final = pa.array(EVENTS)
_START, _STOP, _RESET = (EVENTS.index(e) for e in ("start", "stop", "reset"))


def _marked(rows: pa.Table) -> _Marked | None:
    """What :data:`_READ` and :data:`_MARK` make of ``rows`` (the rows of a batch's logs,
    ``file`` their number), in Arrow and numpy: at 1M shots a third of the CPU of DuckDB's
    statements (benchmarks/README.md, "Shot clocks: plain shots marked by Arrow"). A log is
    sound when every row is (a table, a time :data:`TIME` takes, not of year 0000, and an
    event of :data:`EVENTS`); its times are Arrow's reading, which DuckDB's cast gives too
    (``tests/ingest/test_clockdb.py``). None when Arrow refuses a time (a day the calendar
    lacks): the caller leaves the batch to DuckDB, whose cast finds that log unsound. The
    rows are put in the pairing's order (file, table, time, line) unless they are in it
    already; a start and its stop are a plain shot as :data:`_MARK` says."""
    text, table, event = rows.column("text"), rows.column("tbl"), rows.column("event")
    sound_row = pc.and_(
        pc.and_(pc.match_substring_regex(text, TIME), pc.invert(pc.starts_with(text, "0000"))),
        pc.and_(pc.not_equal(table, ""), pc.is_in(event, _EVENT_NAMES)),
    )
    files = rows.column("file")
    unsound = set(pc.unique(files.filter(pc.invert(sound_row))).to_pylist())
    sound = sorted(set(pc.unique(files).to_pylist()) - unsound)
    if unsound:
        rows = rows.filter(pc.invert(pc.is_in(files, pa.array(sorted(unsound), pa.int32()))))
    try:
        us = rows.column("text").cast(pa.timestamp("us", tz="UTC")).cast(pa.int64())
    except pa.ArrowInvalid:
        return None
    rows = rows.append_column("us", us)
    marked = _plain(rows, sound)
    if marked is None:  # out of the pairing's order: put in it first
        marked = _plain(rows.take(pc.sort_indices(rows, [(c, "ascending") for c in _PAIRING_ORDER])), sound)
    return marked


_PAIRING_ORDER: Final = ("file", "tbl", "us", "line")
"""The order the pairing reads the rows in (:data:`_READ`'s ``ORDER BY``)."""


def _plain(rows: pa.Table, sound: list[int]) -> _Marked | None:
    """The plain shots of rows in the pairing's order, and the other rows (:data:`_MARK`):
    a start whose next row is its stop, with nothing running before it (first in its file
    and table, or after a stop or a reset), and that stop. None when the rows are not in
    that order (file, table as DuckDB orders text, time, line): the comparisons of each row
    with the one before it tell both."""
    n = rows.num_rows
    file, us, line = (rows.column(c).to_numpy() for c in ("file", "us", "line"))
    table = rows.column("tbl").combine_chunks()
    event = pc.index_in(rows.column("event"), _EVENT_NAMES).to_numpy(zero_copy_only=False)
    # Whether each row continues the file and table of the row before it.
    same = np.zeros(n, dtype=bool)
    if n > 1:
        later, earlier = table.slice(1), table.slice(0, n - 1)
        table_same = pc.equal(later, earlier).to_numpy(zero_copy_only=False)
        same_file = file[1:] == file[:-1]
        in_order = (file[1:] > file[:-1]) | (
            same_file
            & (
                pc.greater(later, earlier).to_numpy(zero_copy_only=False)
                | (table_same & ((us[1:] > us[:-1]) | ((us[1:] == us[:-1]) & (line[1:] > line[:-1]))))
            )
        )
        if not np.all(in_order):
            return None
        same[1:] = same_file & table_same
    before, before2, after = (np.full(n, -1, dtype=event.dtype) for _ in range(3))
    before[1:], before2[2:], after[:-1] = event[:-1], event[:-2], event[1:]
    same_after, same_before2 = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    same_after[:-1] = same[1:]
    same_before2[2:] = same[2:] & same[1:-1]
    idle_before = (before == _STOP) | (before == _RESET)
    idle_before2 = (before2 == _STOP) | (before2 == _RESET)
    plain = ((event == _START) & (after == _STOP) & same_after & (~same | idle_before)) | (
        (event == _STOP) & (before == _START) & same & (~same_before2 | idle_before2)
    )
    stops = np.flatnonzero(plain & (event == _STOP))
    at = pa.array(stops)
    shots = pa.table(
        {
            "log_no": pa.array(file[stops], pa.int32()),
            "table": table.take(at).cast(pa.string()),
            "ts": pa.array(us[stops], pa.int64()),
            "start_line": pa.array(line[stops - 1], pa.int64()),
            "stop_line": pa.array(line[stops], pa.int64()),
            "stop_text": rows.column("text").take(at).cast(pa.string()),
            "shot_s": pa.array((us[stops] - us[stops - 1]).astype(np.float64) / 1e6),
            "paused_s": pa.array(np.zeros(len(stops))),
            "limit_s": pa.nulls(len(stops), pa.float64()),
        }
    )
    rest = rows.filter(pa.array(~plain)).select(["file", "tbl", "text", "event", "line", "us"])
    return _Marked(sound, shots, rest)
