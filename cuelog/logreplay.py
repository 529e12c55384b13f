"""Replay stroke log files, file by file, in worker processes when asked (``cuelog replay LOGS``).

Each file is read and split at its ``match`` records on its own: a file's first record is
its match record, as the validator requires of every log (``no_match``), so the files are
independent and a pool of processes can replay them a part (a few files) at a time, each
worker reading its own files. What a part gives is a list of :data:`Reading`, in the order
of its files and matches: a replayed match (its output's text, made in the worker by the
caller's renderer, and its counts of findings), the problems of a match's corrections, or
what stopped the replay. The parent reads the parts in file order and decides as one
process reading every file in turn would (:func:`replay_logs`), so the matches, the
problems and the error reported are the same whatever the number of workers.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from cuelog.errors import CuelogError, InputError, Problem
from cuelog.ingest import workers as how_many
from cuelog.ingest.collector import collector_paused
from cuelog.ingest.corrections import Located, apply_corrections
from cuelog.ingest.pool import PART_BYTES, in_order, parts
from cuelog.ingest.reader import read_records
from cuelog.replay import NoEngine, UnknownRuleset, replay_match, split_matches
from cuelog.replay.derived import Derived, under
from cuelog.replay.output import JSON_TEXT, Render, Rendered, rendered
from cuelog.schemas.records import Correction, Match, Record, kind_of


class LogReplayFailed(CuelogError):
    """A match of the logs could not be replayed (an unknown ruleset, no engine, a ruleset of
    another discipline, a broken stream): ``code`` is the error code the command reports."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message, self.code = message, code


@dataclass(frozen=True, slots=True)
class Refused:
    """A match whose corrections could not be applied: their problems. It is not replayed."""

    match: str
    problems: list[Problem]


@dataclass(frozen=True, slots=True)
class Stopped:
    """What stops the replay where it happened: a file that cannot be read (``problems``),
    or a match that cannot be replayed (``message`` and ``code``). ``always``: it stops the
    replay even after a correction's problem, as an unreadable file does; a match that
    cannot be replayed stops it only while no correction has failed, since after that
    nothing more is replayed."""

    match: str | None = None
    problems: list[Problem] = field(default_factory=list)
    message: str = ""
    code: str = ""
    always: bool = True


Reading = Rendered | Refused | Stopped
"""What reading a match (or a file that cannot be read) gave."""


@dataclass(frozen=True, slots=True)
class Part:
    """What reading and replaying some files gave: their readings, files and records."""

    readings: list[Reading]
    files: int
    records: int


def replay_part(
    names: Sequence[str], *, fixes: dict[str, list[Located]], rules: str | Derived | None, render: Render
) -> Part:
    """Read and replay these files in turn (in a worker process, or in this one). Every
    match is corrected by the corrections naming it (each time it is met), then replayed.
    The first file that cannot be read, or a match that cannot be put under ``rules``, ends
    the part; a match that cannot be replayed does not (its replay would not have been tried
    after a correction of an earlier part failed, and the files after it still have their
    corrections checked)."""
    readings: list[Reading] = []
    records = 0
    # The collector paused: the part's records and results are many small objects that
    # refcounting frees (ingest.collector); the engines make no reference cycles of note.
    with collector_paused():
        for done, name in enumerate(names):
            try:
                for match, body, count in _matches(name):
                    records += count
                    reading = _replayed(match, body, fixes, rules, render)
                    readings.append(reading)
                    if isinstance(reading, Stopped) and reading.always:
                        return Part(readings, done + 1, records)
            except InputError as exc:
                readings.append(Stopped(problems=exc.problems))
                return Part(readings, done + 1, records)
    return Part(readings, len(names), records)


def _matches(name: str) -> Iterator[tuple[Match, list[Record], int]]:
    """Each match of one file with the records that follow it (the engines'
    :func:`cuelog.replay.split_matches`), and their number (the match record included).
    InputError for an unreadable line, or a record before the first match record
    (``no_match``, as the validator names it)."""
    numbered = read_records(name)
    first = next(numbered, None)
    if first is None:
        return
    line, record = first
    if not isinstance(record, Match):
        kind = kind_of(record)
        raise InputError([Problem(name, line, "type", "no_match", kind, "a match record before it")])
    records = itertools.chain([record], (r for _, r in numbered))
    for match, body in split_matches(records):
        yield match, body, len(body) + 1


