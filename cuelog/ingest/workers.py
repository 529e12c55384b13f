"""How many processes check the logs of a run: a module of its own, light to import, so
that ``cuelog ingest --help`` (whose help names these figures) imports neither DuckDB nor
pyarrow (:mod:`cuelog.ingest.parallel` runs the workers)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from cuelog.ingest.clean import FAST_CHECK_BYTES
from cuelog.ingest.cores import idle_workers
from cuelog.ingest.reader import gz_size

PARALLEL_BYTES = 48 << 20
"""Logs below this size in all (a gzipped log counts what it holds) are checked by the
loading process alone: starting the workers (each imports cuelog's ingest) costs more than
they save on less (measured: benchmarks/README.md, "Ingest with workers")."""

PARALLEL_LARGE_LOGS = 3
"""Or this many large logs (each more than :data:`cuelog.ingest.clean.FAST_CHECK_BYTES`,
a second or more of a worker's work): three day-logs of 11 MB loaded in 0.81x the time
with two workers, two in 0.88x (0.81-1.11) (benchmarks/README.md, "Large logs: rows
spooled to disk, and read by the workers")."""


def default_workers(
    files: Sequence[Path],
    cores: int | None = None,
    load: float | None = None,
    *,
    parallel_bytes: int | None = None,
    large_logs: bool = True,
) -> int:
    """The number of processes when none is asked for: one (this process itself) without
    two idle cores or for less than ``parallel_bytes`` of logs (ingest's
    :data:`PARALLEL_BYTES` unless given) and, with ``large_logs``, fewer than
    :data:`PARALLEL_LARGE_LOGS` large ones; else one worker per idle core (a worker on a
    core other work holds only adds its start-up and the copying to and from it).
    ``cuelog validate`` and ``cuelog replay LOGS`` give their own size and count large
    logs by their bytes only. :func:`workers_for` decides so, and starts the workers'
    server as it does."""
    with workers_for(
        files, None, None, cores=cores, load=load, parallel_bytes=parallel_bytes, large_logs=large_logs
    ) as n:
        return n


def worth_workers(files: Sequence[Path], *, parallel_bytes: int | None = None, large_logs: bool = True) -> bool:
    """Whether the logs are enough for workers, should the cores be idle (:func:`default_workers`)."""
    enough = PARALLEL_BYTES if parallel_bytes is None else parallel_bytes
    total = large = 0
    for path in files:
        size = held_bytes(path)
        total += size
        large += size > FAST_CHECK_BYTES
        if total >= enough or (large_logs and large >= PARALLEL_LARGE_LOGS):
            return True
    return False


@contextlib.contextmanager
def workers_for(
    files: Sequence[Path],
    asked: int | None,
    module: str | None,
    *,
    cores: int | None = None,
    load: float | None = None,
    parallel_bytes: int | None = None,
    large_logs: bool = True,
) -> Iterator[int]:
    """The processes for a run over ``files``: ``asked``, else :func:`default_workers`'s
    number (``cores`` and ``load`` as :func:`cuelog.ingest.cores.idle_workers` takes them).
    When the run may use workers, the workers' server, which imports ``module`` (the pool's;
    ``None``: no server), is started before the cores are watched and kept for the block
    (:func:`cuelog.ingest.processes.server_started`)."""
    from cuelog.ingest.processes import server_started  # multiprocessing: not for --help

    if asked is None and not worth_workers(files, parallel_bytes=parallel_bytes, large_logs=large_logs):
        yield 1  # decided without watching the cores
        return
    with server_started(module if asked is None or asked > 1 else None):
        yield idle_workers(cores, load) if asked is None else asked


def held_bytes(path: Path) -> int:
    """What a log holds, in bytes: its size, or for a gzipped one the size it records."""
    try:
        size = path.stat().st_size
    except OSError:
        return 0
    return (gz_size(path) or size) if path.suffix == ".gz" else size
