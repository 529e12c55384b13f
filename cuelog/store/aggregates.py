"""What each ``cuelog report`` reads, aggregated by DuckDB: one row per group.

A report never loads a row per stroke, shot, frame or break into Python: DuckDB sums,
counts and takes medians over the ``replay_*`` tables (and the shot clock) of the matches
in scope (the ``scope_matches`` table :func:`cuelog.store.report_scope.in_scope` makes),
grouped by player, match or event, and hands back those few rows (:class:`cuelog.store.report_scope.GroupRows`). The ratios and their
rounding are left to the caller (:mod:`cuelog.analytics.queries`).

Every query takes ``$players`` (names; empty for all): the rows of other players are left
out, as the report's ``--player`` asks, except the strokes of a pool rack, whose
opponent's fouls are the fouls a player conceded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import duckdb

from cuelog.store.report_scope import (
    _BREAKS,
    _CHOSEN,
    _CLOCK,
    _FRAMES,
    _SIDES,
    _TOTALS,
    PUSH_OUTS,
    SHOT_US,
    GroupRows,
    as_seconds,
    condoned,
    group_rows,
)

KEYS: Final = ("player", "match_id", "event")

# Each side's strokes in scope, with its player, and whether each is a condoned foul; no
# ordering (aggregated, never listed).
_STROKES = f"""
SELECT r.match_id, p.event, r.frame, r.n, r.striker AS side, p.player,
       r.scored, r.credited, r.penalty, r.foul, r.ball_on, r.visit_id,
       {condoned()} AS condoned
FROM replay_strokes r JOIN ({_SIDES}) p ON p.match_id = r.match_id AND p.side = r.striker
"""


def _base(key: str) -> str:
    """The chosen players' frames, and every group with its frames and visits."""
    if key not in KEYS:
        raise ValueError(f"unknown group key {key!r}")
    return f"""
frames AS (SELECT * FROM ({_FRAMES}) WHERE {_CHOSEN}),
groups AS (
    SELECT {key} AS key, CAST(count(DISTINCT (match_id, frame)) AS BIGINT) AS frames,
           CAST(sum(visits) AS BIGINT) AS visits
    FROM frames GROUP BY ALL
)"""


def frame_rows(con: duckdb.DuckDBPyConnection, players: Sequence[str]) -> int:
    """How many (player, frame) rows the chosen players have in scope."""
    rows = con.execute(f"SELECT count(*) FROM ({_FRAMES}) WHERE {_CHOSEN}", {"players": list(players)}).fetchall()
    return int(rows[0][0])


def breaks(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str], *, fifty: int, century: int) -> GroupRows:
    """Per group: frames, every break (highest first), the highest, ``fifty``+ and
    ``century``+ breaks, and the points of all breaks (S2 R8)."""
    sql = f"""
WITH {_base(key)},
brk AS (SELECT * FROM ({_BREAKS}) WHERE {_CHOSEN}),
per AS (
    SELECT {key} AS key, list(CAST(points AS BIGINT) ORDER BY points DESC) AS breaks,
           CAST(max(points) AS BIGINT) AS highest,
           CAST(count(*) FILTER (WHERE points >= $fifty) AS BIGINT) AS fifty_plus,
           CAST(count(*) FILTER (WHERE points >= $century) AS BIGINT) AS centuries,
           CAST(sum(points) AS BIGINT) AS total_points
    FROM brk GROUP BY ALL
)
SELECT g.key AS {key}, g.frames, coalesce(p.breaks, CAST([] AS BIGINT[])) AS breaks,
       coalesce(p.highest, 0) AS highest, coalesce(p.fifty_plus, 0) AS fifty_plus,
       coalesce(p.centuries, 0) AS centuries, coalesce(p.total_points, 0) AS total_points
FROM groups g LEFT JOIN per p ON g.key IS NOT DISTINCT FROM p.key
"""
    return group_rows(con, sql, players, fifty=fifty, century=century)


