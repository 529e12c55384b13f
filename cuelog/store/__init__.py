"""The DuckDB store: open it, create its tables, read the loaded logs back.

One embedded file (default ``./cuelog.duckdb``). The tables are defined once, in
``cuelog/schemas/ddl.sql``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from importlib import resources

import duckdb

from cuelog.schemas.records import Record, decode

DEFAULT_DB = "cuelog.duckdb"


def ddl() -> str:
    """The DDL of every table."""
    return resources.files("cuelog.schemas").joinpath("ddl.sql").read_text(encoding="utf-8")


def connect(path: str | os.PathLike[str] = DEFAULT_DB, *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open (creating if needed) a cuelog database and make sure its tables exist."""
    con = duckdb.connect(str(path), read_only=read_only)
    if not read_only:
        con.execute(ddl())
    return con


def match_ids(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every loaded match id, sorted."""
    return [row[0] for row in con.execute("SELECT match_id FROM matches ORDER BY match_id").fetchall()]


def match_records(
    con: duckdb.DuckDBPyConnection, matches: Sequence[str] | None = None
) -> Iterator[tuple[str, list[Record]]]:
    """The records of each loaded match (the match record first), in file order, by match id."""
    ids = match_ids(con) if matches is None else sorted(matches)
    for match_id in ids:
        rows = con.execute(
            "SELECT body FROM records WHERE match_id = ? ORDER BY seq",
            [match_id],
        ).fetchall()
        yield match_id, [decode(row[0]) for row in rows]
