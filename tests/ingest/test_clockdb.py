"""Device logs read and paired in DuckDB (cuelog.ingest.clockdb) against the Python reader
and pairing (docs/format.md section 5): the same shots, the same times, the same rows left
over with the same reasons, and every file the Python reader would find fault with left to it.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pyarrow.compute as pc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuelog.ingest import clockdb
from cuelog.ingest.clock import pair_shots, read_clock_csv, shots_table
from cuelog.ingest.clockdb import device_rows, pair_logs
from cuelog.ingest.device import EVENTS

COLUMNS = ["table", "stop_line", "ts", "stop_text", "shot_s", "paused_s", "limit_s"]


def both(path: Path) -> tuple[tuple[int, pl.DataFrame, list], tuple[int, pl.DataFrame, list] | None]:
    _, rows, problems = read_clock_csv(path)
    assert problems == []
    shots, unplaced = pair_shots(rows)
    frame = pl.from_arrow(shots_table(shots, 0))
    assert isinstance(frame, pl.DataFrame)
    python = (len(rows), frame.select(COLUMNS).sort("stop_line"), unplaced)
    con = duckdb.connect()
    try:
        [fast], paired = pair_logs(con, [device_rows(path.read_bytes())])
        shots = pl.from_arrow(paired)
    finally:
        con.close()
    if fast is None:
        return python, None
    assert isinstance(shots, pl.DataFrame) and fast.shots == shots.height
    return python, (fast.rows, shots.select(COLUMNS).sort("stop_line"), fast.unplaced)


ZONES = ("Z", "Z", "+00:00", "+05:30", "-03:00")
"""A time's zone: mostly UTC, as devices write it, and offsets either way."""


@st.composite
def device_logs(draw: st.DrawFn) -> str:
    """Rows of two tables in any order of events, times rising or tied, with milliseconds,
    each in a zone of its own; the last row with or without its line end."""
    lines = ["table,ts,event"]
    clock = 0
    for _ in range(draw(st.integers(1, 40))):
        clock += draw(st.sampled_from([0, 1, 250, 1000, 7300]))
        table = draw(st.sampled_from(["7", "8"]))
        event = draw(st.sampled_from((*EVENTS, "start", "stop")))
        seconds, ms = divmod(clock, 1000)
        zone = draw(st.sampled_from(ZONES))
        lines.append(f"{table},2026-05-01T14:{seconds // 60:02d}:{seconds % 60:02d}.{ms:03d}{zone},{event}")
    order = draw(st.permutations(range(1, len(lines))))  # the file need not be in time order
    end = draw(st.sampled_from(["\n", ""]))  # the last row with or without its line end
    return "\n".join([lines[0], *(lines[i] for i in order)]) + end


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=device_logs())
def test_duckdb_pairs_every_device_log_as_the_python_rules_do(text, tmp_path):
    path = tmp_path / "device.csv"
    path.write_text(text)
    python, fast = both(path)
    assert fast is not None
    assert fast[0] == python[0]
    assert fast[1].to_dicts() == python[1].to_dicts()
    assert fast[2] == python[2]


@st.composite
def shot_logs(draw: st.DrawFn) -> str:
    """Rows of up to three tables, mostly a start and its stop one after the other (the
    common shot), among strays, starts left running, resets and pauses."""
    lines = ["table,ts,event"]
    clock = 0
    zone = draw(st.sampled_from(ZONES))  # one zone a log: its shots stay in time order
    for _ in range(draw(st.integers(0, 25))):
        table = draw(st.sampled_from(["7", "8", "9"]))
        pattern = draw(
            st.sampled_from(
                [("start", "stop")] * 4 + [("start",), ("stop",), ("reset",), ("start", "reset"), ("pause",)]
            )
        )
        for event in pattern:
            clock += draw(st.sampled_from([0, 1, 900, 4000]))
            seconds, ms = divmod(clock, 1000)
            lines.append(f"{table},2026-05-01T15:{seconds // 60:02d}:{seconds % 60:02d}.{ms:03d}{zone},{event}")
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(shot_logs(), min_size=1, max_size=4))
def test_several_logs_paired_in_one_pass_each_pair_as_the_python_rules_do(texts, tmp_path):
    """A start and its stop in the next row are taken out of the pairing as one shot: only
    when nothing runs before the start (the row before it a stop or a reset, or none of its
    table), so every log of a batch, and every row around such a pair, is paired as the
    Python rules pair it (a start left running before the pair ends at the pair's start)."""
    paths = []
    for i, text in enumerate(texts):
        paths.append(tmp_path / f"d{i}.csv")
        paths[-1].write_text(text)
    con = duckdb.connect()
    try:
        paired, every = pair_logs(con, [device_rows(p.read_bytes()) for p in paths])
        for log_no, (path, fast) in enumerate(zip(paths, paired, strict=True)):
            _, rows, problems = read_clock_csv(path)
            assert problems == []
            shots, unplaced = pair_shots(rows)
            if not rows:
                assert fast is None
                continue
            expected = pl.from_arrow(shots_table(shots, 0))
            got = pl.from_arrow(every.filter(pc.equal(every.column("log_no"), log_no)))
            assert isinstance(expected, pl.DataFrame) and isinstance(got, pl.DataFrame)
            assert fast is not None and (fast.rows, fast.shots) == (len(rows), len(shots))
            assert (
                got.select(COLUMNS).sort("stop_line").to_dicts()
                == expected.select(COLUMNS).sort("stop_line").to_dicts()
            )
            assert fast.unplaced == unplaced
    finally:
        con.close()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.one_of(shot_logs(), device_logs()), min_size=1, max_size=4), bad=st.booleans())