def billiards(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str], *, century: int) -> GroupRows:
    """Per group: frames, visits, points credited to own strokes (summed per match by
    ``report_scope._TOTALS``), the highest break and the ``century``+ breaks."""
    sql = f"""
WITH {_base(key)},
tot AS (SELECT * FROM ({_TOTALS}) WHERE {_CHOSEN}),
brk AS (SELECT * FROM ({_BREAKS}) WHERE {_CHOSEN}),
pts AS (SELECT {key} AS key, CAST(sum(credited) AS BIGINT) AS points FROM tot GROUP BY ALL),
per AS (
    SELECT {key} AS key, CAST(max(points) AS BIGINT) AS highest_break,
           CAST(count(*) FILTER (WHERE points >= $century) AS BIGINT) AS centuries
    FROM brk GROUP BY ALL
)
SELECT g.key AS {key}, g.frames, coalesce(t.points, 0) AS points, g.visits,
       coalesce(p.highest_break, 0) AS highest_break, coalesce(p.centuries, 0) AS centuries
FROM groups g
LEFT JOIN pts t ON g.key IS NOT DISTINCT FROM t.key
LEFT JOIN per p ON g.key IS NOT DISTINCT FROM p.key
"""
    return group_rows(con, sql, players, century=century)


_MISS_COUNTS: Final = ("miss_calls", "miss_points_conceded", "fouls", "foul_points_conceded", "condoned_fouls")


def misses(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str]) -> GroupRows:
    """Per group: frames, FOUL AND A MISS calls and their points, fouls, the points of the
    called ones, condoned fouls, and the longest miss sequence (S3 R10, R14; summed per
    match by ``report_scope._TOTALS``: a sequence never spans two frames)."""
    sql = f"""
WITH {_base(key)},
rows AS (SELECT * FROM ({_TOTALS}) WHERE {_CHOSEN}),
{miss_groups(key)}
"""
    return group_rows(con, sql, players)


def miss_groups(key: str) -> str:
    """The misses report's groups from a CTE ``rows`` of each match's side figures (those of
    ``report_scope._TOTALS``) and the CTE ``groups`` of :func:`_base`: the counts summed, the
    longest sequence the longest of any match."""
    sums = ", ".join(f"CAST(sum({c}) AS BIGINT) AS {c}" for c in _MISS_COUNTS)
    filled = ", ".join(f"coalesce(t.{c}, 0) AS {c}" for c in _MISS_COUNTS)
    return f"""per AS (
    SELECT {key} AS key, {sums}, CAST(max(longest_miss_sequence) AS BIGINT) AS longest_miss_sequence
    FROM rows GROUP BY ALL
)
SELECT g.key AS {key}, g.frames, {filled}, coalesce(t.longest_miss_sequence, 0) AS longest_miss_sequence
FROM groups g LEFT JOIN per t ON g.key IS NOT DISTINCT FROM t.key"""


def clock(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str]) -> GroupRows:
    """Per group: timed shots, the sum of their times (in whole microseconds: exact, so the
    order DuckDB's threads add them in does not change it; ``report_scope.SHOT_US``), the
    median and the longest, and the shots over the limit (``NULL`` when no shot had a limit)."""
    sql = f"""
WITH {_base(key)},
shots AS (SELECT * FROM ({_CLOCK}) WHERE {_CHOSEN}),
per AS (
    SELECT {key} AS key, CAST(count(*) AS BIGINT) AS shots, {as_seconds(f"sum({SHOT_US})")} AS sum_s,
           median(shot_s) AS median_s, max(shot_s) AS max_s,
           CASE WHEN bool_or(limit_s IS NOT NULL)
                THEN CAST(count(*) FILTER (WHERE shot_s > limit_s) AS BIGINT) END AS over_limit
    FROM shots GROUP BY ALL
)
SELECT g.key AS {key}, coalesce(p.shots, 0) AS shots, p.sum_s, p.median_s, p.max_s, p.over_limit
FROM groups g LEFT JOIN per p ON g.key IS NOT DISTINCT FROM p.key
"""
    return group_rows(con, sql, players)


# One row per chosen player and rack: the rack's result, the side's last visit (balls, and
# whether it was the break visit), balls potted, fouls committed and conceded (the
# opponent's, condoned included). A rack won on the black ends with the winner's stroke,
# so their last visit won it.
_RACKS = f"""
strokes AS (SELECT s.* FROM ({_STROKES}) s SEMI JOIN frames f ON f.match_id = s.match_id AND f.frame = s.frame),
visits AS (
    SELECT match_id, frame, side, visit_id, sum(scored) AS balls, bool_or(ball_on = 'break') AS has_break,
           max(n) AS last_n
    FROM strokes GROUP BY ALL
),
last AS (
    SELECT match_id, frame, side, arg_max(has_break, last_n) AS has_break, arg_max(balls, last_n) AS visit_balls
    FROM visits GROUP BY ALL
),
sides AS (
    SELECT match_id, frame, side, CAST(count(*) FILTER (WHERE foul) AS BIGINT) AS fouls,
           CAST(sum(scored) AS BIGINT) AS balls
    FROM strokes GROUP BY ALL
),
racks AS (
    SELECT f.*, coalesce(s.fouls, 0) AS fouls, coalesce(o.fouls, 0) AS fouls_conceded, coalesce(s.balls, 0) AS balls,
           coalesce(f.winner = f.side, false) AS won,
           coalesce(f.winner = f.side AND f.end_reason = 'pot' AND l.has_break, false) AS break_and_dish,
           coalesce(f.winner = f.side AND f.end_reason = 'pot' AND NOT l.has_break
                    AND l.visit_balls >= $clearance, false) AS clearance
    FROM frames f
    LEFT JOIN last l USING (match_id, frame, side)
    LEFT JOIN sides s USING (match_id, frame, side)
    LEFT JOIN sides o ON o.match_id = f.match_id AND o.frame = f.frame AND o.side <> f.side
)"""

