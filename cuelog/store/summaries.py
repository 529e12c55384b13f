"""The report summaries: each replayed match's figures per side, computed once.

A report over the ``replay_*`` tables reads every stroke (the FOUL AND A MISS sequences,
the racks' last visits, the shot times joined to the strokes); over a federation's ten
seasons that is seconds and gigabytes per report. The summaries hold, per match and side,
what those reports sum (``summary_sides``), the shot times with the striker's side, player
and event (``summary_shots``) and their counts per whole second (``summary_shot_counts``,
from which the clock report finds its medians), and the nine-ball push outs
(``summary_push_outs``), so a report reads a few rows per match (:mod:`cuelog.store.summed`).

They are written in the same transactions as what they summarise. A replay's workers build
each match's side rows from its results (:func:`match_sides`), which the writer inserts
under the replay's generation with the replay rows (:func:`insert_sides`); the shot times
(which read the loaded shot clock too) and the push outs (from the replay's stroke details)
are written for the replayed matches in the transaction that makes their generation
current (:func:`add_matches`), and the shot times again when a clock log re-aligns a
match's strokes (:func:`refresh_shots`). All of a match's rows go with it when it is
replaced (``loads.MATCH_TABLES``). A report over a store where a replayed match has no
summaries (a database replayed before them, results read from Parquet) aggregates the
replay tables directly instead (:func:`cuelog.store.report_scope.in_scope` finds whether
every replayed match has them).

Each figure is the one its report computed from the strokes before (``report_scope._TOTALS``,
``aggregates._RACKS``): :data:`_SIDES_SQL` computes the side rows from the replay rows the
same way (:func:`rebuild` uses it), and the tests hold the workers' rows (:func:`match_sides`)
to it (``tests/analytics/test_summaries.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import pyarrow as pa
import pyarrow.compute as pc

from cuelog.replay.model import BY_N, FrameResult, MatchResult, Outcome
from cuelog.store.arrow import counted_runs
from cuelog.store.report_scope import MISS_SEQUENCES, SHOT_US, condoned, push_outs

if TYPE_CHECKING:  # the connection is the caller's: a replay worker builds side rows without DuckDB
    import duckdb

SUMMARY_TABLES: Final = (
    "summary_sides_rows",
    "summary_shots",
    "summary_shot_counts",
    "summary_shot_medians",
    "summary_shot_inputs",
    "summary_push_outs",
)
"""The tables holding a match's summaries (every generation of its side rows)."""