def test_rows_marked_by_arrow_pair_as_when_duckdb_marks_them(texts, bad, monkeypatch):
    """Arrow and numpy read the times and mark the plain shots (``clockdb._marked``); when
    Arrow cannot read a time, DuckDB does (``_READ``, ``_MARK``). Both give every log the
    same shots, counts and rows left over, logs in or out of time order, any zone, and a
    log with a day the calendar lacks left to the Python reader either way."""
    if bad:  # Arrow refuses the batch: DuckDB finds that log unsound, the others paired
        texts = [*texts, "table,ts,event\n7,2026-02-30T10:00Z,start\n7,2026-02-30T10:01Z,stop\n"]
    logs = [device_rows(text.encode()) for text in texts]
    marked: list[bool] = []
    arrow = clockdb._marked

    def watched(rows):
        got = arrow(rows)
        marked.append(got is not None)
        return got

    def paired() -> tuple[list, list]:
        con = duckdb.connect()
        try:
            result, shots = pair_logs(con, logs)
            return result, sorted(tuple(row.values()) for row in shots.to_pylist())
        finally:
            con.close()

    with monkeypatch.context() as m:
        m.setattr(clockdb, "_marked", watched)
        by_arrow = paired()
    with monkeypatch.context() as m:
        m.setattr(clockdb, "_marked", lambda rows: None)
        by_duckdb = paired()
    assert by_arrow == by_duckdb
    rows = any(log is not None and log.num_rows for log in logs)
    assert marked == ([not bad] if rows else [])  # the path this test is about taken (refused on a bad day)
    if bad:
        assert by_arrow[0][-1] is None


def test_pauses_an_expiry_and_a_stop_while_paused_give_the_python_times(tmp_path):
    """docs/format.md 5: paused time is not shot time; ``expire`` marks the limit; a stop
    while paused ends the pause."""
    path = tmp_path / "t.csv"
    path.write_text(
        "table,ts,event\n"
        "7,2026-05-01T14:01:00.000Z,start\n"
        "7,2026-05-01T14:01:05.000Z,pause\n"
        "7,2026-05-01T14:01:06.000Z,pause\n"
        "7,2026-05-01T14:01:09.000Z,resume\n"
        "7,2026-05-01T14:01:15.000Z,expire\n"
        "7,2026-05-01T14:01:20.000Z,pause\n"
        "7,2026-05-01T14:01:31.000Z,stop\n"
    )
    python, fast = both(path)
    assert fast is not None
    [shot] = fast[1].to_dicts()
    assert (shot["shot_s"], shot["paused_s"], shot["limit_s"]) == (
        16.0,
        15.0,
        11.0,
    )  # 31 s less 4 + 11 s paused; 15 s less 4
    assert [(u.line, u.reason) for u in fast[2]] == [(4, "already_paused")]
    assert fast[1].to_dicts() == python[1].to_dicts() and fast[2] == python[2]


@pytest.mark.parametrize(
    "row",
    [
        "7, 2026-05-01T14:03:00Z,stop",  # a space: the Python reader strips cells
        '"7",2026-05-01T14:03:00Z,stop',  # quoted
        "7,2026-05-01T14:03:00.1234567Z,stop",  # beyond microseconds
        "7,2026-05-01T24:00Z,stop",  # hour 24
        "7,2026-02-30T10:00Z,stop",  # no such day
        "7,2026-05-01T14:03:00+25:00,stop",  # offset beyond a day
        "7,2026-05-01T14:03:00,stop",  # no offset
        "7,2026-05-01T14:03:00Z,launch",  # unknown event
        ",2026-05-01T14:03:00Z,stop",  # no table
        "7,2026-05-01T14:03:00Z",  # two cells
        "7,2026-05-01T14:03:00Z,stop,extra",  # four cells
        "",  # a blank line
        "tisch-\u00fc,2026-05-01T14:03:00Z,stop",  # not ASCII
    ],
)
def test_a_row_the_python_reader_treats_otherwise_leaves_the_file_to_it(row, tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("table,ts,event\n7,2026-05-01T14:00:01.000Z,start\n" + row + "\n7,2026-05-01T14:00:09Z,stop\n")
    con = duckdb.connect()
    try:
        paired, shots = pair_logs(con, [device_rows(path.read_bytes())])
        assert paired == [None] and shots.num_rows == 0
        assert con.execute("SELECT table_name FROM duckdb_tables() WHERE temporary").fetchall() == []
    finally:
        con.close()


def test_a_log_of_more_rows_than_a_duckdb_row_group_pairs_as_the_python_rules_do(tmp_path):
    """The pairing reads the rows in one stored order with streaming windows: a log longer
    than DuckDB's row group (122,880 rows), its rows not in time order, gives the Python
    shots and strays all the same."""
    events = ("start", "pause", "resume", "expire", "stop", "stop", "start", "reset", "start", "stop")
    lines = ["table,ts,event"]
    for i in range(12_500):
        for j, event in enumerate(events):
            ms = i * 10_000 + j * 700 + (i % 3)
            seconds, ms = divmod(ms, 1000)
            minutes, seconds = divmod(seconds, 60)
            hours, minutes = divmod(minutes, 60)
            lines.append(
                f"{i % 3},2026-05-{1 + hours // 24:02d}T{hours % 24:02d}:{minutes:02d}:{seconds:02d}.{ms:03d}Z,{event}"
            )
    path = tmp_path / "long.csv"
    path.write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n")
    python, fast = both(path)
    assert fast is not None and fast[0] == python[0] == 125_000
    assert fast[1].equals(python[1])
    assert fast[2] == python[2] and len(fast[2]) == 2 * 12_500
