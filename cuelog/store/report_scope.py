"""What a report covers and reads, as SQL and plain values: the matches in scope
(``scope_matches``), the queries over their replay results, the checks a report makes before
it sums (what is loaded, replayed and summarised: :func:`in_scope`), and a query's group rows.

Nothing here imports pyarrow: ``cuelog report`` prints its table and ``--json`` from the few
group rows DuckDB hands back (:class:`GroupRows`), so the command starts without pyarrow,
numpy and Polars (about 0.35 s of the command's start-up). :mod:`cuelog.store.reads` reads the
same queries' rows as Arrow for the plots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # the connection is the caller's
    import duckdb


# -- the matches in scope and the queries over their results -----------------------------

# The matches in scope, with what the reports read of them (each column more is copied for
# every match: 0.07 s against 0.04 s at 59,000 matches with the rules, discipline and date).
_MATCHES = """
CREATE OR REPLACE TEMP TABLE scope_matches AS
SELECT match_id, side_a, side_b, event
FROM matches
WHERE ($discipline IS NULL OR split_part(rules, '/', 1) = $discipline)
  AND (len($matches) = 0 OR list_contains($matches, match_id))
  AND (len($events) = 0 OR list_contains($events, event))
"""

# The rows of the chosen players (``$players``; empty: everyone), in a query with a ``player``.
_CHOSEN = "(len($players) = 0 OR list_contains($players, player))"

SHOT_US: Final = "CAST(round(shot_s * 1e6) AS BIGINT)"
"""A shot time (``shot_s``) in whole microseconds, as the shot clock measures it (its readings
are microseconds: :mod:`cuelog.ingest.clockdb`). Summed as integers, a group's total is
exact: the same whatever rows it is summed from and in whatever order DuckDB's threads add
them, so the clock report's mean is the same from the shot times, from their sums per
second, and from every replayed stroke (``fsum`` of the doubles was near, not exact)."""


def as_seconds(total_us: str) -> str:
    """A sum of whole microseconds (a ``HUGEINT`` or ``BIGINT`` expression) as seconds."""
    return f"CAST({total_us} AS DOUBLE) / 1e6"


_SIDES = """
SELECT m.match_id, m.event, s.side, CASE s.side WHEN 'A' THEN m.side_a ELSE m.side_b END AS player
FROM scope_matches m CROSS JOIN (VALUES ('A'), ('B')) s(side)
"""


def condoned(findings: str = "replay_findings") -> str:
    """Whether the stroke ``r`` (a replay stroke's row) is a condoned foul: the facts show a
    foul nobody called before the next stroke; it stands (S3 R10(c)), so its penalty was
    never given and any pot in it scored. The replay says so in a finding (of ``findings``)."""
    return (
        f"EXISTS (SELECT 1 FROM {findings} x WHERE x.match_id = r.match_id AND x.frame = r.frame "
        "AND x.n = r.n AND x.kind = 'condoned_foul')"
    )


_STROKES = f"""
SELECT r.match_id, p.event, r.frame, r.n, r.striker AS side, p.player, r.scored, r.credited, r.penalty, r.foul, r.miss,
       r.ball_on, r.break_id, r.visit_id, r.score_a, r.score_b,
       {condoned()} AS condoned
FROM replay_strokes r JOIN ({_SIDES}) p ON p.match_id = r.match_id AND p.side = r.striker
ORDER BY r.match_id, r.frame, r.n
"""

_FRAMES = f"""
SELECT f.match_id, p.event, f.frame, p.side, p.player,
       CASE p.side WHEN 'A' THEN f.visits_a ELSE f.visits_b END AS visits,
       CASE p.side WHEN 'A' THEN f.score_a ELSE f.score_b END AS score,
       f.winner, f.end_reason
FROM replay_frames f JOIN ({_SIDES}) p ON p.match_id = f.match_id
ORDER BY f.match_id, f.frame, p.side
"""

_BREAKS = f"""
SELECT b.match_id, p.event, b.frame, b.side, p.player, b.points, b.from_n, b.to_n
FROM replay_breaks b JOIN ({_SIDES}) p ON p.match_id = b.match_id AND p.side = b.side
ORDER BY b.match_id, b.frame, b.from_n
"""

# Shot times belong to the striker the replay gives the stroke.
_CLOCK = f"""
SELECT c.match_id, p.event, c.frame, c.n, p.side, p.player, c.shot_s, c.limit_s
FROM shot_clock c
JOIN replay_strokes r ON r.match_id = c.match_id AND r.frame = c.frame AND r.n = c.n
JOIN ({_SIDES}) p ON p.match_id = c.match_id AND p.side = r.striker
WHERE c.shot_s IS NOT NULL
ORDER BY c.match_id, c.frame, c.n
"""


def push_outs(details: str = "replay_stroke_details", strokes: str = "replay_strokes") -> str:
    """The push outs declared (WPA 2.4, a recorded fact) per match, rack and side, as the replay
    read them: the ``push_out`` detail of each stroke that declared one, corrections applied
    (true where it stood, false where the rules refused it), with the striker the replay gives
    the stroke; from the current rows unless other ``details`` and ``strokes`` are given (one
    generation's). Only replayed strokes have details, so only the replayed racks count; and a
    results dataset, which holds no records, has them."""
    return f"""
SELECT s.match_id, s.frame, s.striker AS side, count(*) AS push_outs
FROM {details} d JOIN {strokes} s USING (match_id, frame, n)
WHERE d.name = 'push_out' AND s.striker IN ('A', 'B')
GROUP BY ALL
"""


PUSH_OUTS: Final = push_outs()
"""The current replay's push outs (:func:`push_outs`)."""

MISS_SEQUENCES: Final = """marked AS (
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
)"""
"""Common table expressions over a CTE ``s`` of strokes (``match_id, frame, n, side, miss,
condoned``): ``marked`` (each stroke with ``is_miss``, a called miss of a foul that was not
condoned), ``runs`` and ``run_lengths`` (each side's ``longest`` FOUL AND A MISS sequence in
a match). The sequence is consecutive called misses of one striker in one frame; another
striker's stroke or a stroke that is not a called miss ends it (S3 R14(d)(iii)). Used by the
summaries and by the report's direct path (:data:`_TOTALS`)."""

# Each side's stroke figures in each match, summed in DuckDB so a report never holds a row per
# stroke: what the billiards points (S3 R16(d)) and the snooker fouls and misses (S3 R10, R14)
# are built from; the FOUL AND A MISS sequences (S3 R14(d)(iii)) as the summaries find them.
_TOTALS = f"""
WITH s AS (
    SELECT r.match_id, r.frame, r.n, r.striker AS side, r.credited, r.penalty, r.foul,
           {condoned()} AS condoned, r.miss
    FROM replay_strokes r SEMI JOIN scope_matches m ON m.match_id = r.match_id
), {MISS_SEQUENCES}, totals AS (
    SELECT match_id, side,
           CAST(coalesce(sum(credited), 0) AS BIGINT) AS credited,
           CAST(count(*) FILTER (WHERE is_miss) AS BIGINT) AS miss_calls,
           CAST(coalesce(sum(penalty) FILTER (WHERE is_miss), 0) AS BIGINT) AS miss_points_conceded,
           CAST(count(*) FILTER (WHERE foul) AS BIGINT) AS fouls,
           CAST(coalesce(sum(penalty) FILTER (WHERE foul AND NOT condoned), 0) AS BIGINT) AS foul_points_conceded,
           CAST(count(*) FILTER (WHERE foul AND condoned) AS BIGINT) AS condoned_fouls
    FROM marked GROUP BY ALL
)
SELECT t.match_id, p.event, t.side, p.player, t.credited, t.miss_calls, t.miss_points_conceded, t.fouls,
       t.foul_points_conceded, t.condoned_fouls, CAST(coalesce(l.longest, 0) AS BIGINT) AS longest_miss_sequence
FROM totals t
JOIN ({_SIDES}) p ON p.match_id = t.match_id AND p.side = t.side
LEFT JOIN run_lengths l ON l.match_id = t.match_id AND l.side = t.side
ORDER BY t.match_id, t.side
"""


TABLES: Final = ("strokes", "frames", "breaks", "clock", "totals")
_QUERIES: Final = {"strokes": _STROKES, "frames": _FRAMES, "breaks": _BREAKS, "clock": _CLOCK, "totals": _TOTALS}


# -- the checks a report makes first -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InScope:
    """The matches a report covers: how many, how many were replayed, the ids (sorted) of
    those that were not, and whether every replayed one has its report summaries."""

    matches: int
    replayed: int
    unreplayed: list[str]
    summarised: bool


def in_scope(
    con: duckdb.DuckDBPyConnection, discipline: str | None, matches: Sequence[str], events: Sequence[str]
) -> InScope:
    """Make ``scope_matches`` (the loaded matches of ``discipline``, None: every one,
    restricted to ``matches`` and ``events`` when given) and count it in one query: no id
    list of the whole store comes to Python. A replayed match is one with
    replayed frames; it is summarised when it has side rows (``summary_sides``): a store
    without the table (results read from Parquet), or whose results were written before the
    summaries, has not."""
    con.execute(_MATCHES, {"discipline": discipline, "matches": list(matches), "events": list(events)})
    with_summaries = _has_table(con, "summary_sides")
    summarised = "s.match_id IN (SELECT match_id FROM summary_sides)" if with_summaries else "false"
    if with_summaries:
        # A match's side rows are written with its replayed frames, under their generation:
        # a summarised match is a replayed one. When every match in scope is, that is all
        # there is to count (the frames need not be read: 0.07 s at 59,000 matches).
        found = con.execute(f"SELECT count(*), count(*) FILTER (WHERE {summarised}) FROM scope_matches s").fetchall()[0]
        if found[0] == found[1]:
            return InScope(int(found[0]), int(found[0]), [], True)
    counts = con.execute(
        f"""
        WITH marked AS (
            SELECT s.match_id, s.match_id IN (SELECT match_id FROM replay_frames) AS replayed,
                   {summarised} AS summarised
            FROM scope_matches s
        )
        SELECT count(*), count(*) FILTER (WHERE replayed),
               coalesce(list(match_id ORDER BY match_id) FILTER (WHERE NOT replayed), []),
               count(*) FILTER (WHERE replayed AND NOT summarised)
        FROM marked
        """
    ).fetchall()[0]
    return InScope(int(counts[0]), int(counts[1]), list(counts[2]), with_summaries and int(counts[3]) == 0)


def match_count(con: duckdb.DuckDBPyConnection) -> int:
    """The number of loaded matches."""
    return int(con.execute("SELECT count(*) FROM matches").fetchall()[0][0])


@dataclass(frozen=True, slots=True)
class Names:
    """Every player, match id and event the database knows."""

    players: set[str]
    matches: set[str]
    events: set[str]


def known_names(con: duckdb.DuckDBPyConnection) -> Names:
    """The players, match ids and events of the loaded matches."""
    return Names(
        players={r[0] for r in con.execute("SELECT side_a FROM matches UNION SELECT side_b FROM matches").fetchall()},
        matches={r[0] for r in con.execute("SELECT match_id FROM matches").fetchall()},
        events={r[0] for r in con.execute("SELECT DISTINCT event FROM matches WHERE event IS NOT NULL").fetchall()},
    )


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    found = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]).fetchall()
    return int(found[0][0]) > 0


