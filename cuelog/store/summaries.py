"""The report summaries: each replayed match's figures per side, computed once.

A report over the ``replay_*`` tables reads every stroke (the FOUL AND A MISS sequences,
the racks' last visits, the shot times joined to the strokes); over a federation's ten
seasons that is seconds and gigabytes per report. The summaries hold, per match and side,
what those reports sum (``summary_sides``), the shot times with the striker's side
(``summary_shots``) and the nine-ball push outs (``summary_push_outs``), so a report reads
a few rows per match (:mod:`cuelog.store.aggregates`).

They are written in the same transaction as what they summarise: ``summary_sides`` with
each chunk of replay results (:func:`add_chunk`, from the chunk's own rows), the shot times
and push outs of the replayed matches before the replay commits (:func:`add_matches`), the
shot times again when a clock log re-aligns a match's strokes (:func:`refresh_shots`), and
all of a match's rows go with it when it is replaced (``loads.MATCH_TABLES``) or replayed
again. ``summary_matches`` says which matches are summarised under this :data:`VERSION`:
a report over a store where one is not (a database written before the summaries, or
results read from Parquet) aggregates the replay tables directly instead.

Each figure is the one its report computed from the strokes before (``reads._TOTALS``,
``aggregates._RACKS``), by the same SQL over one match's rows, so the sums agree exactly
(``tests/analytics/test_summaries.py``).
"""

from __future__ import annotations

from typing import Final

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from cuelog.schemas.rulesets import DISCIPLINES

VERSION: Final = 1
"""The summaries' layout: a change to what they hold raises it, so old rows are not read."""

SUMMARY_TABLES: Final = ("summary_matches", "summary_sides", "summary_shots", "summary_push_outs")

# Push outs are recorded only by the disciplines with the nine-ball report (WPA 2.4).
_PUSH_OUT_DISCIPLINES: Final = tuple(d.name for d in DISCIPLINES.values() if "nineball" in d.reports)

# One row per side of each match with frames. `condoned`: a foul nobody called before the
# next stroke; it stands (S3 R10(c)). A FOUL AND A MISS sequence is consecutive called
# misses of one striker in one frame; another striker's stroke or a stroke that is not a
# called miss ends it (S3 R14(d)(iii)). A pool rack won on the last ball ends with the
# winner's stroke, so their last visit won it: with the break, a break-and-dish (or run).
_SIDES_SQL = """
WITH f AS (SELECT * FROM {frames}),
sides AS (
    SELECT f.match_id, s.side, count(*) AS frames,
           sum(CASE s.side WHEN 'A' THEN f.visits_a ELSE f.visits_b END) AS visits
    FROM f CROSS JOIN (VALUES ('A'), ('B')) s(side) GROUP BY ALL
),
s AS (
    SELECT r.match_id, r.frame, r.n, r.striker AS side, r.scored, r.credited, r.penalty, r.foul, r.ball_on,
           r.visit_id, r.miss,
           EXISTS (SELECT 1 FROM {findings} x WHERE x.match_id = r.match_id AND x.frame = r.frame
                   AND x.n = r.n AND x.kind = 'condoned_foul') AS condoned
    FROM {strokes} r
), marked AS (
    SELECT *, miss AND NOT condoned AS is_miss,
           CASE WHEN (miss AND NOT condoned) IS DISTINCT FROM
                     lag(miss AND NOT condoned) OVER (PARTITION BY match_id, frame ORDER BY n)
                  OR side IS DISTINCT FROM lag(side) OVER (PARTITION BY match_id, frame ORDER BY n)
                THEN 1 ELSE 0 END AS starts
    FROM s
), runs AS (
    SELECT *, sum(starts) OVER (PARTITION BY match_id, frame ORDER BY n ROWS UNBOUNDED PRECEDING) AS run
    FROM marked
), run_lengths AS (
    SELECT match_id, side, max(length) AS longest
    FROM (SELECT match_id, frame, side, run, count(*) AS length FROM runs WHERE is_miss GROUP BY ALL)
    GROUP BY ALL
), totals AS (
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


def add_chunk(con: duckdb.DuckDBPyConnection, views: dict[str, str]) -> None:
    """Summarise the matches of one chunk of replay results, from the chunk's own rows:
    ``views`` names the relations holding its ``replay_frames``, ``replay_strokes``,
    ``replay_breaks`` and ``replay_findings`` rows. Inside the writer's transaction."""
    sql = _SIDES_SQL.format(
        frames=views["replay_frames"],
        strokes=views["replay_strokes"],
        breaks=views["replay_breaks"],
        findings=views["replay_findings"],
    )
    con.execute(f"INSERT INTO summary_sides {sql}")
    con.execute(
        f"INSERT INTO summary_matches SELECT DISTINCT match_id, {VERSION} FROM {views['replay_frames']}"
        " ORDER BY match_id"
    )


