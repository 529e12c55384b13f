"""Player statistics from the replay results: breaks, billiards averages, misses, shot times,
pool racks.

Every figure comes from what the rules make of the strokes (the ``replay_*`` tables written
by ``cuelog replay --db``), never from the recorded calls or scoreboards: a condoned foul
or a wrong scoreboard does not change a player's statistics. ``cuelog report`` has DuckDB
sum them into one row per group (:mod:`cuelog.analytics.queries`: no row per stroke, shot,
frame or break reaches Python). Here :func:`load` reads the rows themselves as Arrow for the
plots, and ``REPORTS`` summarises them with Polars into the same figures (the tests hold the
two to each other).

Players are the names in the match records' ``sides``. A report groups by player (the
default), by match or by event; each group is one row with the keys the report names.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Final

import duckdb
import polars as pl
import pyarrow as pa

from cuelog.analytics.queries import (
    CENTURY,
    CLEARANCE_BALLS,
    FIFTY,
    ReportError,
    Scope,
    in_scope,
    key_column,
    nothing_played,
)
from cuelog.store import reads
from cuelog.store.report_scope import TABLES


@dataclass(slots=True)
class Data:
    """The replay results in scope, one Polars frame per table, each row with its group keys.

    ``strokes``: one row per replayed stroke (``player`` is the striker's name);
    ``frames``: one row per player and replayed frame (with the player's visits);
    ``breaks``: one row per break; ``clock``: one row per stroke with a shot time;
    ``totals``: one row per side and match with its stroke figures summed (points credited,
    fouls, misses, the longest FOUL AND A MISS sequence). A table the caller did not ask
    for has its columns and no rows.
    """

    strokes: pl.DataFrame
    frames: pl.DataFrame
    breaks: pl.DataFrame
    clock: pl.DataFrame
    totals: pl.DataFrame
    unreplayed: list[str] = field(default_factory=list)
    push_outs: pl.DataFrame | None = None
    """Nine-ball: push outs declared (a recorded fact, WPA 2.4), one row per player and rack."""


def load(con: duckdb.DuckDBPyConnection, kind: str, scope: Scope = Scope(), needs: Collection[str] = TABLES) -> Data:
    """The replay results a report of ``kind`` reads, restricted to ``scope``: the tables in
    ``needs`` (every one by default, as the plots want them).

    Raises ReportError for an empty database, no replay results, or a name in the scope
    that the database does not know.
    """
    found = in_scope(con, kind, scope)
    tables = reads.report_tables(con, needs)
    data = Data(
        strokes=_polars(tables.strokes),
        frames=_polars(tables.frames),
        breaks=_polars(tables.breaks),
        clock=_polars(tables.clock),
        totals=_polars(tables.totals),
        unreplayed=found.unreplayed,
        push_outs=_polars(reads.push_outs(con)) if kind == "nineball" else None,
    )
    if scope.players:
        names = list(scope.players)
        if kind not in ("pool", "nineball"):
            # pool keeps the opponents' strokes: the fouls a player conceded are theirs.
            data.strokes = data.strokes.filter(pl.col("player").is_in(names))
        data.frames = data.frames.filter(pl.col("player").is_in(names))
        data.breaks = data.breaks.filter(pl.col("player").is_in(names))
        data.clock = data.clock.filter(pl.col("player").is_in(names))
        data.totals = data.totals.filter(pl.col("player").is_in(names))
        if data.frames.is_empty():
            raise ReportError(nothing_played(kind, names))
    return data


def _polars(table: pa.Table) -> pl.DataFrame:
    """An Arrow table from the store as a Polars frame (columnar, no row loop)."""
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return frame


# -- the statistics --------------------------------------------------------------------------


def _groups(data: Data, by: str) -> pl.DataFrame:
    """Every group in scope with the replayed frames it played (a group with no stroke still shows)."""
    key = key_column(by)
    return (
        data.frames.group_by(key)
        .agg(
            frames=pl.struct("match_id", "frame").n_unique().cast(pl.Int64),
            visits=pl.col("visits").sum().cast(pl.Int64),
        )
        .sort(key, nulls_last=True)
    )


def _finish(frame: pl.DataFrame, by: str) -> pl.DataFrame:
    key = key_column(by)
    out = frame.sort(key, nulls_last=True)
    return out.rename({key: by}) if key != by else out


def breaks(data: Data, by: str = "player") -> pl.DataFrame:
    """Snooker breaks (S2 R8): every break, the highest, 50+ (centuries included), 100+."""
    key = key_column(by)
    per = data.breaks.group_by(key).agg(
        breaks=pl.col("points").sort(descending=True).cast(pl.Int64),
        highest=pl.col("points").max().cast(pl.Int64),
        fifty_plus=(pl.col("points") >= FIFTY).sum().cast(pl.Int64),
        centuries=(pl.col("points") >= CENTURY).sum().cast(pl.Int64),
    )
    # Every point the player's own strokes put on the board is in one of their breaks (S2 R8),
    # pots in a condoned foul stroke included (S3 R10(c)); penalties received are not.
    points = data.breaks.group_by(key).agg(total_points=pl.col("points").sum().cast(pl.Int64))
    out = (
        _groups(data, by)
        .select(key, "frames")
        .join(per, on=key, how="left", nulls_equal=True)
        .join(points, on=key, how="left", nulls_equal=True)
        .with_columns(
            pl.col("breaks").fill_null(pl.lit([], dtype=pl.List(pl.Int64))),
            pl.col("highest", "fifty_plus", "centuries", "total_points").fill_null(0),
        )
    )
    return _finish(out.select(key, "frames", "breaks", "highest", "fifty_plus", "centuries", "total_points"), by)


def billiards(data: Data, by: str = "player") -> pl.DataFrame:
    """English Billiards: points from own strokes, visits (S2 R6), average per visit, breaks.

    Points are what the official score credited to each stroke (the calls as made: a
    foul nobody called stands with its pots, S3 R16(d); a game target caps them, S3 R5(d))."""
    key = key_column(by)
    points = data.totals.group_by(key).agg(points=pl.col("credited").sum().cast(pl.Int64))
    per = data.breaks.group_by(key).agg(
        highest_break=pl.col("points").max().cast(pl.Int64),
        centuries=(pl.col("points") >= CENTURY).sum().cast(pl.Int64),
    )
    out = (
        _groups(data, by)
        .join(points, on=key, how="left", nulls_equal=True)
        .join(per, on=key, how="left", nulls_equal=True)
        .with_columns(pl.col("points", "highest_break", "centuries").fill_null(0))
        .with_columns(
            average=pl.when(pl.col("visits") > 0).then((pl.col("points") / pl.col("visits")).round(2)).otherwise(None)
        )
    )
    return _finish(out.select(key, "frames", "points", "visits", "average", "highest_break", "centuries"), by)


def called_misses() -> pl.Expr:
    """FOUL AND A MISS due on a foul that was called: a condoned foul had no call at all."""
    return pl.col("miss") & ~pl.col("condoned")


def miss_runs(strokes: pl.DataFrame) -> pl.DataFrame:
    """Sequences of FOUL AND A MISS (S3 R14): consecutive strokes of one striker in one frame,
    each a miss. A stroke by the opponent, or one that is not a miss, ends the sequence
    (R14(d)(iii)); so does a gap in the stroke numbers, where strokes left out (the
    opponent's, with ``--player``) came between. One row per sequence with its length,
    first and last stroke and points."""
    ordered = strokes.sort("match_id", "frame", "n").with_columns(is_miss=called_misses())
    new_run = (
        (pl.col("is_miss") != pl.col("is_miss").shift(1))
        | (pl.col("side") != pl.col("side").shift(1))
        | (pl.col("n") != pl.col("n").shift(1) + 1)
        | (pl.col("frame") != pl.col("frame").shift(1))
        | (pl.col("match_id") != pl.col("match_id").shift(1))
    ).fill_null(True)
    return (
        ordered.with_columns(run=new_run.cum_sum())
        .filter(pl.col("is_miss"))
        .group_by("run", maintain_order=True)
        .agg(
            pl.col("match_id", "event", "frame", "side", "player").first(),
            length=pl.len().cast(pl.Int64),
            from_n=pl.col("n").first(),
            to_n=pl.col("n").last(),
            points=pl.col("penalty").sum().cast(pl.Int64),
        )
        .drop("run")
    )


def misses(data: Data, by: str = "player") -> pl.DataFrame:
    """Snooker fouls and FOUL AND A MISS calls due on each player (S3 R10, R14).

    ``fouls`` counts every foul the facts show, ``condoned_fouls`` those nobody called
    (they stand, S3 R10(c): no points were conceded for them and no miss was called)."""
    key = key_column(by)
    counts = ["miss_calls", "miss_points_conceded", "fouls", "foul_points_conceded", "condoned_fouls"]
    # The per-match figures DuckDB summed (report_scope._TOTALS) add up per group; a sequence never
    # spans two frames, so the longest is the longest of any match.
    fouls = data.totals.group_by(key).agg(*(pl.col(c).sum().cast(pl.Int64) for c in counts))
    longest = data.totals.group_by(key).agg(longest_miss_sequence=pl.col("longest_miss_sequence").max())
    out = (
        _groups(data, by)
        .select(key, "frames")
        .join(fouls, on=key, how="left", nulls_equal=True)
        .join(longest, on=key, how="left", nulls_equal=True)
        .with_columns(pl.col(*counts, "longest_miss_sequence").fill_null(0).cast(pl.Int64))
        .with_columns(
            misses_per_frame=pl.when(pl.col("frames") > 0)
            .then((pl.col("miss_calls") / pl.col("frames")).round(2))
            .otherwise(None)
        )
    )
    cols = ["frames", "miss_calls", "miss_points_conceded", "fouls", "foul_points_conceded", "misses_per_frame"]
    return _finish(out.select(key, *cols, "longest_miss_sequence", "condoned_fouls"), by)


def clock(data: Data, by: str = "player") -> pl.DataFrame:
    """Shot times from the aligned shot clock (pauses excluded): count, mean, median, max, and
    shots over the limit where a limit applies (``None`` when no shot had one)."""
    key = key_column(by)
    per = data.clock.group_by(key).agg(
        shots=pl.len().cast(pl.Int64),
        mean_s=pl.col("shot_s").mean().round(2),
        median_s=pl.col("shot_s").median().round(2),
        max_s=pl.col("shot_s").max().round(2),
        over_limit=pl.when(pl.col("limit_s").is_not_null().any())
        .then((pl.col("shot_s") > pl.col("limit_s")).fill_null(False).sum())
        .otherwise(None)
        .cast(pl.Int64),
    )
    out = (
        _groups(data, by)
        .select(key)
        .join(per, on=key, how="left", nulls_equal=True)
        .with_columns(pl.col("shots").fill_null(0))
    )
    return _finish(out.select(key, "shots", "mean_s", "median_s", "max_s", "over_limit"), by)


def pool_racks(data: Data) -> pl.DataFrame:
    """One row per player and rack: won, won in the breaker's first visit (break-and-dish),
    won in one visit that potted the whole group and the black (a clearance), balls potted
    legally, visits, fouls committed and fouls conceded (the opponent's, condoned included:
    they are fouls the facts show)."""
    sides = data.frames.select("match_id", "frame", "side")
    strokes = data.strokes.join(sides, on=["match_id", "frame"], how="semi")
    visits = (
        strokes.group_by("match_id", "frame", "side", "visit_id")
        .agg(balls=pl.col("scored").sum(), has_break=(pl.col("ball_on") == "break").any(), last_n=pl.col("n").max())
        .sort("match_id", "frame", "last_n")
    )
    # A rack won on the black ends with the winner's stroke: their last visit won it.
    last = visits.group_by("match_id", "frame", "side", maintain_order=True).last()
    fouls = strokes.group_by("match_id", "frame", "side").agg(fouls=pl.col("foul").sum().cast(pl.Int64))
    conceded = fouls.select(
        "match_id", "frame", pl.when(pl.col("side") == "A").then(pl.lit("B")).otherwise(pl.lit("A")).alias("side"),
        pl.col("fouls").alias("fouls_conceded"),
    )  # fmt: skip
    balls = strokes.group_by("match_id", "frame", "side").agg(balls=pl.col("scored").sum().cast(pl.Int64))
    keys = ["match_id", "frame", "side"]
    out = (
        data.frames.join(last.select(*keys, "has_break", pl.col("balls").alias("visit_balls")), on=keys, how="left")
        .join(fouls, on=keys, how="left")
        .join(conceded, on=keys, how="left")
        .join(balls, on=keys, how="left")
        .with_columns(pl.col("fouls", "fouls_conceded", "balls").fill_null(0))
    )
    won_on_black = (pl.col("winner") == pl.col("side")) & (pl.col("end_reason") == "pot")
    return out.with_columns(
        won=(pl.col("winner") == pl.col("side")).fill_null(False),
        break_and_dish=(won_on_black & pl.col("has_break")).fill_null(False),
        clearance=(won_on_black & ~pl.col("has_break") & (pl.col("visit_balls") >= CLEARANCE_BALLS)).fill_null(False),
    )


def pool(data: Data, by: str = "player") -> pl.DataFrame:
    """Eight-ball: racks played and won, break-and-dish, clearances, balls potted legally,
    visits, balls per visit, fouls committed and conceded (docs/pool.md)."""
    key = key_column(by)
    per = (
        pool_racks(data)
        .group_by(key)
        .agg(
            racks=pl.struct("match_id", "frame").n_unique().cast(pl.Int64),
            racks_won=pl.col("won").sum().cast(pl.Int64),
            break_and_dish=pl.col("break_and_dish").sum().cast(pl.Int64),
            clearances=pl.col("clearance").sum().cast(pl.Int64),
            balls=pl.col("balls").sum().cast(pl.Int64),
            visits=pl.col("visits").sum().cast(pl.Int64),
            fouls=pl.col("fouls").sum().cast(pl.Int64),
            fouls_conceded=pl.col("fouls_conceded").sum().cast(pl.Int64),
        )
    )
    out = per.with_columns(
        balls_per_visit=pl.when(pl.col("visits") > 0)
        .then((pl.col("balls") / pl.col("visits")).round(2))
        .otherwise(None)
    )
    cols = ["racks", "racks_won", "break_and_dish", "clearances", "balls", "visits", "balls_per_visit"]
    return _finish(out.select(key, *cols, "fouls", "fouls_conceded"), by)


def nineball(data: Data, by: str = "player") -> pl.DataFrame:
    """Nine-ball: racks played and won, break-and-runs (won in the breaker's first visit),
    push outs (WPA 2.4), balls, visits, fouls committed and conceded (docs/pool.md)."""
    key = key_column(by)
    per = (
        pool_racks(data)
        .group_by(key)
        .agg(
            racks=pl.struct("match_id", "frame").n_unique().cast(pl.Int64),
            racks_won=pl.col("won").sum().cast(pl.Int64),
            break_and_run=pl.col("break_and_dish").sum().cast(pl.Int64),
            balls=pl.col("balls").sum().cast(pl.Int64),
            visits=pl.col("visits").sum().cast(pl.Int64),
            fouls=pl.col("fouls").sum().cast(pl.Int64),
            fouls_conceded=pl.col("fouls_conceded").sum().cast(pl.Int64),
        )
    )
    pushes = data.push_outs if data.push_outs is not None else pl.DataFrame()
    if pushes.is_empty():
        per = per.with_columns(push_outs=pl.lit(0, dtype=pl.Int64))
    else:
        keep = pushes.join(
            data.frames.select("match_id", "frame", "side"), on=["match_id", "frame", "side"], how="semi"
        )
        counts = keep.group_by(key).agg(push_outs=pl.col("push_outs").sum().cast(pl.Int64))
        per = per.join(counts, on=key, how="left", nulls_equal=True).with_columns(pl.col("push_outs").fill_null(0))
    cols = ["racks", "racks_won", "break_and_run", "push_outs", "balls", "visits", "fouls", "fouls_conceded"]
    return _finish(per.select(key, *cols), by)


def straight_pool(data: Data, by: str = "player") -> pl.DataFrame:
    """14.1 continuous: points, the high run (the most points in one inning, the game's
    headline statistic), innings, balls per inning, fouls and the points they cost (WPA 4.7-4.11)."""
    key = key_column(by)
    called = pl.col("foul") & ~pl.col("condoned")
    per = data.strokes.group_by(key).agg(
        balls=pl.col("scored").sum().cast(pl.Int64),
        points=(pl.col("credited")).sum().cast(pl.Int64),
        fouls=pl.col("foul").sum().cast(pl.Int64),
        foul_points=pl.col("penalty").filter(called).sum().cast(pl.Int64),
    )
    runs = data.breaks.group_by(key).agg(high_run=pl.col("points").max().cast(pl.Int64))
    out = (
        _groups(data, by)
        .join(per, on=key, how="left", nulls_equal=True)
        .join(runs, on=key, how="left", nulls_equal=True)
        .with_columns(pl.col("balls", "points", "fouls", "foul_points", "high_run").fill_null(0))
        .with_columns(
            balls_per_inning=pl.when(pl.col("visits") > 0)
            .then((pl.col("balls") / pl.col("visits")).round(2))
            .otherwise(None)
        )
        .rename({"frames": "games", "visits": "innings"})
    )
    cols = ["games", "points", "high_run", "innings", "balls_per_inning", "fouls", "foul_points"]
    return _finish(out.select(key, *cols), by)


REPORTS: Final = {
    "breaks": breaks,
    "billiards": billiards,
    "misses": misses,
    "clock": clock,
    "pool": pool,
    "nineball": nineball,
    "straight-pool": straight_pool,
}
