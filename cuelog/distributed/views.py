"""A results dataset seen as a cuelog database: DuckDB views over its Parquet files.

``cuelog report --results DIR`` reads the replay results a cluster wrote (and the match and
shot-clock tables copied beside them) through these views, without loading them into a file:
the reports' queries run unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from cuelog.distributed.layout import (
    LOADED,
    LOADED_TABLES,
    RESULTS,
    DatasetError,
    Storage,
    partitions_present,
    read_manifest,
)
from cuelog.distributed.task import RESULT_TABLES


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _views(url: str, kind: str, tables: Sequence[str], unfinished_ok: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose ``tables`` are views over the dataset at ``url``."""
    storage = Storage.open(url)
    read_manifest(storage, kind, unfinished_ok=unfinished_ok)
    con = duckdb.connect()
    if "://" in url:
        import fsspec

        con.register_filesystem(fsspec.core.url_to_fs(url)[0])
    for table in tables:
        if not partitions_present(storage, table):
            con.close()
            how = (
                "replay into it with `cuelog replay --parquet`" if kind == RESULTS else "write it with `cuelog export`"
            )
            raise DatasetError(f"{url}: no {table} files; {how}")
        glob = duck_path(storage, table, "*", "*.parquet")
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet({_quote(glob)}, hive_partitioning = false)")
    return con


def duck_path(storage: Storage, *parts: str) -> str:
    """A path in the dataset as DuckDB reads it: under the URL's own name when the dataset is
    not local (the connection has the URL's file system registered, as the views do)."""
    base = storage.url.rstrip("/") if "://" in storage.url else storage.root
    return "/".join([base, *parts])


def open_results(url: str) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose tables are views over the results at ``url``."""
    return _views(url, RESULTS, RESULT_TABLES)


def loaded_views(
    url: str, tables: Sequence[str] = LOADED_TABLES, *, unfinished_ok: bool = False
) -> duckdb.DuckDBPyConnection:
    """Views over a loaded dataset's tables (what ``cuelog diff --dataset`` selects from, what
    the kept shot clocks are aligned with while a write finishes: ``unfinished_ok``)."""
    return _views(url, LOADED, tables, unfinished_ok)
