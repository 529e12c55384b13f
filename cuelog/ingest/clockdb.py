"""Shot-clock device logs read and paired in DuckDB, not row by row in Python.

:func:`read_and_pair` gives what :func:`cuelog.ingest.clock.read_clock_csv` and
:func:`cuelog.ingest.clock.pair_shots` give, for a device log written as the devices
write it (the header ``table,ts,event``, plain ASCII cells, no quotes, no blank lines,
times ISO 8601 with an offset): DuckDB's ``read_csv`` with explicit column types reads it,
and window functions over each table's rows in time order pair them into shots by the
rules of docs/format.md section 5 (the module docstring of :mod:`cuelog.ingest.clock`).
Any other file gives ``None`` and goes through the Python reader, which reports each bad
row with its line and field; a file is never paired here when that reader would find a
problem in it.
"""

from __future__ import annotations

import re

import duckdb
import pyarrow as pa

from cuelog.ingest.clock import EVENTS, Unplaced

HEADER = b"table,ts,event\n"
_PLAIN = re.compile(rb"[^\x21-\x7e\n]|\n\n|\"")
"""A byte the fast path leaves to the Python reader: spaces (cells are stripped there),
quotes, control characters (``str.splitlines`` splits on some), non-ASCII, a blank line."""

TIME = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"
"""The times ``cuelog.ingest.validate.parse_time`` accepts whose DuckDB cast gives the same
instant (hours 0-23, at most microseconds); a day the calendar lacks casts to NULL."""

_EVENTS = ", ".join(f"'{e}'" for e in EVENTS)

_READ = f"""
CREATE OR REPLACE TEMP TABLE cuelog_device AS
SELECT "table" AS tbl, ts AS text, event, ordinality + 1 AS line,
       epoch_us(TRY_CAST(ts AS TIMESTAMPTZ)) AS us,
       coalesce("table" IS NOT NULL AND regexp_full_match(ts, '{TIME}') AND substr(ts, 1, 4) <> '0000'
                AND TRY_CAST(ts AS TIMESTAMPTZ) IS NOT NULL AND event IN ({_EVENTS}), false) AS sound
FROM read_csv(?, header = true, auto_detect = false, delim = ',', quote = '', escape = '',
              strict_mode = true, columns = {{'table': 'VARCHAR', 'ts': 'VARCHAR', 'event': 'VARCHAR'}})
     WITH ORDINALITY
"""

# Per table in time order (then line): ``shot`` counts the starts so far, so each start
# opens a group; in it, the first stop or reset ends the shot (``term``), and rows after
# it find no shot running. Pause and resume toggle the clock; one that does not toggle is
# a stray, so the clock is paused exactly when the last toggle before a row was a pause.
_PAIR = """
WITH ordered AS (
    SELECT *, sum((event = 'start')::INT) OVER (PARTITION BY tbl ORDER BY us, line ROWS UNBOUNDED PRECEDING) AS shot
    FROM cuelog_device
), placed AS (
    SELECT *, row_number() OVER (PARTITION BY tbl, shot ORDER BY us, line) AS pos
    FROM ordered
), ended AS (
    SELECT *, min(pos) FILTER (WHERE event IN ('stop', 'reset')) OVER (PARTITION BY tbl, shot) AS term,
           arg_min(event, pos) FILTER (WHERE event IN ('stop', 'reset')) OVER (PARTITION BY tbl, shot) AS ended_by,
           first_value(us) OVER (PARTITION BY tbl, shot ORDER BY pos) AS start_us
    FROM placed
), active AS (
    SELECT *, shot > 0 AND (term IS NULL OR pos <= term) AS running,
           last_value(CASE WHEN event IN ('pause', 'resume') AND (term IS NULL OR pos < term) THEN event END
                      IGNORE NULLS) OVER (PARTITION BY tbl, shot ORDER BY pos
                                          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS toggled
    FROM ended
), toggles AS (
    SELECT *, running AND event = 'pause' AND toggled IS DISTINCT FROM 'pause' AS opens,
           running AND event = 'resume' AND coalesce(toggled = 'pause', false) AS closes
    FROM active
), paused_at AS (
    SELECT *, max(CASE WHEN opens THEN us END) OVER (PARTITION BY tbl, shot ORDER BY pos ROWS UNBOUNDED PRECEDING) AS since
    FROM toggles
), paused AS (
    SELECT *, coalesce(sum(CASE WHEN closes THEN us - since END)
                       OVER (PARTITION BY tbl, shot ORDER BY pos ROWS UNBOUNDED PRECEDING), 0)
              + CASE WHEN toggled = 'pause' AND event NOT IN ('pause', 'resume') THEN us - since ELSE 0 END AS paused_us
    FROM paused_at
)
SELECT *, last_value(CASE WHEN running AND event = 'expire' THEN (us - start_us - paused_us)::DOUBLE / 1e6 END
                     IGNORE NULLS) OVER (PARTITION BY tbl, shot ORDER BY pos
                                         ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS limit_s
FROM paused
"""

_SHOTS = """
SELECT s.tbl AS "table", s.line AS stop_line, s.us AS ts, s.text AS stop_text,
       (s.us - s.start_us - s.paused_us)::DOUBLE / 1e6 AS shot_s, s.paused_us::DOUBLE / 1e6 AS paused_s, s.limit_s
FROM cuelog_paired s
WHERE s.running AND s.pos = s.term AND s.event = 'stop'
ORDER BY s.line
"""

# Rows that end up in no shot, and why (the reasons of cuelog.ingest.clock.pair_shots).
_STRAYS = """
SELECT line, tbl, text, event, reason FROM (
    SELECT *, CASE
        WHEN NOT running AND event <> 'reset' THEN event || '_without_start'
        WHEN running AND event = 'pause' AND NOT opens THEN 'already_paused'
        WHEN running AND event = 'resume' AND NOT closes THEN 'resume_without_pause'
        WHEN running AND event = 'start' AND term IS NULL THEN 'no_stop'
        WHEN running AND event = 'start' AND ended_by = 'reset' THEN 'reset'
    END AS reason
    FROM cuelog_paired
) WHERE reason IS NOT NULL
ORDER BY line
"""


def plain(data: bytes) -> bool:
    """Bytes the fast path reads exactly as the Python reader would."""
    return data.startswith(HEADER) and _PLAIN.search(data) is None


def read_and_pair(
    con: duckdb.DuckDBPyConnection, path: str, data: bytes
) -> tuple[int, pa.Table, list[Unplaced]] | None:
    """``(rows, shots, unplaced)`` of a plain device log whose rows are all sound, or None.

    ``shots`` has the columns ``table, stop_line, ts, stop_text, shot_s, paused_s,
    limit_s``, one row per paired shot in line order. Uses temporary tables only.
    """
    if not plain(data):
        return None
    try:
        con.execute(_READ, [path])
        rows, sound = con.execute("SELECT count(*), bool_and(sound) FROM cuelog_device").fetchall()[0]
        if rows == 0 or not sound:
            return None
        con.execute(f"CREATE OR REPLACE TEMP TABLE cuelog_paired AS {_PAIR}")
        shots = con.sql(_SHOTS).to_arrow_table()
        strays = con.execute(_STRAYS).fetchall()
    except duckdb.Error:
        return None  # a row of another shape: the Python reader names it
    finally:
        con.execute("DROP TABLE IF EXISTS cuelog_device")
        con.execute("DROP TABLE IF EXISTS cuelog_paired")
    return int(rows), shots, [Unplaced(line, table, text, event, reason) for line, table, text, event, reason in strays]
