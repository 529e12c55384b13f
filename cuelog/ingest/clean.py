"""The fast check of a clean log: one pass, a yes or no, no Problem built.

Most logs a season brings are clean, and for them the detailed check
(:mod:`cuelog.ingest.validate`) spends most of its time building the empty list of
problems of each check. :func:`clean_records` decodes a small file's lines with the typed
decoder and answers one question: would the detailed check find nothing? Strokes (nine
lines in ten) are checked here by one function of plain comparisons; the few other
records go through the detailed checks themselves, so their rules live in one place.
A large or gzipped log is read in parts of whole lines (:func:`clean_stream`), one state
running across them, so its memory is bounded by a part.

The answer errs one way only: ``None`` (not known to be clean) sends the file to the
detailed check, which reports its problems with their lines, fields and codes exactly as
before; a file is never called clean when the detailed check would find a problem
(``tests/ingest/test_clean.py`` holds the two to each other on the bad-input corpus and on
fuzzed logs, ``tests/ingest/test_large_fast.py`` the check in parts).
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from cuelog.ingest.reader import MAX_LINE, decoded_lines, open_log
from cuelog.ingest.validate import (
    POCKETS,
    FileState,
    _calls_safety,
    _negative_scores,
    check_record,
    close_frame,
    times_us,
)
from cuelog.schemas.bounds import INT_BOUNDS, MAX_POINTS
from cuelog.schemas.records import Record, Stroke, TypedStroke
from cuelog.schemas.rulesets import Ruleset

Line = tuple[int, str, Record]
"""A checked line: its number (1-based), its text (stripped, as stored) and its record."""

_N_MAX = INT_BOUNDS["stroke"]["n"][1]
_BREAK_LOW, _BREAK_HIGH = INT_BOUNDS["stroke"]["break"]
_POINTS = INT_BOUNDS["stroke"]["call.points"]
_VISITS = INT_BOUNDS["stroke"]["call.visits"]
_OBJECTS_LOW, _OBJECTS_HIGH = INT_BOUNDS["stroke"]["cushions.objects"]


FAST_CHECK_BYTES = 4 << 20
"""Logs up to this size (not gzipped) are read whole and given the fast check first."""


def is_clean(path: str | os.PathLike[str]) -> bool:
    """A log the fast check calls clean (False: not known, see the detailed check): a small
    plain log read whole, any other part by part (:func:`clean_stream`)."""
    p = Path(path)
    try:
        if p.suffix != ".gz" and p.stat().st_size <= FAST_CHECK_BYTES:
            return clean_records(p.read_bytes()) is not None
        with open_log(p) as fh:
            for _ in clean_stream(fh):
                pass
    except (OSError, EOFError, zlib.error, NotClean):
        return False
    return True


PART_BYTES = 4 << 20
"""A large log is given the fast check in parts of about this many bytes (whole lines)."""


def clean_stream(fh: IO[bytes], *, by_arrow: bool = False) -> Iterator[CleanLog]:
    """The fast check of a whole log read from ``fh``, part by part (about :data:`PART_BYTES`
    of whole lines each): each part's records as :func:`clean_part` gives them, one state
    running across the parts (a match, a frame, the stroke numbers carry on), so memory is
    bounded by a part. Raises :class:`NotClean` where it cannot call the log clean,
    at its end too (no record at all; the last frame's checks)."""
    state = FileState("")
    first = 1
    records = 0
    for part in _parts(fh):
        log = clean_part(state, part, first, by_arrow=by_arrow)
        if log is None:
            raise NotClean
        first += part.count(b"\n")
        records += len(log.records)
        yield log
    # A log of no record at all is the detailed check's to report (``empty_file``).
    if not records or close_frame(state):
        raise NotClean


def _parts(fh: IO[bytes]) -> Iterator[bytes]:
    """A log's bytes in parts of whole lines, about :data:`PART_BYTES` each (the last may
    end without a line break); :class:`NotClean` when a line runs past the reader's limit."""
    carry = b""
    while chunk := fh.read(PART_BYTES):
        data = carry + chunk
        cut = data.rfind(b"\n") + 1
        if not cut:
            if len(data) >= MAX_LINE:
                raise NotClean  # the reader reports the over-long line
            carry = data
            continue
        carry = data[cut:]
        yield data[:cut]
    if carry:
        yield carry


class NotClean(Exception):
    """The fast check cannot call a log clean: the detailed check is to read it."""


@dataclass(frozen=True, slots=True)
class CleanLog:
    """A log the fast check calls clean: its records with their lines and texts, and the
    time of each stroke (microseconds since the epoch, None when it has none) in stroke order."""

    lines: list[int]
    texts: list[str]
    records: list[Record]
    times: list[int | None]
    size: int = 0
    """The bytes it was read from."""


def clean_records(data: bytes) -> list[Line] | None:
    """Every record of a log with its line and text when the detailed check would find no
    problem in it; None otherwise (or when in doubt)."""
    log = clean_log(data)
    return None if log is None else list(zip(log.lines, log.texts, log.records, strict=True))


def clean_log(data: bytes, *, by_arrow: bool = False) -> CleanLog | None:
    """A log's records, lines, texts and stroke times when the detailed check would find no
    problem in it; None otherwise (or when in doubt). ``by_arrow``: the times read by Arrow
    (:func:`cuelog.ingest.validate.times_us`)."""
    state = FileState("")
    log = clean_part(state, data, by_arrow=by_arrow)
    if log is None or close_frame(state):
        return None
    return log


def clean_part(state: FileState, data: bytes, first: int = 1, *, by_arrow: bool = False) -> CleanLog | None:
    """:func:`clean_log` for a part of a log: whole lines from line ``first``, checked
    against ``state`` (what the parts before it left: the match, the open frame, the last
    stroke), which it updates. The log's end (its last frame closed) is the caller's to
    check, with :func:`cuelog.ingest.validate.close_frame`. The strokes' times are read
    together at the end (:func:`cuelog.ingest.validate.times_us`, ``by_arrow`` as given)."""
    decoded = decoded_lines(data, first)
    if decoded is None:
        return None
    numbered, records = decoded
    stamps: list[str | None] = []
    try:
        for (number, _), record in zip(numbered, records, strict=True):
            if type(record) is TypedStroke:
                stroke_clean(state, record)
                stamps.append(record.t)
            elif check_record(state, number, record):
                return None
    except NotClean:
        return None
    times = times_us(stamps, by_arrow=by_arrow)
    if times is None:
        return None
    return CleanLog([n for n, _ in numbered], [t for _, t in numbered], records, times, len(data))


def stroke_clean(state: FileState, s: TypedStroke) -> None:
    """:func:`cuelog.ingest.validate.check_stroke` finds nothing: the same rules as plain
    comparisons, raising :class:`NotClean` where that check would find a problem. Updates
    the state as that check does (the last ``n``, the frame's strokes). The stroke's time is
    not read here: :func:`clean_part` reads a part's times together.

    A :class:`TypedStroke` only: its decoder read the striker as a side and every ball of
    ``first``, ``potted``, ``then`` and ``off_table`` as a ball of the schema, so what is left
    to check of them is that the match's ruleset uses the balls. The common case runs as
    plain comparisons in one function, each field read once: a call, a loop or a generator
    a stroke cost more than the comparisons themselves (benchmarks/README.md, "The fast
    check's strokes: fewer calls a stroke")."""
    rs = state.ruleset
    n = s.n
    # The open frame, the next number (n counts from 1, docs/format.md section 4; no gap,
    # no repeat) and the stated bounds (cuelog.schemas.bounds).
    if rs is None or s.frame != state.frame or n != state.last_n + 1 or n > _N_MAX:
        raise NotClean
    score = s.score
    if score is not None:
        # [A, B], from 0 (minus the bound in 14.1, WPA 4.7) to MAX_POINTS.
        if len(score) != 2:
            raise NotClean
        a, b = score
        if not (0 <= a <= MAX_POINTS and 0 <= b <= MAX_POINTS) and not (
            _negative_scores(state) and -MAX_POINTS <= a <= MAX_POINTS and -MAX_POINTS <= b <= MAX_POINTS
        ):
            raise NotClean
    break_ = s.break_
    if break_ is not None and not _BREAK_LOW <= break_ <= _BREAK_HIGH:
        raise NotClean
    balls = rs.balls
    if not balls.issuperset(s.first) or (s.potted and not balls.issuperset(s.potted)):
        raise NotClean
    then = s.then
    if then and not balls.issuperset(then):
        raise NotClean
    cushions = s.cushions
    if cushions is not None:
        objects = cushions.objects
        if objects is not None and not _OBJECTS_LOW <= objects <= _OBJECTS_HIGH:
            raise NotClean
    respots = s.respots
    if respots:
        spots = rs.spots
        for r in respots:
            if r.ball not in balls or (r.spot is not None and r.spot not in spots):
                raise NotClean
    nominated = s.nominated
    if nominated is not None and nominated not in balls and not (nominated == "safety" and _calls_safety(state)):
        raise NotClean
    if (
        s.call is not None
        or s.off_table is not None
        or s.infringements
        or s.positions is not None
        or s.pockets is not None
        or s.pocket_called is not None
    ) and not _rarer_clean(s, rs):
        raise NotClean
    state.last_n = n
    state.unread = False
    state.strokes.add(n)


def _rarer_clean(s: Stroke, rs: Ruleset) -> bool:
    """The stroke's rarer fields (in the README's snooker and billiards season, a few strokes
    in a hundred have any): a call within its bounds, balls off the table and in
    infringements and positions that the match's ruleset uses, known pockets."""
    balls, call = rs.balls, s.call
    if call is not None and not (_in(call.points, _POINTS) and _in(call.visits, _VISITS)):
        return False
    if s.off_table is not None and not balls.issuperset(s.off_table):
        return False
    if s.infringements and any(i.ball is not None and i.ball not in balls for i in s.infringements):
        return False
    if s.positions is not None and any(p[0] not in balls for p in s.positions):
        return False
    if s.pockets is not None and (len(s.pockets) != len(s.potted) or not POCKETS.issuperset(s.pockets)):
        return False
    return s.pocket_called is None or s.pocket_called in POCKETS


def _in(value: int | None, bound: tuple[int, int]) -> bool:
    return value is None or bound[0] <= value <= bound[1]