# One row per side of each match with frames. `condoned`: a foul nobody called before the
# next stroke; it stands (S3 R10(c)). A pool rack won on the last ball ends with the
# winner's stroke, so their last visit won it: with the break, a break-and-dish (or run).
_SIDES_SQL = (
    """
WITH f AS (SELECT * FROM {frames}),
sides AS (
    SELECT f.match_id, s.side, count(*) AS frames,
           sum(CASE s.side WHEN 'A' THEN f.visits_a ELSE f.visits_b END) AS visits
    FROM f CROSS JOIN (VALUES ('A'), ('B')) s(side) GROUP BY ALL
),
s AS (
    SELECT r.match_id, r.frame, r.n, r.striker AS side, r.scored, r.credited, r.penalty, r.foul, r.ball_on,
           r.visit_id, r.miss,
           """
    + condoned("{findings}")
    + """ AS condoned
    FROM {strokes} r
), """
    + MISS_SEQUENCES
    + """, totals AS (
    SELECT match_id, side, coalesce(sum(credited), 0) AS credited, sum(scored) AS scored,
           count(*) FILTER (WHERE is_miss) AS miss_calls,
           coalesce(sum(penalty) FILTER (WHERE is_miss), 0) AS miss_points_conceded,
           count(*) FILTER (WHERE foul) AS fouls,
           coalesce(sum(penalty) FILTER (WHERE foul AND NOT condoned), 0) AS foul_points_conceded,
           count(*) FILTER (WHERE foul AND condoned) AS condoned_fouls
    FROM marked GROUP BY ALL
), brk AS (
    SELECT match_id, side, list(points) AS breaks FROM {breaks} GROUP BY ALL
), rs AS (
    SELECT s.* FROM s SEMI JOIN f ON f.match_id = s.match_id AND f.frame = s.frame
), visits AS (
    SELECT match_id, frame, side, visit_id, sum(scored) AS balls, bool_or(ball_on = 'break') AS has_break,
           max(n) AS last_n
    FROM rs GROUP BY ALL
), last AS (
    SELECT match_id, frame, side, arg_max(has_break, last_n) AS has_break, arg_max(balls, last_n) AS visit_balls
    FROM visits GROUP BY ALL
), per_rack AS (
    SELECT match_id, frame, side, count(*) FILTER (WHERE foul) AS fouls, sum(scored) AS balls FROM rs GROUP BY ALL
), racks AS (
    SELECT fs.match_id, fs.side, coalesce(p.fouls, 0) AS fouls, coalesce(o.fouls, 0) AS fouls_conceded,
           coalesce(p.balls, 0) AS balls, coalesce(fs.winner = fs.side, false) AS won,
           coalesce(fs.winner = fs.side AND fs.end_reason = 'pot' AND l.has_break, false) AS break_and_dish,
           coalesce(fs.winner = fs.side AND fs.end_reason = 'pot' AND NOT l.has_break, false) AS cleared,
           l.visit_balls
    FROM (SELECT f.match_id, f.frame, s.side, f.winner, f.end_reason
          FROM f CROSS JOIN (VALUES ('A'), ('B')) s(side)) fs
    LEFT JOIN last l USING (match_id, frame, side)
    LEFT JOIN per_rack p USING (match_id, frame, side)
    LEFT JOIN per_rack o ON o.match_id = fs.match_id AND o.frame = fs.frame AND o.side <> fs.side
), rack_sums AS (
    SELECT match_id, side, count(*) FILTER (WHERE won) AS racks_won,
           count(*) FILTER (WHERE break_and_dish) AS break_and_dish,
           coalesce(list(visit_balls) FILTER (WHERE cleared AND visit_balls IS NOT NULL), []) AS clearance_balls,
           sum(balls) AS rack_balls, sum(fouls) AS rack_fouls, sum(fouls_conceded) AS fouls_conceded
    FROM racks GROUP BY ALL
)
SELECT d.match_id, d.side, d.frames, d.visits, coalesce(t.credited, 0), coalesce(t.scored, 0), coalesce(t.fouls, 0),
       coalesce(t.foul_points_conceded, 0), coalesce(t.miss_calls, 0), coalesce(t.miss_points_conceded, 0),
       coalesce(t.condoned_fouls, 0), coalesce(l.longest, 0), coalesce(b.breaks, []),
       coalesce(k.racks_won, 0), coalesce(k.break_and_dish, 0), coalesce(k.clearance_balls, []),
       coalesce(k.rack_balls, 0), coalesce(k.rack_fouls, 0), coalesce(k.fouls_conceded, 0)
FROM sides d
LEFT JOIN totals t USING (match_id, side)
LEFT JOIN run_lengths l USING (match_id, side)
LEFT JOIN brk b USING (match_id, side)
LEFT JOIN rack_sums k USING (match_id, side)
ORDER BY d.match_id, d.side
"""
)


def insert_sides(con: duckdb.DuckDBPyConnection, parts: Sequence[pa.Table], gen: int) -> None:
    """Insert side rows (:func:`match_sides` of each match) under the replay generation
    ``gen``, inside the caller's transaction (the one that inserts the replay rows they
    summarise)."""
    if not parts:
        return
    con.register("cuelog_summary_sides", pa.concat_tables(parts))
    try:
        cols = ", ".join(SIDES_SCHEMA.names)
        con.execute(f"INSERT INTO summary_sides_rows SELECT {cols}, {int(gen)} AS gen FROM cuelog_summary_sides")
    finally:
        con.unregister("cuelog_summary_sides")


def _within(column: str, ids: str | None) -> str:
    return "true" if ids is None else f"{column} IN (SELECT match_id FROM {ids})"


