"""How cuelog starts its worker processes: forked from a server that has imported their
module once, where the platform has one; spawned elsewhere.

Every pool of workers (ingest's checks, validate's and ``replay LOGS``'s parts,
``replay --db``'s chunks, the rule makers' diff, the simulator's matches) runs
module-level functions. A spawned worker is a fresh interpreter that imports its
function's module (msgspec, pyarrow, the engines) before its first task: about a third of
a CPU second, paid again by every worker. A fork server is one such interpreter, started
by the first pool that needs it: it imports the module once, and each worker is forked
from it, with those imports already done.

Not ``fork`` from the calling process itself: that process holds a DuckDB connection (and
its threads) and rich consoles, which a child must not inherit. The server is a fresh
interpreter holding neither; the only other threads it may hold are those native libraries
start as they load (pyarrow's jemalloc purger, numpy's OpenBLAS pool), which register fork
handlers of their own, as the fork start method has always relied on (Python 3.12 and later
note such a fork with a DeprecationWarning, which their default filters do not show).

A worker still receives the caller's ``sys.path`` and working directory, and imports the
calling script as ``__mp_main__``, as a spawned one does (:mod:`multiprocessing.spawn`
prepares both kinds), so what a worker computes does not depend on how it was started
(``tests/test_worker_startup.py``). The server itself is started with the caller's import
path too (:func:`_server_environment`): the modules it imports are the workers' code.

The server lives as long as the pools that use it (:func:`worker_pool`), or from earlier
when a command starts it before it opens its store (:func:`server_started`): when the last
is done the server is stopped and waited for, so that the command's CPU time and peak
memory, as the operating system accounts them to whoever runs it, include its workers'
(as they did when the command spawned them itself), and nothing outlives the command.

Whatever a pool's work, its results are taken in the order of its items, a bounded number
in flight (:func:`ordered`), so that what a run reports and stores is what one process
would give, whichever worker ends first.

A worker keeps the heap memory it frees for its next task (:func:`keep_freed_memory`): a
task's memory is freed when its result is sent, and handing it back to the system only to
take it again, page by page, for the next task was most of a worker's system time.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import forkserver
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def worker_context(work: Callable[..., Any]) -> BaseContext:
    """The context for a pool whose workers run ``work`` (a module-level function, or a
    :func:`functools.partial` of one): a fork server that imports its module before the
    first worker is forked, where the platform has one (Linux, macOS); spawn elsewhere
    (Windows)."""
    return _context_importing(getattr(work, "func", work).__module__)


def _context_importing(module: str) -> BaseContext:
    """A fork server's context whose server imports ``module`` before the first worker is
    forked, where the platform has one; spawn elsewhere."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # Read when a server starts: the module of the pool that starts it is preloaded.
    context.set_forkserver_preload([module])
    return context


_server_lock = threading.Lock()
_server_pools = 0
"""The pools of this process whose workers the fork server forks, and the commands' blocks
holding it started ahead of them (:func:`server_started`): one server serves them all."""


