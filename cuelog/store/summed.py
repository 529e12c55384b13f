"""Each report's group rows from the report summaries (:mod:`cuelog.store.summaries`).

The same functions, arguments and columns as :mod:`cuelog.store.aggregates`, which reads
the replay tables themselves; these read a row per match and side (and the shot times)
instead of every stroke, frame and break. Only for a scope whose replayed matches are all
summarised (``report_scope.in_scope`` finds whether they are).
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from cuelog.store import report_scope
from cuelog.store.aggregates import KEYS, miss_groups
from cuelog.store.report_scope import _CHOSEN, _SIDES, SHOT_US, GroupRows, as_seconds, group_rows

# Each summarised side of the matches in scope, with its player and event.
_ROWS = f"""
rows AS (
    SELECT p.event, p.player, t.*
    FROM summary_sides t JOIN ({_SIDES}) p ON p.match_id = t.match_id AND p.side = t.side
    WHERE {_CHOSEN}
)"""


def _base(key: str) -> str:
    """The chosen players' summarised sides, and every group with its frames (each match's
    once, however many of its sides the group holds) and visits."""
    if key not in KEYS:
        raise ValueError(f"unknown group key {key!r}")
    return f"""{_ROWS},
groups AS (
    SELECT key, CAST(sum(frames) AS BIGINT) AS frames, CAST(sum(visits) AS BIGINT) AS visits
    FROM (SELECT {key} AS key, match_id, max(frames) AS frames, sum(visits) AS visits FROM rows GROUP BY ALL)
    GROUP BY ALL
)"""


def frame_rows(con: duckdb.DuckDBPyConnection, players: Sequence[str]) -> int:
    """As :func:`cuelog.store.aggregates.frame_rows`: the chosen players' (player, frame) rows."""
    sql = f"WITH {_ROWS} SELECT coalesce(sum(frames), 0) FROM rows"
    return int(con.execute(sql, {"players": list(players)}).fetchall()[0][0])


def breaks(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str], *, fifty: int, century: int) -> GroupRows:
    """As :func:`cuelog.store.aggregates.breaks` (S2 R8): every break, highest first."""
    sql = f"""
WITH {_base(key)},
per AS (SELECT {key} AS key, CAST(list_sort(flatten(list(breaks)), 'DESC') AS BIGINT[]) AS breaks FROM rows GROUP BY ALL)
SELECT g.key AS {key}, g.frames, coalesce(p.breaks, CAST([] AS BIGINT[])) AS breaks,
       CAST(coalesce(list_max(p.breaks), 0) AS BIGINT) AS highest,
       CAST(len(list_filter(coalesce(p.breaks, []), lambda x: x >= $fifty)) AS BIGINT) AS fifty_plus,
       CAST(len(list_filter(coalesce(p.breaks, []), lambda x: x >= $century)) AS BIGINT) AS centuries,
       CAST(coalesce(list_sum(p.breaks), 0) AS BIGINT) AS total_points
FROM groups g LEFT JOIN per p ON g.key IS NOT DISTINCT FROM p.key
"""
    return group_rows(con, sql, players, fifty=fifty, century=century)


def billiards(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str], *, century: int) -> GroupRows:
    """As :func:`cuelog.store.aggregates.billiards`: points credited, visits, breaks."""
    sql = f"""
WITH {_base(key)},
per AS (
    SELECT {key} AS key, CAST(sum(credited) AS BIGINT) AS points, flatten(list(breaks)) AS breaks
    FROM rows GROUP BY ALL
)
SELECT g.key AS {key}, g.frames, coalesce(p.points, 0) AS points, g.visits,
       CAST(coalesce(list_max(p.breaks), 0) AS BIGINT) AS highest_break,
       CAST(len(list_filter(coalesce(p.breaks, []), lambda x: x >= $century)) AS BIGINT) AS centuries
FROM groups g LEFT JOIN per p ON g.key IS NOT DISTINCT FROM p.key
"""
    return group_rows(con, sql, players, century=century)


def misses(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str]) -> GroupRows:
    """As :func:`cuelog.store.aggregates.misses` (S3 R10, R14): a miss sequence never spans
    two frames, so the longest of a group is the longest of any of its matches."""
    sql = f"""
WITH {_base(key)},
{miss_groups(key)}
"""
    return group_rows(con, sql, players)


