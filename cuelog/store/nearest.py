"""Each device shot's stroke: the stops and the strokes near them as columns, in numpy.

The rule (docs/format.md section 5, docs/ingest.md "Shot-clock device logs"): a shot's
``stop`` goes to the stroke on its table whose time is nearest, within the tolerance; of two
equally near, the later (the stroke the shot can have started); of strokes at one instant
on one table, the last by match, frame and number. Of two shots of one log on one stroke
the nearer keeps it, then the earlier line; the other is ``stroke_taken``. A stop with no
stroke near enough is ``no_stroke``. Of several logs' readings of one stroke, the latest
log's is the one stored.

:func:`placed` applies it to a batch's shots and the strokes :mod:`cuelog.store.clocks`
reads for them, with sorts and running maxima over whole columns: no stroke or shot becomes
a Python object. DuckDB's window functions took 2.3 times the CPU for the alignment (at 1M
shots; benchmarks/README.md, "Shot clocks: each stop's stroke found in numpy").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

ALIGNED_SCHEMA: Final = pa.schema(
    [
        ("log_no", pa.int32()),
        ("table", pa.string()),
        ("stop_line", pa.int64()),
        ("stop_text", pa.string()),
        ("shot_s", pa.float64()),
        ("paused_s", pa.float64()),
        ("limit_s", pa.float64()),
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("reason", pa.string()),
        ("latest", pa.bool_()),
    ]
)
"""Every shot with the stroke it was placed on: its log and line, its times, the stroke's
match, frame and number (null when none), why it was left over (null when placed) and
``latest`` (placed, and no later log of the batch placed a shot on that stroke). In log
order, each log's shots in the order of their strokes' match, frame and number (those left
over first), then by line: the order :func:`cuelog.store.clocks.save` stores them in."""

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


def placed(shots: pa.Table, strokes: pa.Table, tolerance_us: int) -> pa.Table:
    """Each of ``shots`` (``log_no, table, ts, stop_line, stop_text, shot_s, paused_s,
    limit_s``; ``ts`` the stop in epoch microseconds) placed on one of ``strokes`` (``table,
    t, match_id, frame, n``; ``t`` in epoch microseconds), as :data:`ALIGNED_SCHEMA`."""
    names = pc.unique(pa.chunked_array([*strokes.column("table").chunks, *shots.column("table").chunks], pa.string()))
    near = _near(strokes, names)
    stop_table = _ints(pc.index_in(shots.column("table"), value_set=names))
    stop_t = _ints(shots.column("ts"))
    log_no = _ints(shots.column("log_no"))
    line = _ints(shots.column("stop_line"))

    stroke, gap = _nearest(near.table, near.t, stop_table, stop_t)
    found = (stroke >= 0) & (gap <= tolerance_us)
    k = _at(near.k, stroke, found)
    kept = found & _first_claims(log_no, k, gap, line, found)
    latest = kept & _latest_readings(log_no, k, kept)

    order = _order(log_no, k + 1, line)
    picked = pa.array(_at(near.row, stroke, found)[order], mask=~found[order])
    # Left over: no stroke near enough (0), or another shot of the log kept the stroke (1).
    left_over = pa.array(found[order].astype(np.int8), mask=kept[order])
    reason = pa.array(["no_stroke", "stroke_taken"]).take(left_over)
    return pa.table(
        [
            shots.column("log_no").take(order),
            shots.column("table").take(order),
            shots.column("stop_line").take(order),
            shots.column("stop_text").take(order),
            shots.column("shot_s").take(order),
            shots.column("paused_s").take(order),
            shots.column("limit_s").take(order),
            strokes.column("match_id").take(picked),
            strokes.column("frame").take(picked),
            strokes.column("n").take(picked),
            reason,
            pa.array(latest[order]),
        ],
        schema=ALIGNED_SCHEMA,
    )


@dataclass(frozen=True, slots=True)
class _Near:
    """The strokes a stop can be placed on, one an instant of a table, in table and time
    order: the table's number, the time, the row in the strokes read, and ``k``, the
    stroke's place among those read in match, frame and number order."""

    table: Ints
    t: Ints
    row: Ints
    k: Ints


def _near(strokes: pa.Table, names: pa.Array) -> _Near:
    """Of strokes at one instant on one table, the last by match, frame and number stands
    for them all, so that each stop has one nearest stroke whichever way the rows were stored."""
    table = _ints(pc.index_in(strokes.column("table"), value_set=names))
    t = _ints(strokes.column("t"))
    ids = strokes.column("match_id").combine_chunks().dictionary_encode()
    match = _ints(pc.rank(ids.dictionary, sort_keys="ascending"))[_ints(ids.indices)]
    frame = _ints(strokes.column("frame"))
    n = _ints(strokes.column("n"))
    # Each stroke's place in match, frame and number order: the order its readings are stored in.
    k = np.empty(len(n), dtype=np.int64)
    k[_order(match, frame, n)] = np.arange(len(n))
    by_time = _order(table, t - (t.min() if len(t) else 0), k)
    table, t = table[by_time], t[by_time]
    last = np.ones(len(by_time), dtype=bool)
    last[:-1] = (table[1:] != table[:-1]) | (t[1:] != t[:-1])
    return _Near(table[last], t[last], by_time[last], k[by_time][last])


