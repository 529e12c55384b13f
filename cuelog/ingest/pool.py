"""Parts of a run's work done by worker processes, the results taken in order.

``cuelog validate`` and ``cuelog replay LOGS`` hand their files to workers a part (a few
files, about a megabyte) at a time: each worker reads its own files, so no record crosses
between processes, and the parent takes the parts' results in the order of the files,
whichever worker ends first, so what it reports is what one process reading the files in
turn would report. Light to import: no DuckDB, no pyarrow.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Final, TypeVar

from cuelog.ingest.processes import worker_context
from cuelog.ingest.workers import held_bytes

T = TypeVar("T")

PART_BYTES: Final = 1 << 20
"""Files are handed to a worker in parts of about this many bytes (a larger file alone):
enough that a part's start and its results cost little beside its work, small enough that
the workers share the files evenly."""


def parts(files: Sequence[Path], size: int = PART_BYTES) -> list[list[str]]:
    """The files in order, in parts of about ``size`` bytes each (a gzipped log counts what it holds)."""
    out: list[list[str]] = []
    current: list[str] = []
    held = 0
    for path in files:
        current.append(str(path))
        held += held_bytes(path)
        if held >= size:
            out.append(current)
            current, held = [], 0
    if current:
        out.append(current)
    return out


def in_order(work: Callable[[list[str]], T], todo: list[list[str]], workers: int) -> Iterator[T]:
    """``work`` of each part, in order: in this process with one worker (or one part), else
    in ``workers`` worker processes (``work`` must be a module-level function), at most
    two parts a worker in flight. A caller that stops early does not wait for the parts
    queued after."""
    if workers <= 1 or len(todo) <= 1:
        for names in todo:
            yield work(names)
        return
    # Not forked from this process: it may hold rich consoles, open files, a DuckDB connection.
    pool = ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=worker_context(work))
    try:
        pending: collections.deque[Future[T]] = collections.deque()
        for names in todo:
            pending.append(pool.submit(work, names))
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