def _replayed(
    match: Match, body: list[Record], fixes: dict[str, list[Located]], rules: str | Derived | None, render: Render
) -> Reading:
    try:
        if rules is not None:
            match = under(match, rules)
    except (UnknownRuleset, ValueError) as exc:
        # The chosen ruleset is checked before any correction, so it stops the replay always.
        return _stopped(match, exc, always=True)
    applied: list[Correction] = []
    if match.match in fixes:
        try:
            corrected, applied = apply_corrections([match, *body], fixes[match.match])
        except InputError as exc:
            return Refused(match.match, exc.problems)
        body = corrected[1:]
    try:
        result = replay_match(match, body)
    except (UnknownRuleset, NoEngine, ValueError) as exc:
        return _stopped(match, exc, always=False)
    result.corrections = applied
    # The output, made here: in a worker, its text travels back instead of the result
    # pickled, and the parent only writes it (benchmarks/README.md, "The replays'
    # output made in the workers").
    return rendered(result, render)


def _stopped(match: Match, exc: Exception, *, always: bool) -> Stopped:
    if isinstance(exc, (UnknownRuleset, NoEngine)):
        return Stopped(match.match, message=str(exc).strip("'\""), code="unknown_rules", always=always)
    return Stopped(match.match, message=str(exc), code="bad_input", always=always)


PARALLEL_BYTES: Final = 12 << 20
"""Logs below this size in all are replayed by this process alone: starting the workers
(each imports the engines) costs about what they save at 6 MB (measured: benchmarks/README.md,
"validate and replay LOGS with workers")."""


def default_workers(files: Sequence[Path], cores: int | None = None, load: float | None = None) -> int:
    """The ``--workers`` default of ``cuelog replay LOGS``: this process alone for less than
    :data:`PARALLEL_BYTES` of logs, else one worker per idle core."""
    return how_many.default_workers(files, cores, load, parallel_bytes=PARALLEL_BYTES, large_logs=False)


def workers_for(files: Sequence[Path], asked: int | None) -> contextlib.AbstractContextManager[int]:
    """The processes of ``cuelog replay LOGS`` (``asked``, else :func:`default_workers`), their
    server started while the cores are watched (:func:`cuelog.ingest.workers.workers_for`)."""
    return how_many.workers_for(files, asked, __name__, parallel_bytes=PARALLEL_BYTES, large_logs=False)


Progress = Callable[[int, int], None]
"""Called with the files and records of each part once it is replayed."""


def replay_logs(
    files: Sequence[Path],
    corrections: Sequence[Located] = (),
    rules: str | Derived | None = None,
    *,
    workers: int = 1,
    progress: Progress | None = None,
    part_bytes: int = PART_BYTES,
    render: Render = JSON_TEXT,
) -> Iterator[Rendered]:
    """Each match of the logs replayed, in reading order (files in the order given), with
    its output as ``render`` makes it.

    Decides as one process reading the files in turn: the first unreadable file, or a
    match that cannot be replayed, raises (InputError, :class:`LogReplayFailed`); once a
    correction fails nothing more is replayed, and every correction's problem is raised
    together at the end (InputError), with those of corrections naming no match of the
    logs. With ``workers`` of 2 or more, that many processes read and replay the files,
    a part of about ``part_bytes`` at a time.
    """
    fixes: dict[str, list[Located]] = {}
    for item in corrections:
        fixes.setdefault(item[2].match, []).append(item)
    problems: list[Problem] = []
    seen: set[str] = set()
    work = functools.partial(replay_part, fixes=fixes, rules=rules, render=render)
    for part in in_order(work, parts(files, part_bytes), workers):
        for reading in part.readings:
            if isinstance(reading, Stopped):
                if reading.always or not problems:
                    if reading.problems:
                        raise InputError(reading.problems)
                    raise LogReplayFailed(reading.message, reading.code)
                if reading.match is not None:
                    seen.add(reading.match)
            elif isinstance(reading, Refused):
                seen.add(reading.match)
                problems.extend(p for p in reading.problems if p not in problems)
            else:
                seen.add(reading.match)
                if not problems:
                    yield reading
        if progress is not None:
            progress(part.files, part.records)
    # Corrections of matches that are not in the logs name no stroke of them.
    problems.extend(p for match, items in fixes.items() if match not in seen for p in _unmatched(items))
    if problems:
        raise InputError(sorted(problems, key=lambda p: (p.file, p.line)))


def _unmatched(corrections: list[Located]) -> list[Problem]:
    """The problems of corrections that match no record (one per correction, as
    ``apply_corrections`` reports them)."""
    try:
        apply_corrections([], corrections)
    except InputError as exc:
        return exc.problems
    return []
