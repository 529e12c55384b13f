"""Load cuelog/1 logs into the DuckDB store, one file per transaction.

A file is read once: each line is decoded and checked (:mod:`cuelog.ingest.validate`) and
its rows batched; a large file's full batches are spooled to disk
(:mod:`cuelog.ingest.spool`). Only a file that checks clean to its end is published, in
one transaction, so a file is either loaded completely or not at all, and after a
rejected file the database is exactly as before. Memory stays flat whatever the file
size: one batch of rows (:data:`cuelog.ingest.reading.BATCH` records) is held at a time
(see ``docs/validation-benchmark.md`` for the measurements).

Loading is idempotent: ``ingest_log`` keeps the sha256 of every loaded file's content
(decompressed for ``.gz``), and the same bytes are never loaded twice. A different file
that claims a match id already in the store is refused (``match_exists``) unless
``replace`` is set, which swaps that match's rows for the new ones in the same
transaction.
"""

from __future__ import annotations

import collections
import contextlib
import gzip
import hashlib
import os
import stat
import zlib
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from cuelog.errors import Problem
from cuelog.ingest import parallel, reading, spool
from cuelog.ingest.clean import FAST_CHECK_BYTES
from cuelog.ingest.collector import collector_paused
from cuelog.ingest.cores import cores_left
from cuelog.ingest.reader import gz_size, log_files, open_log
from cuelog.ingest.reading import FileRead, Progress, read_large, read_log, read_small
from cuelog.ingest.rows import GROUP_RECORDS, GroupRows, Rows, Tables
from cuelog.ingest.spool import Spool, Spooled, SpoolFailed
from cuelog.schemas.records import Match
from cuelog.store import loads
from cuelog.store.settings import threads_held


@dataclass(frozen=True, slots=True)
class FileResult:
    """What happened to one file: ``loaded``, ``unchanged`` (same bytes loaded before) or ``rejected``."""

    path: str
    file_hash: str | None
    status: str
    matches: list[str]
    records: int
    problems: list[Problem]

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "hash": self.file_hash,
            "status": self.status,
            "matches": self.matches,
            "records": self.records,
            "problems": [p.to_dict() for p in self.problems],
        }


def content_hash(path: str | os.PathLike[str]) -> str | None:
    """sha256 of a file's content (decompressed for .gz); None when it cannot be read."""
    digest = hashlib.sha256()
    try:
        with open_log(path) as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
    except (OSError, EOFError, zlib.error):
        return None
    return digest.hexdigest()


def match_conflicts(
    con: duckdb.DuckDBPyConnection, file: str, claims: list[tuple[int, Match]], file_hash: str, replace: bool
) -> list[Problem]:
    """A Problem for each match of ``claims`` (line, match) whose id another file holds, unless ``replace``.

    One query for the whole file: a statement costs milliseconds, a file holds many matches.
    """
    if not claims or replace:
        return []
    return _conflicts(file, claims, file_hash, loads.held_matches(con, [m.match for _, m in claims]))


def _conflicts(
    file: str, claims: list[tuple[int, Match]], file_hash: str, held: dict[str, tuple[str, str | None]]
) -> list[Problem]:
    """The claims of a file on match ids that another file (``held``: id -> hash, path) loaded."""
    problems = []
    for line, match in claims:
        if match.match not in held or held[match.match][0] == file_hash:
            continue
        held_by, path = held[match.match]
        source = f"{path} (sha256 {held_by[:12]})" if path is not None else f"sha256 {held_by[:12]}"
        problems.append(
            Problem(
                file,
                line,
                "match",
                "match_exists",
                f"{match.match!r} already loaded from {source}",
                "a new match id, or --replace to replace the loaded match",
            )
        )
    return problems


