"""Rows built in Python as Arrow tables, and Arrow tables cut into runs of rows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pyarrow as pa


def rows_table(schema: pa.Schema, rows: Sequence[tuple[object, ...]]) -> pa.Table:
    """Row tuples, in ``schema``'s column order, as an Arrow table of that schema.

    Arrow converts the tuples as one struct array, in C++: transposing them into columns
    in Python first took 1.7 times as long (benchmarks/README.md, "The rows as one struct
    array, and the summaries' rack figures"). A tuple of the wrong length raises
    ``pyarrow.ArrowInvalid``; a value of the wrong type, as for a column,
    ``pyarrow.ArrowTypeError`` or ``ArrowInvalid``."""
    if not rows:
        return schema.empty_table()
    return pa.Table.from_struct_array(pa.array(rows, type=pa.struct(list(schema))))


def counted_runs(table: pa.Table, counted: str, limit: int) -> Iterator[pa.Table]:
    """Consecutive slices of ``table`` whose ``counted`` column sums to about ``limit`` each
    (at most ``limit``, or one row whose count alone is more). Only the counts become Python
    objects: cut from Python rows, the list of a federation's 47,000 matches was 100,000
    objects at once, and the replay's memory grew with the store (benchmarks/README.md,
    "replay --db: the matches listed as Arrow")."""
    start = held = 0
    counts = table.column(counted).to_pylist()
    for end, count in enumerate(counts):
        if end > start and held + count > limit:
            yield table.slice(start, end - start)
            start, held = end, 0
        held += count
    if start < len(counts):
        yield table.slice(start)
