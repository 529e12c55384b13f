"""Small logs checked in worker processes while the loading process publishes.

Checking a log (decoding, the fast check, building its rows as Arrow columns) is Python,
one core's work per record; publishing is DuckDB's. With ``workers`` processes the small
logs of a run are checked in batches of about :data:`BATCH_BYTES` by the workers, in
order, and the loading process only hashes, publishes and decides each file's fate from
what the workers found (:func:`cuelog.ingest.load.ingest_paths`): the same decisions, in
the same order, from the same reads, so the results and the store are the same whatever
the number of workers (``tests/ingest/test_parallel.py``).

A large log (plain, or gzipped holding more than a small log) goes to a worker whole
(:func:`check_large`): it is given the fast check part by part as the loading process
would give it, and its rows are spooled batch by batch to files in a folder of the run's
own (:mod:`cuelog.ingest.spool`), so neither process holds more than a batch of them
whatever the log's size; the loading process publishes the log from there, as it
publishes a large log it read itself. A run of several day-logs is checked on as many
cores.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from cuelog.ingest.collector import collector_paused
from cuelog.ingest.processes import worker_pool
from cuelog.ingest.reading import FileRead, read_large, read_small
from cuelog.ingest.rows import GroupRows, Tables
from cuelog.ingest.spool import Spool, Spooled, folder
from cuelog.store.arrow import Ranges, packed, unpacked

T = TypeVar("T")

BATCH_BYTES = 1 << 20
"""A worker's batch of small logs, in bytes: enough records (some 4,000) that sending the
batch and its Arrow rows costs little beside checking it."""


@dataclass(frozen=True, slots=True)
class Checked:
    """A worker's batch: each log's read (its rows left out) with its rows' count by store
    table, and every clean log's rows as one Arrow table per store table, in log order."""

    reads: list[tuple[FileRead, dict[str, int]]]
    tables: Tables

    def __reduce__(self) -> tuple[Callable[..., Checked], tuple[Any, ...]]:
        # Sent back from a worker with its tables as Arrow IPC bytes: pickled table by
        # table, array by array, they cost the worker three times the CPU (benchmarks/README.md,
        # "Ingest: a worker's rows sent back as Arrow IPC").
        return _unpacked, (self.reads, packed(self.tables))


def _unpacked(reads: list[tuple[FileRead, dict[str, int]]], tables: dict[str, bytes]) -> Checked:
    return Checked(reads, unpacked(tables))


def check_batch(logs: list[tuple[str, bytes]]) -> Checked:
    """Read each small log (name, content) as the loading process would
    (:func:`cuelog.ingest.reading.read_small`): runs in a worker."""
    rows = GroupRows()  # Arrow columns every few logs, while their tuples are in the cache
    reads: list[tuple[FileRead, dict[str, int]]] = []
    with collector_paused():
        for name, data in logs:
            read = read_small(name, data, None)
            counts = read.batch.counts()
            rows.add(read.batch)  # which leaves the read's batch empty
            reads.append((read, counts))
        return Checked(reads, rows.whole())


def with_rows(checked: Checked) -> list[FileRead]:
    """Each read of a batch with its own rows: ranges of the batch's tables, sliced only if
    the file is published apart from the files beside it (:class:`Ranges`)."""
    start = dict.fromkeys(checked.tables, 0)
    out = []
    for read, counts in checked.reads:
        read.tables = Ranges(checked.tables, dict(start), counts)
        for table in checked.tables:
            start[table] += counts[table]
        out.append(read)
    return out


def check_large(name: str, stem: str, batch: int) -> Spooled | None:
    """Read a large log (or a large gzipped one) as the loading process would
    (:func:`cuelog.ingest.reading.read_large`), its rows spooled to files named from
    ``stem`` every ``batch`` records: runs in a worker. None when the fast check cannot
    call it clean (or cannot read it): the loading process then loads it itself, and the
    detailed check names every problem."""
    spool = Spool(stem)
    size = 0

    def counted(n: int) -> None:
        nonlocal size
        size += n // 2  # the progress callback counts each byte twice

    with collector_paused():
        try:
            read = read_large(name, counted, spool.write, batch)
            if read is not None:
                spool.write(read.batch)  # the last batch
            spool.close()
        except BaseException:
            spool.discard()
            raise
    if read is None:
        spool.discard()
        return None
    return Spooled(read, spool.files, size)


class Checker:
    """Worker processes that check batches of small logs, and large logs one by one."""

    def __init__(self, pool: ProcessPoolExecutor, spool: Path) -> None:
        self._pool = pool
        self._spool = spool
        self._named = itertools.count()

    def submit(self, logs: list[tuple[str, bytes]]) -> list[Future[Checked]]:
        """The logs (name, content) in batches of about :data:`BATCH_BYTES`, in order."""
        futures: list[Future[Checked]] = []
        batch: list[tuple[str, bytes]] = []
        held = 0
        for name, data in logs:
            batch.append((name, data))
            held += len(data)
            if held >= BATCH_BYTES:
                futures.append(self._submit(batch))
                batch, held = [], 0
        if batch:
            futures.append(self._submit(batch))
        return futures

    def _submit(self, batch: list[tuple[str, bytes]]) -> Future[Checked]:
        return _sent(self._pool, check_batch, batch)

    def submit_large(self, name: str, batch: int) -> Future[Spooled | None]:
        """A large log (plain or gzipped), its rows spooled every ``batch`` records."""
        stem = str(self._spool / f"log-{next(self._named)}")
        return _sent(self._pool, check_large, name, stem, batch)


def _sent(pool: ProcessPoolExecutor, fn: Callable[..., T], *args: Any) -> Future[T]:
    """``fn(*args)`` submitted to the pool; a future holding the error when a worker died
    before (the caller then reads those logs itself)."""
    try:
        return pool.submit(fn, *args)
    except BrokenProcessPool as exc:
        failed: Future[T] = Future()
        failed.set_exception(exc)
        return failed


@contextlib.contextmanager
def checker(workers: int, beside: Path | None = None) -> Iterator[Checker | None]:
    """``workers`` checking processes (None for one: the loading process checks), spooling
    large logs' rows in a folder of their own in ``beside`` (:func:`cuelog.ingest.spool.folder`)."""
    if workers <= 1:
        yield None
        return
    # Not forked from the loading process: it holds an open DuckDB connection. The spool folder
    # goes last, once every worker has stopped writing to it.
    with (
        folder(beside) as spool,
        worker_pool(check_batch, workers) as pool,
    ):
        yield Checker(pool, Path(spool))