def ingest_file(
    con: duckdb.DuckDBPyConnection,
    path: str | os.PathLike[str],
    *,
    replace: bool = False,
    progress: Progress | None = None,
) -> FileResult:
    """Check and load one log file atomically. Never raises for bad input: see ``problems``.

    One pass over the file: each line is decoded once, checked, and its rows added to the
    current batch. Full batches are spooled to files on disk (:mod:`cuelog.ingest.spool`),
    so memory stays flat whatever the file's size. At the first problem nothing more is
    kept, but every line is still checked, so that every problem is reported. Only a file
    that has checked clean to its end is published (:func:`publish_read`): one transaction
    replaces any match being replaced, inserts the spooled rows and the last batch into
    the store tables and records the file in ``ingest_log``; a rejected or interrupted
    load leaves the store tables exactly as they were. A file of at most
    :data:`cuelog.ingest.reading.BATCH` records is not spooled at all.
    """
    name = str(path)
    file_hash = content_hash(path)
    if file_hash is not None:
        seen = loads.loaded_file(con, file_hash)
        if seen is not None:
            if progress is not None:
                progress(2 * _size(path))  # the bar counts every byte twice: checked, then loaded
            return FileResult(name, file_hash, "unchanged", seen[0], seen[1], [])
    with collector_paused(), spool.folder(loads.database_folder(con)) as folder:
        to_disk = Spool(Path(folder) / "log")
        try:
            # The fast check first, part by part; a log it cannot call clean is read again by
            # the detailed check, which names every problem (the rows spooled so far dropped,
            # and the bytes the bar has counted not counted twice).
            counted = _Counted(progress)
            read = read_large(path, counted, to_disk.write) if file_hash is not None else None
            if read is None:
                to_disk.discard()
                read = read_log(path, file_hash is not None, counted.after(), to_disk.write)
            if to_disk.files:
                to_disk.write(read.batch)  # the last batch beside the others
            to_disk.close()
        except SpoolFailed as exc:
            to_disk.discard()
            problem = Problem(name, 0, "", "load_failed", str(exc), "room for the rows beside the database")
            return FileResult(name, file_hash, "rejected", [], 0, [problem])
        try:
            if file_hash is None:  # unreadable
                problems = read.problems or [
                    Problem(name, 0, "", "unreadable", "cannot read the file", "a readable file")
                ]
                return FileResult(name, file_hash, "rejected", [], 0, sorted(problems, key=_line))
            return publish_read(con, name, file_hash, read, to_disk.files, replace=replace)
        finally:
            to_disk.discard()


def publish_read(
    con: duckdb.DuckDBPyConnection,
    name: str,
    file_hash: str,
    read: FileRead,
    spooled: dict[str, str],
    *,
    replace: bool = False,
) -> FileResult:
    """Load a log read to its end (by this process or a worker), its rows in the ``spooled``
    files by store table (or, with none, in its read's batch), unless it had problems or
    claims a match another file holds: the file's result."""
    problems = read.problems + match_conflicts(con, name, read.claims, file_hash, replace)
    if problems:
        return FileResult(name, file_hash, "rejected", [], 0, sorted(problems, key=_line))
    try:
        with spool.readers(spooled) as readers:
            rows = readers if spooled else read.batch.arrow()
            loads.publish(con, name, file_hash, read.matches, read.records, rows)
    except duckdb.Error as exc:
        return _load_failed(name, file_hash, exc)
    return FileResult(name, file_hash, "loaded", [m.match for m, _ in read.matches], read.records, [])