_RACK_SUMS = """
    CAST(count(DISTINCT (match_id, frame)) AS BIGINT) AS racks, CAST(count(*) FILTER (WHERE won) AS BIGINT) AS racks_won,
    CAST(count(*) FILTER (WHERE break_and_dish) AS BIGINT) AS break_and_dish,
    CAST(count(*) FILTER (WHERE clearance) AS BIGINT) AS clearances, CAST(sum(balls) AS BIGINT) AS balls,
    CAST(sum(visits) AS BIGINT) AS visits, CAST(sum(fouls) AS BIGINT) AS fouls,
    CAST(sum(fouls_conceded) AS BIGINT) AS fouls_conceded"""


def pool(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str], *, clearance: int) -> GroupRows:
    """Eight-ball, per group: racks, racks won, break-and-dish, clearances (``clearance``
    balls in the winning visit), balls, visits, fouls committed and conceded."""
    sql = f"WITH {_base(key)}, {_RACKS}\nSELECT {key}, {_RACK_SUMS} FROM racks GROUP BY ALL"
    return group_rows(con, sql, players, clearance=clearance)


_PUSHES = f"""
pushes AS (
    SELECT u.* FROM ({PUSH_OUTS}) u SEMI JOIN scope_matches m ON m.match_id = u.match_id
)"""


def nineball(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str]) -> GroupRows:
    """Nine-ball, per group: the racks' figures of :func:`pool` (break-and-dish is the
    break-and-run) and the push outs declared."""
    sql = f"""
WITH {_base(key)}, {_RACKS}, {_PUSHES},
per AS (SELECT {key} AS key, {_RACK_SUMS} FROM racks GROUP BY ALL),
push AS (
    SELECT f.{key} AS key, CAST(sum(p.push_outs) AS BIGINT) AS push_outs
    FROM pushes p JOIN frames f USING (match_id, frame, side) GROUP BY ALL
)
SELECT p.key AS {key}, p.* EXCLUDE (key), coalesce(u.push_outs, 0) AS push_outs
FROM per p LEFT JOIN push u ON p.key IS NOT DISTINCT FROM u.key
"""
    return group_rows(con, sql, players, clearance=0)


def straight_pool(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str]) -> GroupRows:
    """14.1, per group: games, innings, balls, points credited, fouls and the points of the
    called ones (WPA 4.7-4.11), and the high run (the most points in one inning)."""
    sql = f"""
WITH {_base(key)},
strokes AS (SELECT * FROM ({_STROKES}) WHERE {_CHOSEN}),
brk AS (SELECT * FROM ({_BREAKS}) WHERE {_CHOSEN}),
per AS (
    SELECT {key} AS key, CAST(sum(scored) AS BIGINT) AS balls, CAST(sum(credited) AS BIGINT) AS points,
           CAST(count(*) FILTER (WHERE foul) AS BIGINT) AS fouls,
           CAST(coalesce(sum(penalty) FILTER (WHERE foul AND NOT condoned), 0) AS BIGINT) AS foul_points
    FROM strokes GROUP BY ALL
),
runs AS (SELECT {key} AS key, CAST(max(points) AS BIGINT) AS high_run FROM brk GROUP BY ALL)
SELECT g.key AS {key}, g.frames AS games, g.visits AS innings, coalesce(p.balls, 0) AS balls,
       coalesce(p.points, 0) AS points, coalesce(p.fouls, 0) AS fouls, coalesce(p.foul_points, 0) AS foul_points,
       coalesce(r.high_run, 0) AS high_run
FROM groups g
LEFT JOIN per p ON g.key IS NOT DISTINCT FROM p.key
LEFT JOIN runs r ON g.key IS NOT DISTINCT FROM r.key
"""
    return group_rows(con, sql, players)