@contextlib.contextmanager
def worker_pool(work: Callable[..., Any], workers: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` processes for ``work`` (:func:`worker_context`). On leaving,
    the tasks not yet started are cancelled and the running ones finished; the last pool of
    the process to leave stops the fork server and waits for it (a pool left while another
    still runs, say a generator closed late, leaves the server to that one)."""
    context = worker_context(work)
    with _server_held(context):
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=keep_freed_memory)
        try:
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def server_started(module: str | None) -> Iterator[None]:
    """The fork server started now, importing ``module`` (that of the pool to come), and
    kept until the block ends; ``None``, or where workers are spawned: nothing.

    A command that may want workers starts it before it opens its store: the server's
    interpreter starts and imports the workers' modules (about a quarter of a second) on
    another core while the command imports its own, opens the store and watches the cores,
    instead of after them. A pool in the block uses it (a pool of another module too: its
    workers import their module themselves). If the command then runs in one process, the
    server is stopped with the block, unused, without waiting for its imports
    (benchmarks/README.md, "The workers' server started while the command opens its store")."""
    if module is None:
        yield
        return
    with _server_held(_context_importing(module)):  # spawning workers: nothing held
        yield


@contextlib.contextmanager
def _server_held(context: BaseContext) -> Iterator[None]:
    """The fork server running while the block runs, when ``context`` forks from one: the
    last block of the process to leave stops it."""
    global _server_pools
    if context.get_start_method() != "forkserver":
        yield
        return
    with _server_lock:
        _server_pools += 1
        with _server_environment():
            forkserver.ensure_running()
    try:
        yield
    finally:
        with _server_lock:
            _server_pools -= 1
            if not _server_pools:
                _stop_server()


KEPT_HEAP = 64 << 20
"""Freed memory at the top of a worker's heap that glibc keeps instead of handing it back to
the system (its trim threshold; by default twice the largest block it has mapped on its
own, a few MB here). A batch of logs and its rows are allocated and freed again for each
task: handed back, every page of them was faulted in again by the next batch (an ingest
worker at 1M records: 300,000 page faults and 0.9 CPU s of system time, against 30,000 and
0.2 s with this; benchmarks/README.md, "Ingest workers keep the memory they free")."""

MAPPED_ALONE = 32 << 20
"""Allocations from this size on get memory mapped for them alone (glibc's mmap threshold,
set to the ceiling its own adjustment reaches): setting the trim threshold turns that
adjustment off, which would otherwise leave every block over 128 kB mapped and unmapped
on its own, faulted in again each time."""

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
"""``mallopt``'s parameters, as glibc's malloc.h numbers them."""


def on_glibc() -> bool:
    """Whether this process's C library is glibc (whose ``mallopt`` :func:`keep_freed_memory` sets)."""
    try:
        version = os.confstr("CS_GNU_LIBC_VERSION")
    except (AttributeError, ValueError, OSError):
        return False
    return version is not None and version.startswith("glibc")


def keep_freed_memory() -> bool:
    """Have this process's C heap keep what it frees for later (:data:`KEPT_HEAP`,
    :data:`MAPPED_ALONE`): each worker runs it as it starts. Only with glibc (elsewhere
    ``mallopt`` is missing or means other things): whether it was set. The memory a worker
    peaks at is unchanged; it keeps that much until it ends instead of handing it back."""
    if not on_glibc():
        return False
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is None:
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MAPPED_ALONE)) and bool(mallopt(_M_TRIM_THRESHOLD, KEPT_HEAP))


@contextlib.contextmanager
def _server_environment() -> Iterator[None]:
    """The environment the fork server starts in: this process's import path, and no
    current directory put first.

    The server is started as ``python -c``, so its path begins with the directory the
    command runs in, and before Python 3.12.8 and 3.13.1 it ignores the path it is sent
    (CPython gh-117378): the modules it imports for the workers were looked for there
    first. Run from a directory holding a ``cuelog`` package (a checkout beside an
    installed or compiled cuelog) the workers replayed with that code while the command
    used its own; a ``msgspec.py`` there would have been the workers' msgspec. Only the
    server's start sees this environment: the command's own is put back at once."""
    path = os.pathsep.join(os.path.abspath(entry) for entry in sys.path)  # "" is the working directory
    saved = {name: os.environ.get(name) for name in ("PYTHONPATH", "PYTHONSAFEPATH")}
    os.environ["PYTHONPATH"] = path
    os.environ["PYTHONSAFEPATH"] = "1"  # Python 3.11 and later: no directory of its own first
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _stop_server() -> None:
    # multiprocessing has no public call for this: its own tests stop the server the same
    # way. Where a Python lacks it, the server still exits with this process, unaccounted.
    server = getattr(forkserver, "_forkserver", None)
    stop = getattr(server, "_stop", None)
    if stop is None:
        return
    # The server notices it is to stop only once it has imported its modules: one started
    # for a command that then ran in one process would hold the command up until then.
    # No pool is left to fork from it, so it is ended at once.
    pid = getattr(server, "_forkserver_pid", None)
    if isinstance(pid, int):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    stop()


def ordered(work: Callable[[T], R], items: Iterable[T], workers: int, *, ahead: int) -> Iterator[tuple[T, R]]:
    """Each item with what ``work`` made of it, in the items' order whichever worker ends
    first: in this process with one worker, else in ``workers`` worker processes (``work``
    a module-level function, or a :func:`functools.partial` of one), at most ``ahead``
    items a worker in flight, so that the items are read only that far ahead of the
    results (each in flight is held until its result is taken).

    A caller that stops early (an error, a result it refuses) leaves the items queued
    after it unstarted: the pool's queue is cancelled and only the running ones finish."""
    if workers <= 1:
        for item in items:
            yield item, work(item)
        return
    with worker_pool(work, workers) as pool:
        pending: collections.deque[tuple[T, Future[R]]] = collections.deque()
        for item in items:
            pending.append((item, pool.submit(work, item)))
            if len(pending) >= ahead * workers:
                first, future = pending.popleft()
                yield first, future.result()
        while pending:
            first, future = pending.popleft()
            yield first, future.result()
