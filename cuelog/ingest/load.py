"""Load cuelog/1 logs into the DuckDB store, one file per transaction.

A file is read once: each line is decoded and checked (:mod:`cuelog.ingest.validate`) and
its rows batched; full batches are streamed into staging tables. Only a file that checks
clean to its end is published, in one transaction, so a file is either loaded completely
or not at all, and after a rejected file the database is exactly as before. Memory stays
flat whatever the file size: one batch of rows (:data:`BATCH` records) is held at a time,
handed to DuckDB as an Arrow table (see ``docs/validation-benchmark.md`` for the
measurements).

Loading is idempotent: ``ingest_log`` keeps the sha256 of every loaded file's content
(decompressed for ``.gz``), and the same bytes are never loaded twice. A different file
that claims a match id already in the store is refused (``match_exists``) unless
``replace`` is set, which swaps that match's rows for the new ones in the same
transaction.
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb

from cuelog.errors import Problem
from cuelog.ingest.reader import log_files, open_log
from cuelog.ingest.validate import check_file, parse_time
from cuelog.schemas.records import Choice, Clock, Event, Frame, FrameEnd, Match, Record, Stroke
from cuelog.store import loads

BATCH = 20_000
"""Records per insert: large enough for Arrow to pay off, small enough to keep memory flat."""

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)

Progress = Callable[[int], None]
"""Called with twice the number of bytes just read (decompressed), for a progress bar: each
byte counts once checked and once loaded, so a bar's total is twice the files' size."""


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


def epoch_us(t: str | None) -> int | None:
    """A validated ISO 8601 time as microseconds since the epoch (UTC)."""
    if t is None:
        return None
    parsed = parse_time(t)
    return None if parsed is None else (parsed - EPOCH) // _US


@dataclass(slots=True)
class _Batch:
    """Rows waiting to be inserted, as tuples in table column order."""

    records: list[tuple[Any, ...]] = field(default_factory=list)
    strokes: list[tuple[Any, ...]] = field(default_factory=list)
    clocks: list[tuple[Any, ...]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.records)

    def clear(self) -> None:
        self.records.clear()
        self.strokes.clear()
        self.clocks.clear()

    def add(self, match_id: str, seq: int, line: int, text: str, record: Record) -> None:
        n: int | None = None
        if isinstance(record, (Stroke, Clock)):
            n = record.n
        elif isinstance(record, (Choice, Event)):
            n = record.after
        frame = None if isinstance(record, Match) else record.frame
        self.records.append((match_id, seq, line, _TYPE_NAMES[type(record)], frame, n, text))
        if isinstance(record, Stroke):
            call = record.call
            score = record.score or (None, None)
            self.strokes.append(
                (
                    match_id,
                    record.frame,
                    record.n,
                    record.striker,
                    epoch_us(record.t),
                    record.first,
                    record.potted,
                    record.nominated,
                    bool(call and call.foul),
                    call.points if call else None,
                    bool(call and call.miss),
                    bool(call and call.free_ball),
                    score[0],
                    score[1],
                    record.break_,
                )
            )
        elif isinstance(record, Clock):
            self.clocks.append(
                (match_id, record.frame, record.n, record.elapsed_s, record.paused_s, record.limit_s, "record")
            )

    def rows(self) -> dict[str, list[tuple[Any, ...]]]:
        """The waiting rows by store table (:data:`cuelog.store.loads.ROW_SCHEMAS`)."""
        return {"records": self.records, "strokes": self.strokes, "shot_clock": self.clocks}


_TYPE_NAMES: dict[type[Any], str] = {
    Match: "match",
    Frame: "frame",
    Stroke: "stroke",
    Choice: "choice",
    Event: "event",
    FrameEnd: "frame_end",
    Clock: "clock",
}


def match_conflicts(
    con: duckdb.DuckDBPyConnection, file: str, claims: list[tuple[int, Match]], file_hash: str, replace: bool
) -> list[Problem]:
    """A Problem for each match of ``claims`` (line, match) whose id another file holds, unless ``replace``.

    One query for the whole file: a statement costs milliseconds, a file holds many matches.
    """
    if not claims or replace:
        return []
    held = loads.held_matches(con, [m.match for _, m in claims])
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
    current batch. Full batches go into staging tables, outside any transaction (DuckDB
    keeps the rows of an open transaction in memory, so one transaction around the whole
    file would grow with the file). At the first problem nothing more is staged, but
    every line is still checked, so that every problem is reported. Only a file that has
    checked clean to its end is published: one transaction replaces any match being
    replaced, copies the staged rows and the last batch into the store tables and
    records the file in ``ingest_log``. Staging tables are invisible to every reader and
    dropped afterwards, so a rejected or interrupted load leaves the store tables exactly
    as they were. A file of at most :data:`BATCH` records needs no staging table at all.
    """
    name = str(path)
    file_hash = content_hash(path)
    if file_hash is not None:
        seen = loads.loaded_file(con, file_hash)
        if seen is not None:
            if progress is not None:
                progress(2 * _size(path))  # the bar counts every byte twice: checked, then loaded
            return FileResult(name, file_hash, "unchanged", seen[0], seen[1], [])
    problems: list[Problem] = []
    claims: list[tuple[int, Match]] = []
    matches: list[tuple[Match, str]] = []
    batch = _Batch()
    staged = False
    match_id = ""
    seq = 0
    records = 0
    try:
        for checked in check_file(path):
            text, record = checked.text, checked.record
            if progress is not None and text is not None:
                progress(2 * (len(text) + 1))
            if isinstance(record, Match):
                claims.append((checked.line, record))
            if checked.problems:
                problems.extend(checked.problems)
                batch.clear()  # the file will be rejected: stage nothing more
            if problems or file_hash is None or record is None or text is None:
                continue
            if isinstance(record, Match):
                matches.append((record, text))
                match_id, seq = record.match, 0
            else:
                seq += 1
            batch.add(match_id, seq, line=checked.line, text=text, record=record)
            records += 1
            if len(batch) >= BATCH:
                if not staged:
                    loads.create_stage(con)
                    staged = True
                loads.insert_rows(con, batch.rows(), loads.STAGE)
        if file_hash is not None:
            problems += match_conflicts(con, name, claims, file_hash, replace)
        if not problems and file_hash is None:  # unreadable, yet no line said so
            problems.append(Problem(name, 0, "", "unreadable", "cannot read the file", "a readable file"))
        if problems or file_hash is None:
            problems.sort(key=lambda p: p.line)
            return FileResult(name, file_hash, "rejected", [], 0, problems)
        loads.publish(con, name, file_hash, matches, records, batch.rows(), staged)
    except duckdb.Error as exc:
        problem = Problem(name, 0, "", "load_failed", str(exc).splitlines()[0], "a file the store accepts")
        return FileResult(name, file_hash, "rejected", [], 0, [problem])
    finally:
        if staged:
            loads.drop_stage(con)
    return FileResult(name, file_hash, "loaded", [m.match for m, _ in matches], records, [])


def _size(path: str | os.PathLike[str]) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


def ingest_paths(
    con: duckdb.DuckDBPyConnection,
    paths: Iterable[str | os.PathLike[str]],
    *,
    replace: bool = False,
    progress: Progress | None = None,
) -> list[FileResult]:
    """Load every log under ``paths`` (files, .gz, directories in sorted order), each on its own."""
    results = []
    for path in log_files(paths):
        if not Path(path).is_file():
            problem = Problem(str(path), 0, "", "unreadable", "no such file", "an existing file or directory")
            results.append(FileResult(str(path), None, "rejected", [], 0, [problem]))
            continue
        results.append(ingest_file(con, path, replace=replace, progress=progress))
    return results