def clock(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str]) -> GroupRows:
    """As :func:`cuelog.store.aggregates.clock`, over the summarised shot times, which carry
    their player and event: no join per shot, and over every match no selection either.
    Where the store has the rows per second for every shot time
    (``report_scope.shots_counted``), the shots, the sum, the longest and those over the
    limit are summed from them (3.5M rows for 10M shot times). By player and by event the
    median comes from their counts (:data:`_COUNTED`), by match from each match's stored
    medians (:data:`_MATCH_MEDIANS`): DuckDB's ``median`` holds every shot time of a group,
    and by match every shot time of the store. In a store without them, every figure comes
    from the shot times themselves."""
    every = con.execute("SELECT (SELECT count(*) FROM scope_matches) = (SELECT count(*) FROM matches)").fetchall()
    chosen = "true" if every[0][0] else "match_id IN (SELECT match_id FROM scope_matches)"
    where = f"{chosen} AND {_CHOSEN if players else 'true'}"
    counted = report_scope.shots_counted(con)
    if counted and key != "match_id":
        per = _COUNTED.format(key=key, where=where)
    elif counted and report_scope.medians_stored(con):
        per = _MATCH_MEDIANS.format(where=where)
    else:
        per = f"""
per AS (
    SELECT {key} AS key, CAST(count(*) AS BIGINT) AS shots, {as_seconds(f"sum({SHOT_US})")} AS sum_s,
           median(shot_s) AS median_s, max(shot_s) AS max_s,
           CASE WHEN bool_or(limit_s IS NOT NULL)
                THEN CAST(count(*) FILTER (WHERE shot_s > limit_s) AS BIGINT) END AS over_limit
    FROM summary_shots WHERE {where} GROUP BY ALL
),
medians AS (SELECT key, median_s FROM per)"""
    sql = f"""
WITH {_base(key)},{per}
SELECT g.key AS {key}, coalesce(p.shots, 0) AS shots, p.sum_s, m.median_s, p.max_s, p.over_limit
FROM groups g LEFT JOIN per p ON g.key IS NOT DISTINCT FROM p.key
LEFT JOIN medians m ON g.key IS NOT DISTINCT FROM m.key
"""
    return group_rows(con, sql, players)


# The figures of each match from its rows per second (the chosen players' sides), and its
# median: of both sides' shot times where both sides are chosen, else of the one side's
# (the median DuckDB took of exactly those times when the replay wrote them).
_MATCH_MEDIANS = f"""
per AS (
    SELECT match_id AS key, CAST(sum(shots) AS BIGINT) AS shots, {as_seconds("sum(sum_us)")} AS sum_s,
           max(max_s) AS max_s, CASE WHEN bool_or(limited) THEN CAST(sum(over_limit) AS BIGINT) END AS over_limit,
           bool_or(side = 'A') AS side_a, bool_or(side = 'B') AS side_b
    FROM summary_shot_counts WHERE {{where}} GROUP BY ALL
),
medians AS (
    SELECT p.key, CASE WHEN p.side_a AND p.side_b THEN d.median_s WHEN p.side_a THEN d.median_a_s
                       ELSE d.median_b_s END AS median_s
    FROM per p JOIN summary_shot_medians d ON d.match_id = p.key
)"""


# Each group's figures from the shot times' rows per match, side and whole second: summed per
# group and second (``seconds``), then per group (``per``; the sum exact in microseconds, as
# from every shot time). The median is exact too: the second (or two) holding the middle
# rank(s) found by the running count, and only the shot times of those seconds read and
# sorted. DuckDB's ``median`` of the one or two middle times is the ``median`` of all of
# them (the same interpolation between the same two values), so the figure is the one
# ``median(shot_s)`` gives.
_COUNTED = f"""
seconds AS (
    SELECT {{key}} AS key, whole_s, CAST(sum(shots) AS BIGINT) AS shots, sum(sum_us) AS sum_us, max(max_s) AS max_s,
           sum(over_limit) AS over_limit, bool_or(limited) AS limited
    FROM summary_shot_counts WHERE {{where}} GROUP BY ALL
),
per AS (
    SELECT key, CAST(sum(shots) AS BIGINT) AS shots, {as_seconds("sum(sum_us)")} AS sum_s, max(max_s) AS max_s,
           CASE WHEN bool_or(limited) THEN CAST(sum(over_limit) AS BIGINT) END AS over_limit
    FROM seconds GROUP BY ALL
),
running AS (
    SELECT key, whole_s, shots,
           CAST(sum(shots) OVER (PARTITION BY key ORDER BY whole_s ROWS UNBOUNDED PRECEDING) - shots AS BIGINT) AS before,
           CAST(sum(shots) OVER (PARTITION BY key) AS BIGINT) AS total
    FROM seconds
),
middle AS (
    SELECT key, whole_s, before, (total - 1) // 2 AS lo, total // 2 AS hi
    FROM running WHERE before <= total // 2 AND before + shots > (total - 1) // 2
),
picked AS (
    SELECT m.key, m.whole_s, m.before, m.lo, m.hi, list(s.shot_s ORDER BY s.shot_s) AS times
    FROM (SELECT {{key}} AS key, CAST(floor(shot_s) AS BIGINT) AS whole_s, shot_s FROM summary_shots WHERE {{where}}) s
    JOIN middle m ON m.key IS NOT DISTINCT FROM s.key AND m.whole_s = s.whole_s
    GROUP BY ALL
),
middle_times AS (
    SELECT key, times[rank - before + 1] AS shot_s
    FROM (SELECT key, before, times, unnest(CASE WHEN lo = hi THEN [lo] ELSE [lo, hi] END) AS rank FROM picked)
    WHERE rank >= before AND rank < before + len(times)
),
medians AS (
    SELECT key, median(shot_s) AS median_s FROM middle_times GROUP BY ALL
)"""


