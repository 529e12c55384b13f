"""Rows built in Python as Arrow tables, Arrow tables cut into runs of rows, and a part's
rows kept as ranges of the tables they are part of."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

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


def ipc_bytes(table: pa.Table) -> bytes:
    """The table as an Arrow IPC stream, what the replay and ingest send between their processes."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return bytes(sink.getvalue())


def packed(tables: Mapping[str, pa.Table]) -> dict[str, bytes]:
    """The tables as Arrow IPC bytes, what a worker process sends back: a quarter of the CPU
    of pickling the tables, both ways (measured: 0.014 s against 0.06-0.08 s to write and
    0.03-0.06 s to read the tables of 72k strokes)."""
    return {name: ipc_bytes(table) for name, table in tables.items()}


def unpacked(tables: Mapping[str, bytes]) -> dict[str, pa.Table]:
    """The tables :func:`packed` gave."""
    return {name: pa.ipc.open_stream(data).read_all() for name, data in tables.items()}


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


class Ranges(Mapping[str, pa.Table]):
    """One part's rows of each table (a log file's, of a batch a worker checked): the rows
    ``starts[t]`` to ``starts[t] + counts[t]`` of ``whole[t]``, sliced only when read.
    Slicing every file of a batch as it came back, then joining the slices again to
    publish them, took a slice per file and table and a join of them all
    (benchmarks/README.md, "Ingest: a file's rows kept as ranges of its batch's");
    :func:`joined` joins the files of one batch that follow each other as one slice."""

    __slots__ = ("counts", "starts", "whole")

    def __init__(self, whole: Mapping[str, pa.Table], starts: Mapping[str, int], counts: Mapping[str, int]) -> None:
        self.whole, self.starts, self.counts = whole, starts, counts

    def __getitem__(self, table: str) -> pa.Table:
        return self.whole[table].slice(self.starts[table], self.counts[table])

    def __contains__(self, table: object) -> bool:
        return table in self.whole

    def __iter__(self) -> Iterator[str]:
        return iter(self.whole)

    def __len__(self) -> int:
        return len(self.whole)


def joined(
    parts: Sequence[Mapping[str, pa.Table]], table: str, *, ordered: Callable[[pa.Table], pa.Table] | None = None
) -> pa.Table | None:
    """The rows of ``table`` of every part in turn as one table in one chunk (None: no rows):
    consecutive :class:`Ranges` that continue one another in the same table are taken as
    one slice of it. ``ordered`` puts the rows in another order first (as slices: the one
    chunk is still the one copy)."""
    spans: list[tuple[pa.Table, int, int]] = []  # a table, and the rows start to stop of it
    for part in parts:
        if isinstance(part, Ranges):
            whole, start, count = part.whole.get(table), part.starts.get(table, 0), part.counts.get(table, 0)
        elif table in part:
            whole = part[table]
            start, count = 0, whole.num_rows
        else:
            continue
        if whole is None or not count:
            continue
        if spans and spans[-1][0] is whole and spans[-1][2] == start:
            spans[-1] = (whole, spans[-1][1], start + count)
        else:
            spans.append((whole, start, start + count))
    if not spans:
        return None
    rows = pa.concat_tables(whole.slice(start, stop - start) for whole, start, stop in spans)
    return (rows if ordered is None else ordered(rows)).combine_chunks()