def add_matches(con: duckdb.DuckDBPyConnection, ids: str | None, gen: int | None) -> None:
    """The shot times and push outs of the replayed matches (the relation ``ids`` of match
    ids; ``None``: every match) from their replay rows of generation ``gen`` (``None``: the
    current ones), replacing theirs, inside the caller's transaction: the shot times read a
    loaded table beside the replay's, so they run once per replay, not once per chunk.

    A match's shot times are made again only when what they are made from is not what they
    were made from (:func:`_digests`): replaying a store again after loading a week's
    matches makes the new matches' shot times, not every match's again."""
    stale = _stale(con, ids, gen)
    # Every match of a first replay: the statements need not look each one up.
    every = ids is None and stale.num_rows == con.execute("SELECT count(*) FROM replay_current").fetchall()[0][0]
    made = None if every else "cuelog_stale_shots"
    con.register("cuelog_stale_shots", stale)
    try:
        if ids is None:  # a match no longer replayed keeps no shot times
            gone = "true" if every else "match_id NOT IN (SELECT match_id FROM replay_current)"
            for table in _SHOT_TABLES:
                con.execute(f"DELETE FROM {table} WHERE {gone}")
        if stale.num_rows:
            if not every:
                for table in _SHOT_TABLES:
                    con.execute(f"DELETE FROM {table} WHERE {_within('match_id', made)}")
            _insert_shots(con, made, gen)
            con.execute("INSERT INTO summary_shot_inputs SELECT match_id, digest FROM cuelog_stale_shots")
    finally:
        con.unregister("cuelog_stale_shots")
    con.execute(f"DELETE FROM summary_push_outs WHERE {_within('match_id', ids)}")
    _insert_push_outs(con, ids, gen)


def _digests(ids: str | None, strokes: str) -> str:
    """Of each match in the relation ``ids`` (``None``: every current one), what its shot
    times are made from, as one number: the strikers of its replay rows ``strokes`` (a query
    or view), its shot clock's times and limits, its event and its sides' players. The hashes
    of each stroke (frame, number, striker) and of each reading are combined by exclusive or
    (each is one row, so none cancels another): 64 bits, so a change goes unseen with a
    chance of one in 2**64. About 0.05 s for a million strokes and their readings, against
    about 1 s to make their shot times."""
    return f"""
        SELECT i.match_id, hash(r.strikers, c.readings, m.event, m.side_a, m.side_b) AS digest
        FROM (SELECT DISTINCT match_id FROM {ids or "replay_current"}) i
        LEFT JOIN (
            SELECT match_id, bit_xor(hash(frame, n, striker)) AS strikers FROM {strokes}
            WHERE {_within("match_id", ids)} GROUP BY match_id
        ) r USING (match_id)
        LEFT JOIN (
            SELECT match_id, bit_xor(hash(frame, n, shot_s, limit_s)) AS readings FROM shot_clock
            WHERE shot_s IS NOT NULL AND {_within("match_id", ids)} GROUP BY match_id
        ) c USING (match_id)
        LEFT JOIN matches m USING (match_id)
        """


def _stale(con: duckdb.DuckDBPyConnection, ids: str | None, gen: int | None) -> pa.Table:
    """The replayed matches (``ids``; ``None``: every current one) whose shot times are to be
    made from generation ``gen``: those whose :func:`_digests` differ from the ones recorded
    with their shot times (``summary_shot_inputs``), or that have none recorded. Arrow
    (``match_id``, ``digest``) in match id order."""
    digests = _digests(ids, _generation("replay_strokes", gen))
    return con.sql(
        f"""
        SELECT d.match_id, d.digest FROM ({digests}) d
        LEFT JOIN summary_shot_inputs s USING (match_id)
        WHERE s.digest IS DISTINCT FROM d.digest
        ORDER BY d.match_id
        """
    ).to_arrow_table()


