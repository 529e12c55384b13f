"""Rows built in Python as Arrow tables."""

from __future__ import annotations

from collections.abc import Sequence

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