def shots_counted(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``summary_shot_counts`` counts and sums every shot time of ``summary_shots``
    (they are written and removed together): a store whose shot times were summarised before
    the counts existed, or before their sums (opened read-only, so not yet made again), has
    not, and its clock report reads the times themselves."""
    summed = con.execute(
        "SELECT count(*) FROM duckdb_columns() WHERE table_name = 'summary_shot_counts' AND column_name = 'sum_us'"
        " AND schema_name = 'main' AND database_name = current_database()"
    ).fetchall()
    if not summed[0][0]:
        return False
    totals = con.execute(
        "SELECT (SELECT count(*) FROM summary_shots), (SELECT coalesce(sum(shots), 0) FROM summary_shot_counts)"
    ).fetchall()
    return int(totals[0][0]) == int(totals[0][1])


def medians_stored(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``summary_shot_medians`` holds the medians of every match with shot times in
    ``summary_shot_counts`` (they are written and removed together; a store written before
    the medians, opened read-only, has no such table)."""
    if not _has_table(con, "summary_shot_medians"):
        return False
    totals = con.execute(
        "SELECT (SELECT count(*) FROM summary_shot_medians), (SELECT count(DISTINCT match_id) FROM summary_shot_counts)"
    ).fetchall()
    return int(totals[0][0]) == int(totals[0][1])


# -- a report's group rows ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GroupRows:
    """A report query's result, one row per group, with each column's DuckDB type
    (``BIGINT``, ``DOUBLE``, ``VARCHAR``, ``BIGINT[]``), so that a caller can make a typed
    frame or file of the rows."""

    columns: tuple[str, ...]
    types: tuple[str, ...]
    rows: list[tuple[Any, ...]]


def group_rows(con: duckdb.DuckDBPyConnection, sql: str, players: Sequence[str], **params: object) -> GroupRows:
    """Run a report query (``$players``: the chosen names, empty for all) for its group rows."""
    relation = con.sql(sql, params={"players": list(players), **params})
    assert relation is not None  # a SELECT gives a relation
    return GroupRows(tuple(relation.columns), tuple(str(t) for t in relation.types), relation.fetchall())
