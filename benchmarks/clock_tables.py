"""The shot-clock tables of two stores compared row by row: what a clock load must keep.

    python benchmarks/clock_tables.py A.duckdb B.duckdb

Two stores loaded from the same logs and device logs by two revisions must hold the same
``shot_clock`` rows in the same stored order (a report reads them in that order), the same
``ingest_log`` entries (less ``loaded_at``, the time of the load) and the same per-match
shot summaries (``summary_shots``, refreshed by every clock load). Prints the rows of each
table, the first row that differs, and exits 1 when any table differs.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from itertools import zip_longest
from typing import Any

import duckdb

# Each table's rows in the order compared: shot_clock as stored, the others by their key.
QUERIES = {
    "shot_clock": "SELECT * FROM {db}.shot_clock ORDER BY rowid",
    "ingest_log": "SELECT * EXCLUDE (loaded_at) FROM {db}.ingest_log ORDER BY file_hash",
    "summary_shots": "SELECT * FROM {db}.summary_shots ORDER BY ALL",
}


def rows(con: duckdb.DuckDBPyConnection, query: str) -> Iterator[tuple[Any, ...]]:
    """The rows of a query, fetched a chunk at a time (a 10M-stroke store has 10M shots)."""
    result = con.execute(query)
    while chunk := result.fetchmany(100_000):
        yield from chunk


def compare(a: str, b: str) -> bool:
    con = duckdb.connect()
    try:
        con.execute(f"ATTACH '{a}' AS a (READ_ONLY)")
        other = duckdb.connect()  # a second connection: the two stores are read side by side
        other.execute(f"ATTACH '{b}' AS b (READ_ONLY)")
        same = True
        for table, query in QUERIES.items():
            n = 0
            first: tuple[int, Any, Any] | None = None
            pairs = zip_longest(rows(con, query.format(db="a")), rows(other, query.format(db="b")))
            for n, (x, y) in enumerate(pairs, start=1):
                if x != y and first is None:
                    first = (n, x, y)
            if first is None:
                print(f"{table}: {n:,} rows, identical")
            else:
                same = False
                print(f"{table}: differs first at row {first[0]:,}:\n  {a}: {first[1]}\n  {b}: {first[2]}")
        other.close()
        return same
    finally:
        con.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(0 if compare(sys.argv[1], sys.argv[2]) else 1)
