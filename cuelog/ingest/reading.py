"""A log read once: decoded, checked, and its rows built while it is clean.

:func:`read_log` streams any log through the detailed check (:mod:`cuelog.ingest.validate`);
:func:`read_small` gives a small log's content the fast check first (:mod:`cuelog.ingest.clean`).
Both report every problem with its line, field and code, and neither touches the store:
:mod:`cuelog.ingest.load` publishes what they read, and :mod:`cuelog.ingest.parallel` runs
:func:`read_small` in worker processes.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from cuelog.errors import Problem
from cuelog.ingest.clean import CleanLog, NotClean, clean_log, clean_stream
from cuelog.ingest.reader import open_log
from cuelog.ingest.rows import Rows, Tables
from cuelog.ingest.validate import check_file, time_us
from cuelog.schemas.records import Match, Stroke, TypedStroke

BATCH = 20_000
"""Records per insert of a file streamed on its own: large enough for Arrow to pay off,
small enough to keep memory flat."""

Progress = Callable[[int], None]
"""Called with twice the number of bytes just read (decompressed), for a progress bar: each
byte counts once checked and once loaded, so a bar's total is twice the files' size."""


@dataclass(slots=True)
class FileRead:
    """One pass over a log: its problems, its match claims and, while it is clean, its rows."""

    problems: list[Problem] = field(default_factory=list)
    claims: list[tuple[int, Match]] = field(default_factory=list)
    matches: list[tuple[Match, str]] = field(default_factory=list)
    records: int = 0
    batch: Rows = field(default_factory=Rows)
    tables: Tables | None = None
    """The rows as Arrow tables instead of ``batch``, when another process read the file."""


def read_log(
    path: str | os.PathLike[str],
    keep: bool,
    progress: Progress | None,
    spill: Callable[[Rows], None] | None = None,
) -> FileRead:
    """Decode and check every line of a log once, building its rows while it is clean (and
    ``keep``: its content could be hashed). A full batch goes to ``spill`` when given.
    At the first problem nothing more is kept, but every line is still checked, so that
    every problem is reported."""
    out = FileRead()
    match_id = ""
    seq = 0
    for checked in check_file(path):
        text, record = checked.text, checked.record
        if progress is not None and text is not None:
            progress(2 * (len(text) + 1))
        if isinstance(record, Match):
            out.claims.append((checked.line, record))
        if checked.problems:
            out.problems.extend(checked.problems)
            out.batch.clear()  # the file will be rejected: stage nothing more
        if out.problems or not keep or record is None or text is None:
            continue
        if isinstance(record, Match):
            out.matches.append((record, text))
            match_id, seq = record.match, 0
        else:
            seq += 1
        t = time_us(record.t) if isinstance(record, Stroke) and record.t is not None else None
        out.batch.add(match_id, seq, line=checked.line, text=text, record=record, t=t)
        out.records += 1
        if spill is not None and len(out.batch) >= BATCH:
            spill(out.batch)
    return out


def read_small(path: str | os.PathLike[str], data: bytes, progress: Progress | None) -> FileRead:
    """One pass over a small log's content: the fast check of a clean log
    (:mod:`cuelog.ingest.clean`) and its rows; a file it does not call clean goes through
    the detailed check instead, which reports every problem as before."""
    log = clean_log(data, by_arrow=True)
    if log is None:
        return read_log(path, True, progress)
    if progress is not None:
        progress(2 * len(data))  # checked, then loaded
    out = FileRead()
    _take(out, log, _Place())
    return out


def read_large(
    path: str | os.PathLike[str],
    progress: Progress | None,
    spill: Callable[[Rows], None] | None = None,
    batch: int | None = None,
) -> FileRead | None:
    """The fast check of a large or gzipped log, part by part
    (:func:`cuelog.ingest.clean.clean_stream`), with its rows (a batch of ``batch`` records,
    :data:`BATCH` by default, going to ``spill``), so memory stays flat whatever its size;
    None when it cannot call the log clean (or cannot read it), for :func:`read_log` to
    read it again and name every problem."""
    limit = BATCH if batch is None else batch
    out = FileRead()
    place = _Place()
    try:
        with open_log(path) as fh:
            for log in clean_stream(fh, by_arrow=True):
                _take(out, log, place)
                if progress is not None:
                    progress(2 * log.size)  # checked, then loaded
                if spill is not None and len(out.batch) >= limit:
                    spill(out.batch)
    except (OSError, EOFError, zlib.error, NotClean):
        return None
    return out


@dataclass(slots=True)
class _Place:
    """Where the records of a log have got to: the match they belong to, the last position."""

    match_id: str = ""
    seq: int = 0


def _take(out: FileRead, log: CleanLog, place: _Place) -> None:
    """A clean log's (or part's) records into ``out``: their rows, claims and match records."""
    out.records += len(log.records)
    match_id, seq = place.match_id, place.seq
    times = iter(log.times)
    add, add_stroke = out.batch.add, out.batch.add_stroke
    for line, text, record in zip(log.lines, log.texts, log.records, strict=True):
        if type(record) is TypedStroke:
            seq += 1
            add_stroke(match_id, seq, line, text, record, next(times))
            continue
        if isinstance(record, Match):
            out.claims.append((line, record))
            out.matches.append((record, text))
            match_id, seq = record.match, 0
        else:
            seq += 1
        add(match_id, seq, line, text, record)
    place.match_id, place.seq = match_id, seq
