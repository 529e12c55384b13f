"""A large log's rows spooled to disk while it is read, and published from there.

A log too large to hold whole (more than :data:`cuelog.ingest.load.ON_ITS_OWN_BYTES`,
gzipped or not) is read a batch at a time (:data:`cuelog.ingest.reading.BATCH` records),
and each batch's rows are appended to an Arrow IPC stream file per store table
(:class:`Spool`) in a temporary folder beside the database (:func:`folder`), so memory
holds one batch whatever the log's size. Only a log that checked clean to its end is
published: one transaction inserts each table's rows straight from its file (DuckDB scans
the stream), with the log's ``matches`` rows and its ``ingest_log`` entry, so it is loaded
completely or not at all; the files are removed whatever happens.

The rows used to be inserted into staging tables of the store as they came, outside any
transaction, then copied into the store tables: every row written three times (the
staging table, the copy, the checkpoint) and the database file left with the staging
tables' free blocks. From the spool: 2.3x faster to publish at 257k records and 3.5x at
1M, the database half the size, peak memory no higher (docs/validation-benchmark.md,
"Large logs: rows spooled to disk instead of staged").
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from cuelog.errors import CuelogError
from cuelog.ingest.reading import FileRead
from cuelog.ingest.rows import Rows
from cuelog.store.loads import ROW_SCHEMAS


def folder(beside: Path | None) -> tempfile.TemporaryDirectory[str]:
    """A folder of its own for a run's spool files, in ``beside`` (the database's folder:
    the rows are bound for that disk anyway, where a system temporary folder may be small
    or held in memory); in the system's temporary folder for a database in memory."""
    return tempfile.TemporaryDirectory(prefix=".cuelog-spool-", dir=beside)


class SpoolFailed(CuelogError):
    """The rows could not be written to the spool (the disk full, say)."""


class Spool:
    """Arrow IPC stream files, one per store table, that a log's rows are appended to, a
    batch at a time (named ``<stem>.<table>.arrows``)."""

    def __init__(self, stem: str | Path) -> None:
        self._stem = str(stem)
        self._writers: dict[str, pa.ipc.RecordBatchStreamWriter] = {}
        self.files: dict[str, str] = {}

    def write(self, rows: Rows) -> None:
        """Append the rows (which are cleared). Raises SpoolFailed, not OSError: a reader
        takes an OSError for the log's own."""
        try:
            for table, data in rows.arrow().items():
                if not data.num_rows:
                    continue
                if table not in self._writers:
                    self.files[table] = f"{self._stem}.{table}.arrows"
                    self._writers[table] = pa.ipc.new_stream(self.files[table], ROW_SCHEMAS[table])
                self._writers[table].write_table(data)
        except OSError as exc:
            raise SpoolFailed(f"cannot write the rows to {self._stem}: {exc}") from exc

    def close(self) -> None:
        """Finish the files (they stay, for :func:`readers`)."""
        writers, self._writers = self._writers, {}
        try:
            for writer in writers.values():
                writer.close()
        except OSError as exc:
            raise SpoolFailed(f"cannot write the rows to {self._stem}: {exc}") from exc

    def discard(self) -> None:
        """Close and remove every file: nothing written so far is kept."""
        with contextlib.suppress(SpoolFailed):
            self.close()
        remove(self.files)
        self.files = {}


@dataclass(frozen=True, slots=True)
class Spooled:
    """A log read clean to its end: its read (no rows held), the spool file of each store
    table its rows were written to, and its size as read (decompressed), for the progress
    bar."""

    read: FileRead
    files: dict[str, str]
    size: int

    def remove(self) -> None:
        remove(self.files)


@contextlib.contextmanager
def readers(files: dict[str, str]) -> Iterator[dict[str, pa.RecordBatchReader]]:
    """A reader streaming each table's rows from its spool file (a batch in memory at a time)."""
    with contextlib.ExitStack() as stack:
        yield {
            table: stack.enter_context(pa.ipc.open_stream(stack.enter_context(pa.OSFile(name))))
            for table, name in sorted(files.items())
        }


def remove(files: dict[str, str]) -> None:
    for name in files.values():
        with contextlib.suppress(OSError):
            Path(name).unlink()
