"""The DuckDB store: every table, read and write of the database, in one package.

One embedded file (default ``./cuelog.duckdb``). The tables are defined once, in
``cuelog/schemas/ddl.sql``; :func:`connect` opens a file and creates them.

- :mod:`cuelog.store.loads`: ingest's writes (each file's rows published in one
  transaction, shot-clock rows, the ``ingest_log`` of loaded files);
- :mod:`cuelog.store.clocks`: device shot clocks aligned to the strokes and stored, in DuckDB;
- :mod:`cuelog.store.results`: the replay results (``replay_*`` tables) and their writes;
- :mod:`cuelog.store.reads`: what the replay and the commands read back.
"""

from __future__ import annotations

import os
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where a connection is made: a replay worker never needs DuckDB
    import duckdb

    from cuelog.store.reads import match_ids, match_records

__all__ = ["DEFAULT_DB", "connect", "ddl", "match_ids", "match_records"]

DEFAULT_DB = "cuelog.duckdb"


def ddl() -> str:
    """The DDL of every table."""
    return resources.files("cuelog.schemas").joinpath("ddl.sql").read_text(encoding="utf-8")


_OLD_STAGING = ("cuelog_stage_records", "cuelog_stage_strokes", "cuelog_stage_shot_clock")


def connect(path: str | os.PathLike[str] = DEFAULT_DB, *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open (creating if needed) a cuelog database and make sure its tables exist."""
    import duckdb

    con = duckdb.connect(str(path), read_only=read_only)
    if not read_only:
        # Here, not at the top: the results module imports pyarrow, which a reader (the
        # report command) does without.
        from cuelog.store.results import (
            adopt_keyed_frames,
            adopt_single_generation,
            set_aside_keyed_frames,
            set_aside_single_generation,
        )
        from cuelog.store.summaries import recount_shots, stale_shot_summaries

        con.execute("BEGIN TRANSACTION")
        try:
            # A database made before replay generations: its replay tables move under the views.
            moved = set_aside_single_generation(con)
            # A frames table with the key stores had before: made again without it.
            keyed = set_aside_keyed_frames(con)
            # Shot times' rows per second without their sums, or no medians: made again.
            recount = stale_shot_summaries(con)
            con.execute(ddl())
            adopt_single_generation(con, moved)
            adopt_keyed_frames(con, keyed)
            if recount:
                recount_shots(con)
            # Staging tables an interrupted load of an older cuelog left (large logs are
            # spooled outside the store now): nothing reads them.
            for table in _OLD_STAGING:
                con.execute(f"DROP TABLE IF EXISTS {table}")
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            con.close()
            raise
    return con


def __getattr__(name: str) -> Any:
    # The readers import pyarrow: loaded when first asked for, so that a command needing only
    # DEFAULT_DB (its --help, say) does not pay for them.
    if name in ("match_ids", "match_records"):
        from cuelog.store import reads

        return getattr(reads, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
