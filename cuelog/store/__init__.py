"""The DuckDB store: every table, read and write of the database, in one package.

One embedded file (default ``./cuelog.duckdb``). The tables are defined once, in
``cuelog/schemas/ddl.sql``; :func:`connect` opens a file and creates them.

- :mod:`cuelog.store.loads`: ingest's writes (logs staged per file and published in one
  transaction, shot-clock rows, the ``ingest_log`` of loaded files);
- :mod:`cuelog.store.clocks`: device shot clocks aligned to the strokes and stored, in DuckDB;
- :mod:`cuelog.store.results`: the replay results (``replay_*`` tables) and their writes;
- :mod:`cuelog.store.reads`: what the replay and the commands read back.
"""

from __future__ import annotations

import os
from importlib import resources

import duckdb

from cuelog.store.reads import match_ids, match_records

__all__ = ["DEFAULT_DB", "connect", "ddl", "match_ids", "match_records"]

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
