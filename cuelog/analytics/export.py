"""Write a report to Parquet or CSV and read it back unchanged.

Parquet keeps every type, lists included. CSV has no lists: a list column (the break
values of the ``breaks`` report) is written as its numbers joined by ``;`` (``"147;21"``,
empty for none) and split again on reading, so both formats round-trip to the same frame.
"""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl

LIST_SEP = ";"
LIST_COLUMNS = ("breaks",)
"""Report columns that hold lists (written ``;``-joined in CSV)."""


def write(frame: pl.DataFrame, path: str | os.PathLike[str]) -> Path:
    """Write ``frame`` to ``path``: Parquet for ``.parquet``, CSV otherwise."""
    p = Path(path)
    if p.suffix == ".parquet":
        frame.write_parquet(p)
        return p
    flat = frame.with_columns(
        pl.col(name).cast(pl.List(pl.String)).list.join(LIST_SEP)
        for name, dtype in frame.schema.items()
        if isinstance(dtype, pl.List)
    )
    flat.write_csv(p)
    return p


def read(path: str | os.PathLike[str], like: pl.Schema | None = None) -> pl.DataFrame:
    """Read an export back. For CSV, ``like`` (the report's schema) restores the column types
    and the list columns; without it, columns whose name is a known list column are split."""
    p = Path(path)
    if p.suffix == ".parquet":
        return pl.read_parquet(p)
    schema = like or pl.Schema()
    overrides = {n: (pl.String if isinstance(t, pl.List) else t) for n, t in schema.items()}
    frame = pl.read_csv(p, schema_overrides=overrides or None)
    lists = [n for n, t in schema.items() if isinstance(t, pl.List)] or [n for n in frame.columns if n in LIST_COLUMNS]
    return frame.with_columns(
        pl.col(n)
        .fill_null("")
        .str.split(LIST_SEP)
        .list.eval(pl.element().filter(pl.element() != "").cast(pl.Int64))
        .cast(schema.get(n, pl.List(pl.Int64)))
        for n in lists
    )
