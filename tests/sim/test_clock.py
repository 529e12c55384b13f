"""Stroke times and the shot-clock device rows (docs/format.md section 5)."""

from __future__ import annotations

import random

from cuelog.simulate.clock import CSV_HEADER, MatchClock, epoch_ms, iso


def test_iso_is_utc_with_milliseconds() -> None:
    assert iso(epoch_ms(2026, 5, 1, 14, 3) + 22_120) == "2026-05-01T14:03:22.120Z"


def test_device_rows_start_before_and_stop_at_each_stroke() -> None:
    clock = MatchClock("3", epoch_ms(2026, 9, 1, 13), random.Random(4))
    times = [clock.shot(12.5) for _ in range(300)]
    rows = clock.rows
    assert [ms for ms, _ in rows] == sorted(ms for ms, _ in rows)
    stops = [ms for ms, e in rows if e == "stop"]
    starts = [ms for ms, e in rows if e == "start"]
    assert len(stops) == len(starts) == len(times)
    for start, stop, t in zip(starts, stops, times, strict=True):
        # The device stops within a fraction of a second of the strike (the as-of join's
        # default tolerance is two seconds).
        assert 0 <= stop - t <= 200
        assert t - start >= 12_500
    assert any(e == "pause" for _, e in rows) == any(e == "resume" for _, e in rows)
    lines = clock.csv_rows()
    assert lines[0].startswith("3,2026-09-01T13:") and lines[0].endswith(",start\n")
    assert CSV_HEADER == "table,ts,event\n"
