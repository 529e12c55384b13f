"""Work handed to worker processes comes back in the order it was given, a run that stops
early stops its workers' queue (``cuelog.ingest.processes.ordered``: every pool of
cuelog's commands takes its results this way), the workers' CPU time is the caller's
(``worker_pool``), and a worker keeps the memory it frees for its next task."""

from __future__ import annotations

import resource
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cuelog.ingest.processes import on_glibc, ordered
from tests.conftest import ROOT


def _late_first(i: int) -> int:
    time.sleep(0.05 if i % 2 == 0 else 0.0)  # the even items end after the odd ones
    return i * i


def _marked(path: str) -> str:
    Path(path).touch()
    return path


def test_results_come_in_the_items_order_whichever_worker_ends_first() -> None:
    got = list(ordered(_late_first, range(12), 2, ahead=2))
    assert got == [(i, i * i) for i in range(12)]


def test_one_worker_does_the_work_in_this_process() -> None:
    assert list(ordered(_late_first, [3, 1], 1, ahead=2)) == [(3, 9), (1, 1)]


def test_items_are_read_only_as_far_ahead_as_the_work_in_flight(tmp_path: Path) -> None:
    read: list[int] = []

    def items() -> Iterator[str]:
        for i in range(50):
            read.append(i)
            yield str(tmp_path / f"item-{i}")

    results = ordered(_marked, items(), 2, ahead=2)
    first = next(results)
    assert first[0] == str(tmp_path / "item-0")
    assert len(read) <= 2 * 2  # two workers, two items each in flight
    results.close()  # the caller stops: nothing queued after is started
    assert len(list(tmp_path.iterdir())) <= 2 * 2


def _burn(seconds: float) -> float:
    """Use ``seconds`` of this process's CPU time."""
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass
    return time.process_time() - start


def in_a_fresh_process(code: str) -> str:
    """Run ``code`` (which may use this module's functions) in a fresh interpreter, with a
    bound: a pool that waits for a server stopped under it would otherwise hang the suite."""
    script = "from cuelog.ingest.processes import worker_pool\n"
    script += "from tests.test_processes import _burn, children_cpu\n"
    script += f"if __name__ == '__main__':\n{textwrap.indent(textwrap.dedent(code), '    ')}"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def children_cpu() -> float:
    """CPU seconds of this process's children that ended and were waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def test_the_workers_cpu_counts_as_the_callers_once_the_pool_is_done() -> None:
    """What ``time cuelog ...`` (or any parent) is told: the workers' CPU time is the
    command's, as it was when the command spawned them itself; so the fork server they came
    from is stopped and waited for with the pool, and nothing outlives it."""
    out = in_a_fresh_process(
        """
        before = children_cpu()
        with worker_pool(_burn, 2) as pool:
            used = sum(pool.map(_burn, [0.3, 0.3]))
        print(used, children_cpu() - before)
        """
    )
    used, counted = map(float, out.split())
    assert used >= 0.6
    assert counted >= used


def test_a_pool_left_while_another_runs_leaves_it_its_workers() -> None:
    """One fork server serves every pool of a process; the first pool left (say, a
    replay's generator closed late) must not stop it under another pool's running work."""
    out = in_a_fresh_process(
        """
        before = children_cpu()
        first, second = worker_pool(_burn, 1), worker_pool(_burn, 1)
        first.__enter__().submit(_burn, 0.01).result()
        running = second.__enter__().submit(_burn, 0.4)
        first.__exit__(None, None, None)  # left while the second pool still works
        used = running.result()
        second.__exit__(None, None, None)
        print(used, children_cpu() - before)
        """
    )
    used, counted = map(float, out.split())
    assert used >= 0.4
    assert counted >= used


_BLOCKS = 32
"""Blocks of 1 MiB allocated and freed by :func:`_refaults`: above glibc's own trim
threshold for them (2 MiB), within :data:`cuelog.ingest.processes.KEPT_HEAP`."""


def _refaults() -> int:
    """Page faults taken by allocating and freeing :data:`_BLOCKS` blocks of 1 MiB, after doing
    it twice: none when the freed memory was kept, every page when it was handed back."""

    def allocate_and_free() -> None:
        blocks = [b"x" * (1 << 20) for _ in range(_BLOCKS)]  # written, so every page is touched
        del blocks

    allocate_and_free()
    allocate_and_free()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    allocate_and_free()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


@pytest.mark.skipif(not on_glibc(), reason="the heap's trim threshold is glibc's")
def test_a_worker_keeps_the_memory_it_frees_for_its_next_task() -> None:
    """A worker's task frees its batch when the result is sent; the next batch takes the same
    memory again. Handed back to the system in between, each page is faulted in again (the
    calling process, whose heap is left as glibc sets it, shows it)."""
    out = in_a_fresh_process(
        """
        from tests.test_processes import _refaults
        with worker_pool(_refaults, 1) as pool:
            kept = pool.submit(_refaults).result()
        print(_refaults(), kept)
        """
    )
    handed_back, kept = map(int, out.split())
    pages = _BLOCKS * (1 << 20) // resource.getpagesize()
    assert handed_back > pages // 2
    assert kept < pages // 10