def _insert_push_outs(con: duckdb.DuckDBPyConnection, ids: str | None, gen: int | None) -> None:
    """``summary_push_outs`` of the matches ``ids``: the push outs of generation ``gen``
    (:func:`cuelog.store.report_scope.push_outs`) per match and side. A store without pool
    matches has almost no detail rows to read."""
    pushes = push_outs(_generation("replay_stroke_details", gen), _generation("replay_strokes", gen))
    con.execute(
        f"""
        INSERT INTO summary_push_outs
        SELECT match_id, side, CAST(sum(push_outs) AS BIGINT) AS push_outs
        FROM ({pushes}) WHERE {_within("match_id", ids)}
        GROUP BY ALL ORDER BY ALL
        """
    )


def _generation(view: str, gen: int | None) -> str:
    """The rows of a replay view (``None``: its current ones) or of one generation."""
    return view if gen is None else f"(SELECT * FROM {view}_rows WHERE gen = {int(gen)})"


_SHOT_TABLES: Final = ("summary_shots", "summary_shot_counts", "summary_shot_medians", "summary_shot_inputs")
"""The shot times, what is made of them and what they were made from, written and removed
together."""

SHOT_BATCH: Final = 250_000
"""Shot times inserted per statement at most: the join and sort of one statement over every
shot of a season would hold them all in memory at once. About two DuckDB row groups, so
that each of two threads takes one (measured with :data:`SHOTS_MEMORY`: the 1M season's
shot times in 1.08-1.15 s against 1.8-2.1 s in ranges of 100,000 under the replay's 64 MB;
benchmarks/README.md, "replay --db: the shot times' summaries in larger ranges")."""

SHOTS_MEMORY: Final = "160MB"
"""DuckDB's memory limit while a replay makes the shot times' summaries and then checkpoints
(the replay's own limit, ``cuelog.store.results.REPLAY_MEMORY``, is for the chunks in
flight): a range of :data:`SHOT_BATCH` shots is joined and sorted within it (under 96 MB it
spills, and the 1M season's take 1.5-2 s)."""


def _insert_shots(con: duckdb.DuckDBPyConnection, ids: str | None, gen: int | None) -> None:
    """The shot times of the matches ``ids`` in match id ranges of about :data:`SHOT_BATCH`
    shots, in id order: the rows and their order are those of one statement over them all;
    and each range's counts per whole second, from the rows just inserted."""
    counts = con.sql(
        f"SELECT match_id, count(*) AS shots FROM shot_clock WHERE shot_s IS NOT NULL AND {_within('match_id', ids)} "
        "GROUP BY match_id ORDER BY match_id"
    ).to_arrow_table()
    # Shot times belong to the striker the replay gives the stroke (a correction may change it).
    strokes = _generation("replay_strokes", gen)
    for first, last in _ranges(counts):
        con.execute(
            f"""
            INSERT INTO summary_shots
            SELECT c.match_id, r.striker AS side, m.event, CASE r.striker WHEN 'A' THEN m.side_a ELSE m.side_b END,
                   c.shot_s, c.limit_s
            FROM shot_clock c JOIN {strokes} r ON r.match_id = c.match_id AND r.frame = c.frame AND r.n = c.n
            JOIN matches m ON m.match_id = c.match_id
            WHERE c.shot_s IS NOT NULL AND r.striker IN ('A', 'B') AND {_within("c.match_id", ids)}
              AND c.match_id BETWEEN $first AND $last AND r.match_id BETWEEN $first AND $last
            ORDER BY c.match_id, c.frame, c.n
            """,
            {"first": first, "last": last},
        )
        _count_shots(con, ids, first, last)