class _Counted:
    """A progress callback that remembers how much it was given, so that a second pass over
    the same bytes can skip what the first one counted."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.given = 0

    def __call__(self, n: int) -> None:
        self.given += n
        if self.progress is not None:
            self.progress(n)

    def after(self) -> Progress | None:
        """The callback for a second pass: silent until it has passed what this one gave."""
        if self.progress is None:
            return None
        progress, skip = self.progress, self.given

        def counted(n: int) -> None:
            nonlocal skip
            shown = max(0, n - skip)
            skip = max(0, skip - n)
            if shown:
                progress(shown)

        return counted


def _load_failed(name: str, file_hash: str | None, exc: duckdb.Error) -> FileResult:
    problem = Problem(name, 0, "", "load_failed", str(exc).splitlines()[0], "a file the store accepts")
    return FileResult(name, file_hash, "rejected", [], 0, [problem])


def _size(path: str | os.PathLike[str]) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


GROUP_FILES = 2048
"""Files published in one transaction at most (a group also holds at most
:data:`cuelog.ingest.rows.GROUP_RECORDS` records)."""

ON_ITS_OWN_BYTES = FAST_CHECK_BYTES
"""A file larger than this (a gzipped one: holding more) is loaded on its own, its rows
spooled to disk, so memory stays flat whatever its size."""


@dataclass(frozen=True, slots=True)
class _Checked:
    """A checked file waiting in a group: its position in the run, its name, content hash,
    match records (with their text), record count, and its claims on match ids."""

    i: int
    name: str
    file_hash: str
    matches: list[tuple[Match, str]]
    records: int
    claims: list[tuple[int, Match]]


@dataclass(slots=True)
class _Group:
    """Checked files waiting to be published together, and their rows."""

    files: list[_Checked] = field(default_factory=list)
    rows: GroupRows = field(default_factory=GroupRows)
    records: int = 0
    hashes: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)

    def add(self, checked: _Checked, rows: Rows | Tables) -> None:
        self.files.append(checked)
        if isinstance(rows, Rows):
            self.rows.add(rows)
        else:
            self.rows.add_tables(rows)
        self.records += checked.records
        self.hashes.add(checked.file_hash)
        self.ids.update(m.match for _, m in checked.claims)

    def full(self, records: int, claims: list[tuple[int, Match]]) -> bool:
        """Is the group to be published before a file of ``records`` records with these
        claims joins it: it holds as many files as a group may, the file's records would
        take it past :data:`GROUP_RECORDS`, or the file would put a second claim on a match
        in it (the second must see the first as loaded)?"""
        return bool(self.files) and (
            len(self.files) >= GROUP_FILES
            or self.records + records > GROUP_RECORDS
            or any(m.match in self.ids for _, m in claims)
        )

    def file_rows(self) -> list[tuple[int, loads.FileRows, list[tuple[int, Match]]]]:
        """Each file's position in the run, rows ready to publish, and claims."""
        return [
            (f.i, loads.FileRows(f.name, f.file_hash, f.matches, f.records, tables), f.claims)
            for f, tables in zip(self.files, self.rows.tables(), strict=True)
        ]


def _publish_group(con: duckdb.DuckDBPyConnection, group: _Group, replace: bool) -> list[tuple[int, FileResult]]:
    """Refuse the group's files that claim a match another file holds (one query for the
    group), publish the others in one transaction, and if that fails, file by file."""
    ids = sorted(group.ids)
    held = {} if replace or not ids else loads.held_matches(con, ids)
    out: list[tuple[int, FileResult]] = []
    clean: list[tuple[int, loads.FileRows]] = []
    for i, rows, claims in group.file_rows():
        problems = _conflicts(rows.name, claims, rows.file_hash, held)
        if problems:
            out.append((i, FileResult(rows.name, rows.file_hash, "rejected", [], 0, sorted(problems, key=_line))))
        else:
            clean.append((i, rows))
    try:
        loads.publish_files(con, [rows for _, rows in clean])
        tries: list[list[tuple[int, loads.FileRows]]] = []
    except duckdb.Error:
        tries = [[item] for item in clean]  # each file still all or nothing, on its own
    for attempt in tries:
        try:
            loads.publish_files(con, [rows for _, rows in attempt])
        except duckdb.Error as exc:
            out.extend((i, _load_failed(rows.name, rows.file_hash, exc)) for i, rows in attempt)
            clean = [item for item in clean if item not in attempt]
    out.extend((i, _loaded(rows)) for i, rows in clean)
    return out


def _line(p: Problem) -> int:
    return p.line


def _loaded(rows: loads.FileRows) -> FileResult:
    return FileResult(rows.name, rows.file_hash, "loaded", [m.match for m, _ in rows.matches], rows.records, [])


