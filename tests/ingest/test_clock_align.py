"""The as-of alignment of device shots to strokes, done by DuckDB (cuelog.store.clocks),
against the rule of docs/format.md section 5 and docs/ingest.md written out plainly: each
stop goes to the stroke on its table nearest in time, within the tolerance; of two equally
near, the later (the stroke the shot can have started); of strokes at one instant, the last
by match, frame and number; of two shots of one log on one stroke, the nearer, then the
earlier line, the other reported ``stroke_taken``; a stop with no stroke near enough is
``no_stroke``; a later log's reading of a stroke replaces an earlier one's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuelog.ingest.clock import ingest_clocks
from cuelog.store import connect, nearest

DAY_US = 1_777_644_000_000_000  # 2026-05-01T14:00:00Z
STEP_US = 250_000
MATCH_TABLES = {"m1": "7", "m2": "7", "m3": "8"}  # table 9 has no match: its stops place nowhere


@dataclass(frozen=True)
class StrokeAt:
    table: str
    t: int
    key: tuple[str, int, int]


@dataclass(frozen=True)
class Stop:
    line: int
    table: str
    ts: int
    shot_s: float


def _iso(us: int) -> str:
    seconds, micro = divmod(us - DAY_US, 1_000_000)
    return f"2026-05-01T14:{seconds // 60:02d}:{seconds % 60:02d}.{micro // 1000:03d}Z"


@st.composite
def strokes(draw: st.DrawFn) -> list[StrokeAt]:
    """Strokes on a grid of quarter seconds, so that stops fall on them, between two of them
    equally near, and several strokes share an instant; a few on another day."""
    out = []
    numbers: dict[tuple[str, int], int] = {}
    for _ in range(draw(st.integers(0, 30))):
        match = draw(st.sampled_from(sorted(MATCH_TABLES)))
        frame = draw(st.integers(1, 2))
        n = numbers[(match, frame)] = numbers.get((match, frame), 0) + 1
        step = draw(st.one_of(st.integers(0, 40), st.just(400_000)))
        out.append(StrokeAt(MATCH_TABLES[match], DAY_US + step * STEP_US, (match, frame, n)))
    return out


@st.composite
def device_logs(draw: st.DrawFn) -> list[list[Stop]]:
    """One to three logs; each shot a start and a stop row, the shots of a table apart."""
    logs = []
    for _ in range(draw(st.integers(1, 3))):
        stops = []
        for table in ("7", "8", "9"):
            steps = draw(st.lists(st.integers(1, 20), max_size=8, unique=True))
            stops += [(table, 2 * k * STEP_US + DAY_US) for k in sorted(steps)]
        order = draw(st.permutations(range(len(stops))))
        logs.append(
            [
                Stop(3 + 2 * i, table, ts, (100_000 + 1000 * i) / 1e6)
                for i, (table, ts) in enumerate(stops[j] for j in order)
            ]
        )
    return logs


def expected(
    at: list[StrokeAt], logs: list[list[Stop]], tolerance_us: int
) -> tuple[list[tuple[str, int, int, float]], list[tuple[int, list[tuple[int, str]]]]]:
    """The stored rows (in stored order) and each log's aligned count and left-over stops."""
    stored: dict[tuple[str, int, int], tuple[str, int, int, float]] = {}
    results = []
    for stops in logs:
        taken: dict[tuple[str, int, int], list[tuple[int, int, Stop]]] = {}
        left = []
        for stop in stops:
            near = [s for s in at if s.table == stop.table and abs(s.t - stop.ts) <= tolerance_us]
            if not near:
                left.append((stop.line, "no_stroke"))
                continue
            best = max(near, key=lambda s: (-abs(s.t - stop.ts), s.t, s.key))
            taken.setdefault(best.key, []).append((abs(best.t - stop.ts), stop.line, stop))
        rows = []
        for key, claims in taken.items():
            _, _, keeper = min(claims)
            rows.append((*key, keeper.shot_s))
            left += [(line, "stroke_taken") for _, line, stop in claims if stop is not keeper]
        for row in sorted(rows):
            stored.pop(row[:3], None)
            stored[row[:3]] = row
        results.append((len(rows), sorted(left)))
    return list(stored.values()), results


