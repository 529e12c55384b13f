"""An official's view of the stored replay results: matches, frames and findings as Polars frames."""

from __future__ import annotations

import duckdb
import polars as pl


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[object] | None = None) -> pl.DataFrame:
    """A query's result as a Polars frame, through Arrow."""
    rel = con.sql(sql, params=params)
    assert rel is not None
    out = pl.from_arrow(rel.to_arrow_table())
    assert isinstance(out, pl.DataFrame)
    return out


def matches(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every replayed match with its players, frames and number of findings, most findings first."""
    return _frame(
        con,
        """
            SELECT m.match_id, m.rules, m.side_a, m.side_b, m.event, m.date,
                   (SELECT count(*) FROM replay_frames f WHERE f.match_id = m.match_id) AS frames,
                   (SELECT count(*) FROM replay_findings x WHERE x.match_id = m.match_id) AS findings
            FROM matches m
            WHERE m.match_id IN (SELECT match_id FROM replay_frames)
            ORDER BY findings DESC, m.match_id
        """,
    )


def frames(con: duckdb.DuckDBPyConnection, match_id: str) -> pl.DataFrame:
    """Each frame of a match: the score the rules give, the recorded score, the winners."""
    return _frame(
        con,
        """
        SELECT frame, score_a, score_b, recorded_a, recorded_b, winner, recorded_winner, end_reason,
               (SELECT count(*) FROM replay_findings x WHERE x.match_id = f.match_id AND x.frame = f.frame) AS findings
        FROM replay_frames f WHERE match_id = $1
        ORDER BY frame
        """,
        [match_id],
    )


def findings(con: duckdb.DuckDBPyConnection, match_id: str) -> pl.DataFrame:
    """Every finding of a match, in stroke order: frame, stroke, kind, rule, side, points, message."""
    return _frame(
        con,
        """
        SELECT frame, n AS stroke, kind, rule, side, points, message
        FROM replay_findings WHERE match_id = $1
        ORDER BY frame NULLS FIRST, n, kind, rule, message
        """,
        [match_id],
    )


def frame_findings(con: duckdb.DuckDBPyConnection, match_id: str, frame: int) -> list[tuple[int, str]]:
    """The findings of one frame as (stroke, kind), in stroke order: what a score worm marks."""
    rows = con.execute(
        "SELECT n, kind FROM replay_findings WHERE match_id = $1 AND frame = $2 ORDER BY n, kind",
        [match_id, frame],
    ).fetchall()
    return [(int(n), str(kind)) for n, kind in rows]