def ingest_paths(
    con: duckdb.DuckDBPyConnection,
    paths: Iterable[str | os.PathLike[str]],
    *,
    replace: bool = False,
    progress: Progress | None = None,
    workers: int = 1,
) -> list[FileResult]:
    """Load every log under ``paths`` (files, .gz, directories in sorted order), each file
    all or nothing.

    Every file is read and checked on its own; small clean files are then published many
    to a transaction (:func:`cuelog.store.loads.publish_files`): the store's statements,
    not the checks, cost most for a season of one-match files. Which files are loaded
    already is asked once for the whole run, and which matches other files hold once per
    group. A file is refused or loaded exactly as it would be on its own: two files that
    claim the same match never share a transaction, and a group that fails to publish is
    published file by file. Large and gzipped files go through :func:`ingest_file`.

    With ``workers`` of 2 or more, that many processes check the small files
    (:mod:`cuelog.ingest.parallel`) while this one publishes (``cuelog ingest`` chooses
    the number by :func:`cuelog.ingest.workers.default_workers`; worker processes run
    the calling script again as they start (:mod:`cuelog.ingest.processes`), so a script
    calling this with workers needs the ``if __name__ == "__main__":`` guard). The
    results and the store are the same whatever the number.
    """
    files = list(log_files(paths))
    folder = loads.database_folder(con)
    # DuckDB's threads: the cores the checking processes leave while they run.
    held = threads_held(con, cores_left(workers))
    with collector_paused(), loads.vacuum_bounded(con), held, parallel.checker(workers, folder) as check:
        return _ingest_paths(con, files, replace, progress, check)


def _ingest_paths(
    con: duckdb.DuckDBPyConnection,
    files: list[Path],
    replace: bool,
    progress: Progress | None,
    check: parallel.Checker | None = None,
) -> list[FileResult]:
    with _Run(con, len(files), replace) as run:
        checked = _read_ahead(run.windows(files), run.known, check) if check is not None else None
        for window in checked or _unchecked(run.windows(files)):
            for i, src, ahead in window:
                run.take(i, src, ahead, progress)
    return run.results()


