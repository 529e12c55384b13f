"""Parts of a run's work done by worker processes, the results taken in order.

``cuelog validate`` and ``cuelog replay LOGS`` hand their files to workers a part (a few
files, about a megabyte) at a time: each worker reads its own files, so no record crosses
between processes, and the parent takes the parts' results in the order of the files,
whichever worker ends first, so what it reports is what one process reading the files in
turn would report. Light to import: no DuckDB, no pyarrow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final, TypeVar

from cuelog.ingest.processes import ordered
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
    for _, done in ordered(work, todo, min(workers, len(todo)), ahead=2):
        yield done
