"""A generator run ahead of its caller by a thread of its own.

Worth it where the generator's work releases Python's lock (DuckDB reading and sorting,
DuckDB and Arrow pairing shot clocks): the replay reads the next matches this way
(:mod:`cuelog.pipeline`), and ``cuelog ingest`` pairs the clock logs while the stroke logs
load (:func:`cuelog.ingest.clock.pairing_ahead`).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Generator, Iterator
from typing import Generic, TypeVar, cast

T = TypeVar("T")


class ReadAhead(Generic[T]):
    """The items of a generator, produced by a thread of their own (named ``name``) up to
    ``depth`` items ahead of the caller, in order; an error in the thread is raised where
    its item was due. :meth:`close` stops and closes the generator (in its thread) and
    waits for it."""

    def __init__(self, source: Generator[T, None, None], depth: int, name: str) -> None:
        self._source = source
        self._queue: queue.Queue[tuple[str, object]] = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            for item in self._source:
                if not self._put(("item", item)):
                    break
            self._put(("end", None))
        except BaseException as exc:  # handed to the caller, raised there
            self._put(("error", exc))
        finally:
            self._source.close()

    def _put(self, message: tuple[str, object]) -> bool:
        """Queue a message unless the caller stopped reading; whether it was queued."""
        while not self._stop.is_set():
            try:
                self._queue.put(message, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def __iter__(self) -> Iterator[T]:
        while True:
            kind, value = self._queue.get()
            if kind == "end":
                return
            if kind == "error":
                assert isinstance(value, BaseException)
                raise value
            yield cast(T, value)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