class _Run:
    """A run's files decided in order, and its groups published by a thread of their own.

    A group is published on its own connection (a cursor of the store's) while this
    thread decides the next files: DuckDB inserts without Python's lock, so checking and
    inserting overlap. One group is in flight at most, and everything whose answer a
    publication could change waits for it first: a copy of a file in it (it must find that
    file loaded), a refused file's claims (the store names the file holding the match), a
    large file (loaded on the store's own connection) and the next group's publication
    (groups are published in order, each seeing the ones before)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, files: int, replace: bool) -> None:
        self.con = con
        self.replace = replace
        self.known: dict[str, tuple[list[str], int]] = {}
        self._results: list[FileResult | None] = [None] * files
        self._group = _Group()
        self._cursor = con.cursor()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuelog-publish")
        self._in_flight: tuple[_Group, Future[list[tuple[int, FileResult]]]] | None = None

    def __enter__(self) -> _Run:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if exc[0] is None:
                self.flush(wait=True)
            else:
                self._in_flight = None  # a failure: what is in flight finishes, its results unread
        finally:
            self._thread.shutdown(wait=True)
            self._cursor.close()

    def results(self) -> list[FileResult]:
        return [r for r in self._results if r is not None]

    def done(self, i: int, result: FileResult) -> None:
        self._results[i] = result
        if result.status == "loaded" and result.file_hash is not None:
            self.known[result.file_hash] = (result.matches, result.records)

    def settle(self) -> None:
        """Wait for the group in flight, and take its results."""
        if self._in_flight is not None:
            _, future = self._in_flight
            self._in_flight = None
            for i, result in future.result():
                self.done(i, result)

    def flush(self, wait: bool = False) -> None:
        """Publish the group (after the one in flight); with ``wait``, until it is published."""
        if self._group.files:
            self.settle()
            group, self._group = self._group, _Group()
            self._in_flight = (group, self._thread.submit(_publish_group, self._cursor, group, self.replace))
        if wait:
            self.settle()

    def windows(self, files: list[Path]) -> Iterator[list[tuple[int, _Source]]]:
        """The files in windows, with which of each window's files are loaded already."""
        for window in _windows(files):
            hashes = [src.file_hash for _, src in window if src.file_hash is not None]
            self.known.update(loads.loaded_files(self.con, hashes))
            yield window

    def _publishing(self, file_hash: str) -> bool:
        return self._in_flight is not None and file_hash in self._in_flight[0].hashes

    def take(self, i: int, src: _Source, ahead: FileRead | Spooled | None, progress: Progress | None) -> None:
        """Decide one file: unchanged, loaded on its own, refused, or added to the group."""
        try:
            self._take(i, src, ahead, progress)
        finally:
            if isinstance(ahead, Spooled):
                ahead.remove()  # loaded, refused or a copy: its spooled rows are done with

    def _take(self, i: int, src: _Source, ahead: FileRead | Spooled | None, progress: Progress | None) -> None:
        name, file_hash = str(src.path), src.file_hash
        if src.size is None:
            problem = Problem(name, 0, "", "unreadable", "no such file", "an existing file or directory")
            self._results[i] = FileResult(name, None, "rejected", [], 0, [problem])
            return
        if file_hash is not None and (file_hash in self._group.hashes or self._publishing(file_hash)):
            self.flush(wait=True)  # the same bytes twice in one run: the second copy finds the first loaded
        if file_hash is not None and file_hash in self.known:
            if progress is not None:
                progress(2 * src.size)  # the bar counts every byte twice: checked, then loaded
            self._results[i] = FileResult(name, file_hash, "unchanged", *self.known[file_hash], [])
            return
        if file_hash is None or src.data is None:
            self.flush(wait=True)
            if file_hash is not None and isinstance(ahead, Spooled):
                if progress is not None:
                    progress(2 * ahead.size)  # checked, then loaded
                self.done(i, publish_read(self.con, name, file_hash, ahead.read, ahead.files, replace=self.replace))
            else:
                self.done(i, ingest_file(self.con, src.path, replace=self.replace, progress=progress))
            return
        if ahead is None or isinstance(ahead, Spooled):
            read = read_small(src.path, src.data, progress)
        else:
            read = ahead
            if progress is not None:
                progress(2 * src.size)  # checked, then loaded
        if read.problems:
            # Its claims are judged against the files before it, as on its own.
            if any(m.match in self._group.ids for _, m in read.claims):
                self.flush(wait=True)
            self.settle()
            problems = read.problems + match_conflicts(self.con, name, read.claims, file_hash, self.replace)
            self._results[i] = FileResult(name, file_hash, "rejected", [], 0, sorted(problems, key=_line))
            return
        if self._group.full(read.records, read.claims):
            self.flush()
        checked = _Checked(i, name, file_hash, read.matches, read.records, read.claims)
        self._group.add(checked, read.tables or read.batch)


Window = list[tuple[int, "_Source", FileRead | Spooled | None]]
"""A window's files with their positions and, when a worker checked one already, its read
(a large log's with its rows spooled)."""

AHEAD = 6
"""Windows whose files the workers check while the loading process publishes the one before."""


def _unchecked(windows: Iterator[list[tuple[int, _Source]]]) -> Iterator[Window]:
    for window in windows:
        yield [(i, src, None) for i, src in window]


def _read_ahead(
    windows: Iterator[list[tuple[int, _Source]]], known: dict[str, tuple[list[str], int]], check: parallel.Checker
) -> Iterator[Window]:
    """The windows in order, each log not known loaded already read by the workers (small
    logs in batches, a large one alone, its rows spooled), while up to :data:`AHEAD`
    windows after it are being read. (A log that turns out loaded by the time its window
    is published, a copy of one before it, was read for nothing: the loading process
    decides as it would alone.)"""
    pending: collections.deque[_Ahead] = collections.deque()
    for window in windows:
        todo = [(i, src) for i, src in window if src.file_hash is not None and src.file_hash not in known]
        small = [(i, str(src.path), src.data) for i, src in todo if src.data is not None]
        futures = check.submit([(name, data) for _, name, data in small])
        large = {i: check.submit_large(str(src.path), reading.BATCH) for i, src in todo if src.data is None}
        pending.append(_Ahead(window, [i for i, _, _ in small], futures, large))
        if len(pending) > AHEAD:
            yield pending.popleft().joined()
    while pending:
        yield pending.popleft().joined()