# The racks' figures summed per group: racks and visits from the frames, the rest from the
# sides' summaries (a clearance: ``$clearance`` balls or more in the winning visit).
_RACK_SUMS = """
racked AS (
    SELECT {keyed}, CAST(sum(racks_won) AS BIGINT) AS racks_won, CAST(sum(break_and_dish) AS BIGINT) AS break_and_dish,
           CAST(sum(len(list_filter(clearance_balls, lambda x: x >= $clearance))) AS BIGINT) AS clearances,
           CAST(sum(rack_balls) AS BIGINT) AS balls, CAST(sum(rack_fouls) AS BIGINT) AS fouls,
           CAST(sum(fouls_conceded) AS BIGINT) AS fouls_conceded
    FROM rows GROUP BY ALL
),
racks AS (
    SELECT g.key, g.frames AS racks, coalesce(r.racks_won, 0) AS racks_won,
           coalesce(r.break_and_dish, 0) AS break_and_dish, coalesce(r.clearances, 0) AS clearances,
           coalesce(r.balls, 0) AS balls, g.visits, coalesce(r.fouls, 0) AS fouls,
           coalesce(r.fouls_conceded, 0) AS fouls_conceded
    FROM groups g LEFT JOIN racked r ON g.key IS NOT DISTINCT FROM r.key
)"""


def pool(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str], *, clearance: int) -> GroupRows:
    """As :func:`cuelog.store.aggregates.pool`."""
    sql = f"""
WITH {_base(key)}, {_RACK_SUMS.format(keyed=f"{key} AS key")}
SELECT key AS {key}, * EXCLUDE (key) FROM racks
"""
    return group_rows(con, sql, players, clearance=clearance)


def nineball(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str]) -> GroupRows:
    """As :func:`cuelog.store.aggregates.nineball`: with the push outs declared (WPA 2.4)."""
    sql = f"""
WITH {_base(key)}, {_RACK_SUMS.format(keyed=f"{key} AS key")},
push AS (
    SELECT p.{key} AS key, CAST(sum(u.push_outs) AS BIGINT) AS push_outs
    FROM summary_push_outs u JOIN ({_SIDES}) p ON p.match_id = u.match_id AND p.side = u.side
    WHERE {_CHOSEN} GROUP BY ALL
)
SELECT r.key AS {key}, r.* EXCLUDE (key), coalesce(u.push_outs, 0) AS push_outs
FROM racks r LEFT JOIN push u ON r.key IS NOT DISTINCT FROM u.key
"""
    return group_rows(con, sql, players, clearance=0)


def straight_pool(con: duckdb.DuckDBPyConnection, key: str, players: Sequence[str]) -> GroupRows:
    """As :func:`cuelog.store.aggregates.straight_pool` (WPA 4.7-4.11): the high run is
    the most points in one inning."""
    sql = f"""
WITH {_base(key)},
per AS (
    SELECT {key} AS key, CAST(sum(scored) AS BIGINT) AS balls, CAST(sum(credited) AS BIGINT) AS points,
           CAST(sum(fouls) AS BIGINT) AS fouls, CAST(sum(foul_points_conceded) AS BIGINT) AS foul_points,
           flatten(list(breaks)) AS breaks
    FROM rows GROUP BY ALL
)
SELECT g.key AS {key}, g.frames AS games, g.visits AS innings, coalesce(p.balls, 0) AS balls,
       coalesce(p.points, 0) AS points, coalesce(p.fouls, 0) AS fouls, coalesce(p.foul_points, 0) AS foul_points,
       CAST(coalesce(list_max(p.breaks), 0) AS BIGINT) AS high_run
FROM groups g
LEFT JOIN per p ON g.key IS NOT DISTINCT FROM p.key
"""
    return group_rows(con, sql, players)
