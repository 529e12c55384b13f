"""An official's view of the stored replay results: matches, frames and findings as Polars frames.

The queries are the store's (:mod:`cuelog.store.reads`); this module makes Polars frames of
the Arrow tables they give.
"""

from __future__ import annotations

import duckdb
import polars as pl
import pyarrow as pa

from cuelog.store import reads

__all__ = ["findings", "frame_findings", "frames", "matches"]


def _polars(table: pa.Table) -> pl.DataFrame:
    out = pl.from_arrow(table)
    assert isinstance(out, pl.DataFrame)
    return out


def matches(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every replayed match with its players, frames and number of findings, most findings first."""
    return _polars(reads.replayed_matches(con))


def frames(con: duckdb.DuckDBPyConnection, match_id: str) -> pl.DataFrame:
    """Each frame of a match: the score the rules give, the recorded score, the winners."""
    return _polars(reads.replayed_frames(con, match_id))


def findings(con: duckdb.DuckDBPyConnection, match_id: str) -> pl.DataFrame:
    """Every finding of a match, in stroke order: frame, stroke, kind, rule, side, points, message."""
    return _polars(reads.match_findings(con, match_id))


def frame_findings(con: duckdb.DuckDBPyConnection, match_id: str, frame: int) -> list[tuple[int, str]]:
    """The findings of one frame as (stroke, kind), in stroke order: what a score worm marks."""
    return reads.frame_findings(con, match_id, frame)