def _within(column: str, ids: str | None) -> str:
    return "true" if ids is None else f"{column} IN (SELECT match_id FROM {ids})"


def add_matches(con: duckdb.DuckDBPyConnection, ids: str | None) -> None:
    """The shot times and push outs of the replayed matches (the relation ``ids`` of match
    ids; ``None``: every match), once their replay rows are all in: each reads a loaded
    table beside the replay's, so it runs once per replay, not once per chunk."""
    _insert_shots(con, ids)
    disciplines = list(_PUSH_OUT_DISCIPLINES)
    # Only strokes in a replayed rack count, and only sides A and B (as the frames have them).
    con.execute(
        f"""
        INSERT INTO summary_push_outs
        SELECT r.match_id, json_extract_string(r.body, '$.striker') AS side, count(*) AS push_outs
        FROM records r
        SEMI JOIN (SELECT match_id FROM matches WHERE list_contains($disciplines, split_part(rules, '/', 1))
                   AND {_within("match_id", ids)}) m ON m.match_id = r.match_id
        SEMI JOIN replay_frames f ON f.match_id = r.match_id AND f.frame = r.frame
        WHERE r.type = 'stroke' AND coalesce(json_extract(r.body, '$.push_out')::BOOLEAN, false)
          AND json_extract_string(r.body, '$.striker') IN ('A', 'B')
        GROUP BY ALL ORDER BY ALL
        """,
        {"disciplines": disciplines},
    )


def _insert_shots(con: duckdb.DuckDBPyConnection, ids: str | None) -> None:
    # Shot times belong to the striker the replay gives the stroke (a correction may change it).
    con.execute(
        f"""
        INSERT INTO summary_shots
        SELECT c.match_id, r.striker AS side, c.shot_s, c.limit_s
        FROM shot_clock c JOIN replay_strokes r ON r.match_id = c.match_id AND r.frame = c.frame AND r.n = c.n
        WHERE c.shot_s IS NOT NULL AND r.striker IN ('A', 'B') AND {_within("c.match_id", ids)}
          AND {_within("r.match_id", ids)}
        ORDER BY c.match_id, c.frame, c.n
        """
    )


def refresh_shots(con: duckdb.DuckDBPyConnection, match_ids: pa.Array | pa.ChunkedArray) -> None:
    """The shot times of these matches again, after their shot clock changed (inside the
    caller's transaction, so a reader never sees the clock and its summary disagree). A
    match not replayed has none."""
    ids = pa.table({"match_id": pc.unique(match_ids).cast(pa.string())})
    con.register("cuelog_clock_ids", ids)
    try:
        con.execute(f"DELETE FROM summary_shots WHERE {_within('match_id', 'cuelog_clock_ids')}")
        _insert_shots(con, "cuelog_clock_ids")
    finally:
        con.unregister("cuelog_clock_ids")


def delete(con: duckdb.DuckDBPyConnection, ids: str | None) -> None:
    """Remove the summaries of the matches in the relation ``ids`` (``None``: every match)."""
    for table in SUMMARY_TABLES:
        con.execute(f"DELETE FROM {table} WHERE {_within('match_id', ids)}")


def summarised(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether every replayed match in ``scope_matches`` has its summaries (this
    :data:`VERSION`): a store without the tables (results read from Parquet) has none."""
    present = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'summary_matches'"
    ).fetchall()
    if present[0][0] == 0:
        return False
    missing = con.execute(
        """
        SELECT count(*) FROM (SELECT DISTINCT match_id FROM replay_frames
                              WHERE match_id IN (SELECT match_id FROM scope_matches)) r
        WHERE r.match_id NOT IN (SELECT match_id FROM summary_matches WHERE version = $version)
        """,
        {"version": VERSION},
    ).fetchall()
    return int(missing[0][0]) == 0


def rebuild(con: duckdb.DuckDBPyConnection) -> None:
    """Summarise every replayed match again from the stored replay tables, in one
    transaction (a database replayed before the summaries existed)."""
    con.begin()
    try:
        delete(con, None)
        add_chunk(
            con,
            {name: name for name in ("replay_frames", "replay_strokes", "replay_breaks", "replay_findings")},
        )
        add_matches(con, None)
        con.commit()
    except BaseException:
        con.rollback()
        raise