def _nearest(table: Ints, t: Ints, stop_table: Ints, stop_t: Ints) -> tuple[Ints, Ints]:
    """For each stop, the stroke (its index in ``table``/``t``, which are in table and time
    order; -1 when its table has none) nearest in time, the later of two equally near, and
    how far it is. The stops and strokes are sorted together, a stroke before a stop at the
    same instant; a stop's stroke before it is the last stroke above it, the one after the
    first below it, each only on the stop's own table."""
    strokes, stops = len(t), len(stop_t)
    every_t = np.concatenate([t, stop_t])
    kind = np.concatenate([np.zeros(strokes, dtype=np.int64), np.ones(stops, dtype=np.int64)])
    order = _order(np.concatenate([table, stop_table]), every_t - (every_t.min() if len(every_t) else 0), kind)
    is_stroke = order < strokes
    before_all = np.maximum.accumulate(np.where(is_stroke, order, -1))
    after_all = np.minimum.accumulate(np.where(is_stroke, order, strokes)[::-1])[::-1]
    stop = order[~is_stroke] - strokes
    before = np.full(stops, -1, dtype=np.int64)
    after = np.full(stops, -1, dtype=np.int64)
    before[stop] = before_all[~is_stroke]
    after[stop] = after_all[~is_stroke]
    before = _on_table(before, table, stop_table)
    after = _on_table(np.where(after == strokes, -1, after), table, stop_table)

    t_before = _at(t, before, before >= 0)
    t_after = _at(t, after, after >= 0)
    later = (after >= 0) & ((before < 0) | (t_after - stop_t <= stop_t - t_before))
    stroke = np.where(later, after, before)
    gap = np.where(later, t_after - stop_t, stop_t - t_before)
    return stroke, gap


def _on_table(stroke: Ints, table: Ints, stop_table: Ints) -> Ints:
    """``stroke`` where it is on the stop's table, else -1."""
    return np.where((stroke >= 0) & (_at(table, stroke, stroke >= 0) == stop_table), stroke, -1)


def _at(values: Ints, index: Ints, ok: Bools) -> Ints:
    """``values[index]`` where ``ok``, else -1 (``values`` may be empty, when nothing is ``ok``)."""
    if not len(values):
        return np.full(len(index), -1, dtype=np.int64)
    return np.where(ok, values[np.where(ok, index, 0)], -1)


def _first_claims(log_no: Ints, k: Ints, gap: Ints, line: Ints, found: Bools) -> Bools:
    """Of a log's shots found on one stroke, the nearer, then the earlier line, keeps it."""
    claims = np.flatnonzero(found)
    claims = claims[_order(log_no[claims], k[claims], gap[claims], line[claims])]
    first = np.zeros(len(found), dtype=bool)
    first[claims] = True
    same = (log_no[claims][1:] == log_no[claims][:-1]) & (k[claims][1:] == k[claims][:-1])
    first[claims[1:][same]] = False
    return first


def _latest_readings(log_no: Ints, k: Ints, kept: Bools) -> Bools:
    """Of the kept readings of one stroke, the latest log's (a log keeps one a stroke)."""
    readings = np.flatnonzero(kept)
    readings = readings[_order(k[readings], log_no[readings])]
    latest = np.zeros(len(kept), dtype=bool)
    latest[readings] = True
    latest[readings[:-1][k[readings][1:] == k[readings][:-1]]] = False
    return latest


def _order(*keys: Ints) -> Ints:
    """The indices that sort by ``keys`` (non-negative numbers, the first the most
    significant), stably. When their ranges multiply to less than 2**62 the keys are put
    into one number and sorted once: a batch's rows come nearly in order, which a stable
    sort of one key passes through in a few passes (the keys of 86,000 strokes: 0.1 ms
    against 4 ms for ``numpy.lexsort``)."""
    if not len(keys[0]):
        return np.zeros(0, dtype=np.int64)
    sizes = [int(key.max()) + 1 for key in keys]
    if math.prod(sizes) >= 1 << 62:
        return np.lexsort(keys[::-1])
    one = keys[0].copy()
    for key, size in zip(keys[1:], sizes[1:], strict=True):
        one *= size
        one += key
    return np.argsort(one, kind="stable")


def _ints(column: pa.Array | pa.ChunkedArray) -> Ints:
    """A column without nulls as int64 numbers."""
    return np.asarray(column.to_numpy(), dtype=np.int64)
