"""DuckDB settings held for a while and set back.

A setting is the database's, not the connection's: a command that changes one while it
works (DuckDB's memory limit while a replay streams, its threads while worker processes
run, the checkpoints' vacuum tasks while ingest loads) sets it back to what it was."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the connection is the caller's
    import duckdb

Value = int | str
"""A setting's value, as ``current_setting`` reads it back."""


class SettingHeld:
    """DuckDB's setting ``name`` held at ``value`` (or at what ``value`` makes of the
    current one) from entering until :meth:`release` or leaving, then set back to what it
    was. Leaving on an error that already broke the connection reports that error, not the
    failed restore."""

    def __init__(self, con: duckdb.DuckDBPyConnection, name: str, value: Value | Callable[[Value], Value]) -> None:
        self._con = con
        self._name = name
        self._value = value
        self._before: Value | None = None

    def __enter__(self) -> SettingHeld:
        before: Value = self._con.execute(f"SELECT current_setting('{self._name}')").fetchall()[0][0]
        held = self._value(before) if callable(self._value) else self._value
        self._con.execute(f"SET {self._name} = {_literal(held)}")
        self._before = before
        return self

    def release(self) -> None:
        """Set the setting back now (once; leaving does nothing more)."""
        before, self._before = self._before, None
        if before is not None:
            self._con.execute(f"SET {self._name} = {_literal(before)}")

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.release()
            return
        with contextlib.suppress(Exception):  # the error being raised is the one to report
            self.release()


def _literal(value: Value) -> str:
    return str(int(value)) if isinstance(value, int) else "'" + value.replace("'", "''") + "'"


def threads_held(con: duckdb.DuckDBPyConnection, threads: int) -> SettingHeld:
    """DuckDB's threads held at ``threads`` (at least one).

    ``replay --db``, ``ingest`` and ``diff`` hold them at the cores their worker processes
    leave (:func:`cuelog.ingest.cores.cores_left`) while the workers run: on cores the workers
    fill, DuckDB's other threads only take turns with them, and its reads, inserts and
    checkpoints cost more CPU run in parallel than on the thread that asks for them
    (measured: the checkpoint of 1M stroke rows 0.24 CPU s on one thread against 0.46 on
    two; benchmarks/README.md, "DuckDB's threads left to the workers")."""
    return SettingHeld(con, "threads", max(1, int(threads)))