def _store(db: Path, at: list[StrokeAt]) -> None:
    con = connect(db)
    try:
        for match, table in MATCH_TABLES.items():
            con.execute(
                "INSERT INTO matches (match_id, rules, side_a, side_b, table_no, file_hash, body)"
                " VALUES (?, 'snooker/wpbsa-2024', 'A', 'B', ?, 'h', '{}')",
                [match, table],
            )
        rows = pa.table(
            {
                "match_id": pa.array([s.key[0] for s in at], pa.string()),
                "frame": pa.array([s.key[1] for s in at], pa.int32()),
                "n": pa.array([s.key[2] for s in at], pa.int32()),
                "t": pa.array([s.t for s in at], pa.timestamp("us", tz="UTC")),
            }
        )
        con.register("new_strokes", rows)
        con.execute(
            "INSERT INTO strokes (match_id, frame, n, striker, t, first, potted, foul_called, miss_called,"
            " free_ball_called) SELECT match_id, frame, n, 'A', t, [], [], false, false, false FROM new_strokes"
        )
    finally:
        con.close()


def _write(path: Path, stops: list[Stop]) -> Path:
    rows = ["table,ts,event"]
    for stop in stops:
        start = stop.ts - round(stop.shot_s * 1e6)
        rows += [f"{stop.table},{_iso(start)},start", f"{stop.table},{_iso(stop.ts)},stop"]
    path.write_text("\n".join(rows) + "\n")
    return path


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(at=strokes(), logs=device_logs(), tolerance_s=st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0]))
def test_each_stop_goes_to_the_nearest_stroke_as_the_rules_say(at, logs, tolerance_s, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("align")
    db = tmp / "db.duckdb"
    _store(db, at)
    paths = [_write(tmp / f"log{i}.csv", stops) for i, stops in enumerate(logs)]
    con = connect(db)
    try:
        results = ingest_clocks(con, paths, tolerance_s)
        stored = con.execute("SELECT match_id, frame, n, shot_s FROM shot_clock").fetchall()
    finally:
        con.close()
    rows, per_log = expected(at, logs, round(tolerance_s * 1e6))
    assert [(r.status, r.shots) for r in results] == [("loaded", len(stops)) for stops in logs]
    assert [(r.aligned, [(u.line, u.reason) for u in r.unplaced]) for r in results] == per_log
    assert stored == rows


@st.composite
def far_apart_strokes(draw: st.DrawFn) -> list[StrokeAt]:
    """Strokes whose frames and numbers reach their bounds and whose times lie decades
    apart: the keys the alignment sorts by no longer fit one number together."""
    keys = draw(
        st.lists(
            st.tuples(
                st.sampled_from(sorted(MATCH_TABLES)),
                st.sampled_from([1, 2, 2**31 - 1]),
                st.sampled_from([1, 2, 3, 2**31 - 1]),
            ),
            unique=True,
            max_size=30,
        )
    )
    steps = st.one_of(st.integers(0, 40), st.just(4_000_000_000_000))
    return [StrokeAt(MATCH_TABLES[key[0]], DAY_US + draw(steps) * STEP_US, key) for key in keys]


@settings(max_examples=150, deadline=None)
@given(
    at=st.one_of(strokes(), far_apart_strokes()),
    logs=device_logs(),
    tolerance_s=st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0]),
)
def test_each_stop_placed_as_the_rules_say_whatever_the_size_of_times_and_numbers(at, logs, tolerance_s):
    tolerance_us = round(tolerance_s * 1e6)
    shots = [(i, stop) for i, stops in enumerate(logs) for stop in stops]
    placed = nearest.placed(
        pa.table(
            {
                "log_no": pa.array([i for i, _ in shots], pa.int32()),
                "table": pa.array([stop.table for _, stop in shots], pa.string()),
                "ts": pa.array([stop.ts for _, stop in shots], pa.int64()),
                "stop_line": pa.array([stop.line for _, stop in shots], pa.int64()),
                "stop_text": pa.array([f"stop {stop.line}" for _, stop in shots], pa.string()),
                "shot_s": pa.array([stop.shot_s for _, stop in shots], pa.float64()),
                "paused_s": pa.array([0.0] * len(shots), pa.float64()),
                "limit_s": pa.array([None] * len(shots), pa.float64()),
            }
        ),
        pa.table(
            {
                "table": pa.array([s.table for s in at], pa.string()),
                "t": pa.array([s.t for s in at], pa.int64()),
                "match_id": pa.array([s.key[0] for s in at], pa.string()),
                "frame": pa.array([s.key[1] for s in at], pa.int32()),
                "n": pa.array([s.key[2] for s in at], pa.int32()),
            }
        ),
        tolerance_us,
    ).to_pylist()
    rows, per_log = expected(at, logs, tolerance_us)
    stored = [(p["match_id"], p["frame"], p["n"], p["shot_s"]) for p in placed if p["latest"]]
    assert stored == rows
    assert [
        (
            sum(p["reason"] is None for p in placed if p["log_no"] == i),
            sorted((p["stop_line"], p["reason"]) for p in placed if p["log_no"] == i and p["reason"] is not None),
        )
        for i in range(len(logs))
    ] == per_log
