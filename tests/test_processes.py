"""Work handed to worker processes comes back in the order it was given, and a run that
stops early stops its workers' queue (``cuelog.ingest.processes.ordered``: every pool of
cuelog's commands takes its results this way)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

from cuelog.ingest.processes import ordered


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