def _count_shots(con: duckdb.DuckDBPyConnection, ids: str | None, first: str, last: str) -> None:
    """``summary_shot_counts`` and ``summary_shot_medians`` of the matches ``ids`` from
    ``first`` to ``last`` from their ``summary_shots`` rows: per match, side (with its player
    and event) and whole second, the shots, their sum in whole microseconds, the longest, and
    those over their limit; and each match's median shot time, of both sides and of each.
    The rows per second are in the order of all their columns, sorted by the three that
    tell them apart (a side's event and player are its match's): fewer keys to compare."""
    within = f"match_id BETWEEN $first AND $last AND {_within('match_id', ids)}"
    con.execute(
        f"""
        INSERT INTO summary_shot_counts
        SELECT match_id, side, event, player, CAST(floor(shot_s) AS BIGINT) AS whole_s, count(*) AS shots,
               CAST(sum({SHOT_US}) AS BIGINT) AS sum_us, max(shot_s) AS max_s,
               count(*) FILTER (WHERE shot_s > limit_s) AS over_limit, bool_or(limit_s IS NOT NULL) AS limited
        FROM summary_shots WHERE {within}
        GROUP BY ALL ORDER BY match_id, side, whole_s
        """,
        {"first": first, "last": last},
    )
    con.execute(
        f"""
        INSERT INTO summary_shot_medians
        SELECT match_id, median(shot_s), median(shot_s) FILTER (WHERE side = 'A'), median(shot_s) FILTER (WHERE side = 'B')
        FROM summary_shots WHERE {within}
        GROUP BY ALL ORDER BY ALL
        """,
        {"first": first, "last": last},
    )