@dataclass(frozen=True, slots=True)
class _Ahead:
    """A window being read by the workers: its small logs' batches and its large logs."""

    window: list[tuple[int, _Source]]
    small: list[int]
    batches: list[Future[parallel.Checked]]
    large: dict[int, Future[Spooled | None]]

    def joined(self) -> Window:
        """The window with what the workers read (None where a worker died: the loading
        process reads that log itself)."""
        ahead: dict[int, FileRead | Spooled | None] = {}
        with contextlib.suppress(BrokenProcessPool):  # a worker died (memory?)
            reads = [read for future in self.batches for read in parallel.with_rows(future.result())]
            ahead.update(zip(self.small, reads, strict=True))
        for i, future in self.large.items():
            with contextlib.suppress(BrokenProcessPool, SpoolFailed):  # or the disk full: read here
                ahead[i] = future.result()
        return [(i, src, ahead.get(i)) for i, src in self.window]


WINDOW_BYTES = 4 << 20
"""Logs in a window at most: a small log is read once (hashed, then checked), a large one
counts its size (the workers spool its rows), and which of a window's files are loaded
already is one query."""


@dataclass(frozen=True, slots=True)
class _Source:
    """A log as found: its size (None: no such file), its content when it is small and
    plain (read once, for the hash and the check), its content hash (None: unreadable)."""

    path: Path
    size: int | None
    data: bytes | None
    file_hash: str | None


def _windows(files: list[Path]) -> Iterator[list[tuple[int, _Source]]]:
    """The files (with their positions) in runs of at most :data:`WINDOW_BYTES` of logs or
    :data:`GROUP_FILES` files. A large log counts its size (it is not held, but the workers
    spool its rows while its window is read ahead), so it ends its window."""
    window: list[tuple[int, _Source]] = []
    held = 0
    for i, path in enumerate(files):
        src = _source(path)
        window.append((i, src))
        held += len(src.data) if src.data is not None else src.size or 0
        if held >= WINDOW_BYTES or len(window) >= GROUP_FILES:
            yield window
            window, held = [], 0
    if window:
        yield window


def _source(path: Path) -> _Source:
    """One stat, and for a small log one read (a gzipped one decompressed: its size is what
    it holds): a large log is hashed as a stream and loaded by :func:`ingest_file`."""
    try:
        info = path.stat()
    except OSError:
        return _Source(path, None, None, None)
    if not stat.S_ISREG(info.st_mode):
        return _Source(path, None, None, None)
    if path.suffix == ".gz":
        data = _small_gz(path)
        if data is not None:
            return _Source(path, len(data), data, hashlib.sha256(data).hexdigest())
    if path.suffix == ".gz" or info.st_size > ON_ITS_OWN_BYTES:
        return _Source(path, info.st_size, None, content_hash(path))
    try:
        data = path.read_bytes()
    except OSError:
        return _Source(path, info.st_size, None, None)
    return _Source(path, info.st_size, data, hashlib.sha256(data).hexdigest())


def _small_gz(path: Path) -> bytes | None:
    """A gzipped log's content when it holds at most :data:`ON_ITS_OWN_BYTES` (a season of
    gzipped one-match logs is published in groups, as plain ones are: one transaction a
    file made such a season load six times slower); None for a larger one, or one that
    cannot be read here (:func:`ingest_file` then says why). The size gzip records at the
    end (modulo 4 GiB, of the last member) only spares reading a log that is plainly large."""
    held = gz_size(path)
    if held is not None and held > ON_ITS_OWN_BYTES:
        return None
    try:
        with gzip.open(path, "rb") as gz:
            data = gz.read(ON_ITS_OWN_BYTES + 1)
    except (OSError, EOFError, zlib.error):
        return None
    return data if len(data) <= ON_ITS_OWN_BYTES else None
