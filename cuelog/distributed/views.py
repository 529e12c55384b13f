"""A results dataset seen as a cuelog database: DuckDB views over its Parquet files.

``cuelog report --results DIR`` reads the replay results a cluster wrote (and the match and
shot-clock tables copied beside them) through these views, without loading them into a file:
the reports' queries run unchanged.
"""

from __future__ import annotations

import duckdb

from cuelog.distributed.layout import RESULTS, DatasetError, Storage, partitions_present, read_manifest
from cuelog.distributed.task import RESULT_TABLES


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def open_results(url: str) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose tables are views over the results at ``url``."""
    storage = Storage.open(url)
    read_manifest(storage, RESULTS)
    con = duckdb.connect()
    if "://" in url:
        import fsspec

        con.register_filesystem(fsspec.core.url_to_fs(url)[0])
    base = url.rstrip("/") if "://" in url else storage.root
    for table in RESULT_TABLES:
        if not partitions_present(storage, table):
            con.close()
            raise DatasetError(f"{url}: no {table} files; replay into it with `cuelog replay --parquet`")
        glob = f"{base}/{table}/*/*.parquet"
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet({_quote(glob)}, hive_partitioning = false)")
    return con
