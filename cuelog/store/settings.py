"""DuckDB settings held for a while and set back."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the connection is the caller's
    import duckdb


class ThreadsHeld:
    """DuckDB's threads held at ``threads`` from entering until :meth:`release` (or leaving),
    then set back to what they were.

    ``replay --db``, ``ingest`` and ``diff`` hold them at the cores their worker processes
    leave (:func:`cuelog.ingest.cores.cores_left`) while the workers run: on cores the workers
    fill, DuckDB's other threads only take turns with them, and its reads, inserts and
    checkpoints cost more CPU run in parallel than on the thread that asks for them
    (measured: the checkpoint of 1M stroke rows 0.24 CPU s on one thread against 0.46 on
    two; benchmarks/README.md, "DuckDB's threads left to the workers")."""

    def __init__(self, con: duckdb.DuckDBPyConnection, threads: int) -> None:
        self._con = con
        self._threads = max(1, int(threads))
        self._before: int | None = None

    def __enter__(self) -> ThreadsHeld:
        self._before = int(self._con.execute("SELECT current_setting('threads')").fetchall()[0][0])
        self._con.execute(f"SET threads = {self._threads}")
        return self

    def release(self) -> None:
        """Set the threads back now (once; leaving does nothing more)."""
        before, self._before = self._before, None
        if before is not None:
            self._con.execute(f"SET threads = {before}")

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.release()
            return
        with contextlib.suppress(Exception):  # the error being raised is the one to report
            self.release()