def stale_shot_summaries(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether a store's rows per second or medians of its shot times are to be made again
    (inside the caller's transaction, before the DDL): rows per second without the shot
    times' sums (a store written before them) are dropped, for the DDL to make the table
    again; a store without the medians table gets it from the DDL. :func:`recount_shots`
    fills them after. A new store has neither table to make again."""
    rows = con.execute(
        "SELECT table_name, list(column_name) FROM duckdb_columns() WHERE NOT internal AND schema_name = 'main'"
        " AND database_name = current_database() AND table_name IN ('summary_shots', 'summary_shot_counts',"
        " 'summary_shot_medians') GROUP BY table_name"
    ).fetchall()
    columns = dict(rows)
    if "summary_shots" not in columns:
        return False
    unsummed = "summary_shot_counts" in columns and "sum_us" not in columns["summary_shot_counts"]
    if unsummed:
        con.execute("DROP TABLE summary_shot_counts")
    return unsummed or "summary_shot_counts" not in columns or "summary_shot_medians" not in columns


def recount_shots(con: duckdb.DuckDBPyConnection) -> None:
    """``summary_shot_counts`` and ``summary_shot_medians`` of every match made again from
    ``summary_shots``, in match id ranges of about :data:`SHOT_BATCH` shots (inside the
    caller's transaction)."""
    con.execute("DELETE FROM summary_shot_counts")
    con.execute("DELETE FROM summary_shot_medians")
    counts = con.sql(
        "SELECT match_id, count(*) AS shots FROM summary_shots GROUP BY match_id ORDER BY match_id"
    ).to_arrow_table()
    for first, last in _ranges(counts):
        _count_shots(con, None, first, last)


def _ranges(counts: pa.Table) -> list[tuple[str, str]]:
    """Consecutive runs of matches (``match_id``, ``shots``, in id order) holding about
    :data:`SHOT_BATCH` shots each (at least one match), as their first and last ids."""
    return [
        (ids[0].as_py(), ids[-1].as_py())
        for ids in (part.column("match_id") for part in counted_runs(counts, "shots", SHOT_BATCH))
    ]


def refresh_shots(con: duckdb.DuckDBPyConnection, match_ids: pa.Array | pa.ChunkedArray) -> None:
    """The shot times of these matches again, after their shot clock changed (inside the
    caller's transaction, so a reader never sees the clock and its summary disagree). A
    match not replayed has none."""
    ids = pa.table({"match_id": pc.unique(match_ids).cast(pa.string())})
    con.register("cuelog_clock_ids", ids)
    try:
        for table in _SHOT_TABLES:
            con.execute(f"DELETE FROM {table} WHERE {_within('match_id', 'cuelog_clock_ids')}")
        # Only a replayed match has shot times to insert; asking first spares loading clocks
        # before the replay a count over the whole shot clock per batch (2.4 s of 62 at 10M
        # strokes; benchmarks/README.md, "The clocks' statements at 10M").
        replayed = "SELECT EXISTS (SELECT 1 FROM cuelog_clock_ids SEMI JOIN replay_current USING (match_id))"
        if con.execute(replayed).fetchall()[0][0]:
            _insert_shots(con, "cuelog_clock_ids", None)
            digests = _digests("cuelog_clock_ids", "replay_strokes")
            con.execute(
                f"INSERT INTO summary_shot_inputs SELECT * FROM ({digests}) SEMI JOIN replay_current USING (match_id)"
            )
    finally:
        con.unregister("cuelog_clock_ids")


def delete(con: duckdb.DuckDBPyConnection, ids: str | None) -> None:
    """Remove the summaries of the matches in the relation ``ids`` (``None``: every match)."""
    for table in SUMMARY_TABLES:
        con.execute(f"DELETE FROM {table} WHERE {_within('match_id', ids)}")


def discard(con: duckdb.DuckDBPyConnection, gen: int) -> None:
    """Remove the side rows of generation ``gen`` (a replay never made current)."""
    con.execute(f"DELETE FROM summary_sides_rows WHERE gen = {int(gen)}")


def collect(con: duckdb.DuckDBPyConnection, only: int | None) -> None:
    """Remove the side rows that are not of their match's current generation (``only``:
    the one generation every match now shows), as the replay rows are collected."""
    if only is not None:
        con.execute(f"DELETE FROM summary_sides_rows WHERE gen <> {int(only)}")
        return
    con.execute(
        "DELETE FROM summary_sides_rows r WHERE NOT EXISTS "
        "(SELECT 1 FROM replay_current c WHERE c.match_id = r.match_id AND c.gen = r.gen)"
    )


def rebuild(con: duckdb.DuckDBPyConnection) -> None:
    """Summarise every match's current replay results again from the stored rows, in one
    transaction (a database replayed before the summaries existed)."""
    con.begin()
    try:
        delete(con, None)
        sql = _SIDES_SQL.format(
            frames="replay_frames", strokes="replay_strokes", breaks="replay_breaks", findings="replay_findings"
        )
        con.execute(
            f"INSERT INTO summary_sides_rows SELECT s.*, c.gen FROM ({sql}) s JOIN replay_current c USING (match_id)"
        )
        add_matches(con, None, None)
        con.commit()
    except BaseException:
        con.rollback()
        raise


# -- the same rows from the results themselves, in the worker that replayed them ---------------

SIDES_SCHEMA: Final = pa.schema(
    [
        ("match_id", pa.string()),
        ("side", pa.string()),
        *((name, pa.int64()) for name in ("frames", "visits", "credited", "scored", "fouls", "foul_points_conceded")),
        *((name, pa.int64()) for name in ("miss_calls", "miss_points_conceded", "condoned_fouls")),
        ("longest_miss_sequence", pa.int64()),
        ("breaks", pa.list_(pa.int32())),
        ("racks_won", pa.int64()),
        ("break_and_dish", pa.int64()),
        ("clearance_balls", pa.list_(pa.int32())),
        *((name, pa.int64()) for name in ("rack_balls", "rack_fouls", "fouls_conceded")),
    ]
)
"""``summary_sides``' columns, in order."""

_SIDE_NAMES: Final = ("A", "B")


def match_sides(m: MatchResult) -> list[tuple[object, ...]]:
    """The ``summary_sides`` rows of one match with frames, side A's then side B's, computed
    from its results as :data:`_SIDES_SQL` computes them from its replay rows: a replay
    builds them in its workers, a match at a time beside the replay rows
    (:class:`cuelog.store.results.ResultRows`), instead of a query per chunk."""
    sums = {side: _Side() for side in _SIDE_NAMES}
    for fr in m.frames:
        _frame(fr, sums)
    a, b = sums["A"], sums["B"]
    return [(m.match, "A", len(m.frames), *a.row(b)), (m.match, "B", len(m.frames), *b.row(a))]


class _Side:
    """One side's figures in one match, as :data:`_SIDES_SQL` sums them (slots, not a dict
    of counts: :func:`_frame` adds to them once a stroke)."""

    __slots__ = (
        "break_and_dish", "breaks", "cleared", "condoned_fouls", "credited", "foul_points_conceded", "fouls",
        "longest", "miss_calls", "miss_points_conceded", "racks_won", "scored", "visits",
    )  # fmt: skip

    def __init__(self) -> None:
        self.visits = self.credited = self.scored = self.fouls = self.foul_points_conceded = 0
        self.miss_calls = self.miss_points_conceded = self.condoned_fouls = self.longest = 0
        self.racks_won = self.break_and_dish = 0
        self.breaks: list[int] = []
        self.cleared: list[int] = []

    def row(self, opponent: _Side) -> tuple[object, ...]:
        """The side's columns after ``frames``. The balls and fouls of its racks are the
        points it scored and the fouls it made in the match's frames (the SQL's ``per_rack``
        sums the same strokes as its ``totals``); the fouls it conceded are the opponent's."""
        return (self.visits, self.credited, self.scored, self.fouls, self.foul_points_conceded, self.miss_calls,
                self.miss_points_conceded, self.condoned_fouls, self.longest, self.breaks, self.racks_won,
                self.break_and_dish, self.cleared, self.scored, self.fouls, opponent.fouls)  # fmt: skip


def _frame(fr: FrameResult, sums: dict[str, _Side]) -> None:
    """Add one frame: its visits, strokes, breaks, miss sequences and the rack's figures."""
    for i, side in enumerate(_SIDE_NAMES):
        sums[side].visits += fr.visits[i]
    condoned = {f.n for f in fr.findings if f.kind == "condoned_foul"}
    strokes = sorted(fr.outcomes, key=BY_N)
    run_side: str | None = None
    run_miss: bool | None = None
    run = 0
    for o in strokes:
        striker = o.striker
        is_miss = o.miss and o.n not in condoned
        # A sequence is consecutive called misses by one striker (S3 R14(d)(iii)).
        run = run + 1 if is_miss == run_miss and striker == run_side else 1
        run_side, run_miss = striker, is_miss
        s = sums.get(striker)
        if s is None:
            continue
        if is_miss:
            if run > s.longest:
                s.longest = run
            s.miss_calls += 1
            s.miss_points_conceded += o.penalty
        credited = o.credited
        if credited:
            s.credited += credited
        s.scored += o.scored
        if o.foul:
            s.fouls += 1
            if o.n in condoned:
                s.condoned_fouls += 1
            else:
                s.foul_points_conceded += o.penalty
    for b in fr.breaks:
        if b.side in sums:
            sums[b.side].breaks.append(b.points)
    _rack(fr, strokes, sums)


def _rack(fr: FrameResult, strokes: list[Outcome], sums: dict[str, _Side]) -> None:
    """A pool rack's figures: won, and a rack won on the last ball (``end_reason`` "pot":
    the winner's stroke ends it, so the winner's last visit won it) won in the breaker's
    visit (break-and-dish), or else the balls of that visit (a clearance when they are
    enough). Only the winner can have either, so only the winner's visits are read."""
    winner = fr.winner
    if winner is None or winner not in sums:
        return
    won = sums[winner]
    won.racks_won += 1
    if fr.end_reason != "pot":
        return
    has_break, visit_balls = _last_visit(strokes, winner)
    won.break_and_dish += has_break is True
    if has_break is False and visit_balls is not None:
        won.cleared.append(visit_balls)


def _last_visit(strokes: list[Outcome], side: str) -> tuple[bool | None, int | None]:
    """Of ``side``'s visits in the frame: whether the last whose break flag is known was the
    break, and the balls of the last (last by their last stroke). DuckDB's ``arg_max`` skips
    a visit whose break flag is unknown (no ball on recorded), as the SQL does."""
    visits: dict[int, list[Any]] = {}
    for o in strokes:
        if o.striker != side:
            continue
        v = visits.setdefault(o.visit_id, [0, None, o.n])
        v[0] += o.scored
        on_break = None if o.ball_on is None else o.ball_on == "break"
        v[1] = on_break if v[1] is None else (v[1] or bool(on_break))
        v[2] = max(v[2], o.n)
    mine = list(visits.values())
    known = [v for v in mine if v[1] is not None]
    has_break = max(known, key=lambda v: v[2])[1] if known else None
    visit_balls = max(mine, key=lambda v: v[2])[0] if mine else None
    return has_break, visit_balls
