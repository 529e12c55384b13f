"""Shot-clock device logs (``--clock CSV``) aligned to strokes as they arrive.

Ingest pairs the device rows into shots (:func:`cuelog.ingest.clock.pair_shots`) and
joins each shot's ``stop`` to the stroke on the same table nearest in time, within a
tolerance; a stroke keeps the nearest of the shots joined to it. Live, a later stroke
could still be nearer to a shot, so a stroke's shot is said once no later stroke can
change it: when a stroke on that table at least twice the tolerance later has arrived,
or when the watch stops. The pairing is the ingest's own; the join is the same rule. The
device log is read again whenever it changes, as the device appends to it.
"""

from __future__ import annotations

import bisect
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cuelog.errors import InputError, Problem
from cuelog.ingest.clock import DEFAULT_TOLERANCE_S, Shot, pair_shots, read_clock_csv
from cuelog.ingest.device import Unplaced
from cuelog.ingest.validate import parse_time
from cuelog.live.messages import Message, NoticeSaid, ShotSaid
from cuelog.schemas.records import Match, Record, Stroke

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class _Stroke:
    t: int
    match: str
    frame: int
    n: int


@dataclass(slots=True)
class _Table:
    shots: list[Shot]
    stops: list[int]
    strokes: list[_Stroke] = field(default_factory=list)
    times: list[int] = field(default_factory=list)
    pending: list[_Stroke] = field(default_factory=list)
    used: set[int] = field(default_factory=set)
    """CSV lines of the ``stop`` rows of shots already given to a stroke."""


class LiveClock:
    """The shots of one device log, given to strokes as the strokes arrive."""

    def __init__(self, path: str | os.PathLike[str], tolerance_s: float = DEFAULT_TOLERANCE_S) -> None:
        self.path = Path(path)
        self.tol = round(tolerance_s * 1e6)
        self.tables: dict[str, _Table] = {}
        self.unplaced: list[Unplaced] = []
        self.problems: list[Problem] = []
        self._stamp: tuple[int, int] | None = None
        if not self.refresh() and self.problems:
            raise InputError(self.problems)

    def refresh(self) -> bool:
        """Read the device log again if it changed (the device appends as the match goes on).

        A version with a problem (a row being written, a malformed row) is kept aside and
        the shots read before stay; the problems are said when the watch stops.
        """
        try:
            st = self.path.stat()
        except OSError as exc:
            self.problems = [Problem(str(self.path), 0, "", "unreadable", str(exc), "a readable CSV file")]
            return False
        stamp = (st.st_size, st.st_mtime_ns)
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        _, rows, self.problems = read_clock_csv(self.path)
        if self.problems:
            return False
        shots, self.unplaced = pair_shots(rows)
        for tab in self.tables.values():
            tab.shots, tab.stops = [], []
        for shot in sorted(shots, key=lambda s: (s.stop_ts, s.stop_line)):
            tab = self.tables.setdefault(shot.table, _Table([], []))
            tab.shots.append(shot)
            tab.stops.append(shot.stop_ts)
        return True

    def after(self, last: tuple[Match, Record] | None) -> list[Message]:
        """Shots settled by the record just read (a stroke with a time, on a known table)."""
        if last is None:
            return []
        match, record = last
        if not isinstance(record, Stroke) or record.t is None or match.table is None:
            return []
        self.refresh()
        tab = self.tables.get(match.table)
        parsed = parse_time(record.t)
        if tab is None or parsed is None:
            return []
        s = _Stroke((parsed - _EPOCH) // _US, match.match, record.frame, record.n)
        i = bisect.bisect_right(tab.times, s.t)
        tab.times.insert(i, s.t)
        tab.strokes.insert(i, s)
        tab.pending.append(s)
        latest = tab.times[-1]
        settled = [p for p in tab.pending if latest >= p.t + 2 * self.tol]
        tab.pending = [p for p in tab.pending if latest < p.t + 2 * self.tol]
        return [m for p in settled if (m := self._shot(tab, p)) is not None]

    def flush(self) -> list[Message]:
        """The watch stops: settle every stroke still waiting, and count the shots left over."""
        self.refresh()
        out: list[Message] = []
        for tab in self.tables.values():
            out.extend(m for p in tab.pending if (m := self._shot(tab, p)) is not None)
            tab.pending = []
        left = len(self.unplaced) + sum(len(t.shots) - len(t.used) for t in self.tables.values())
        if left:
            out.append(NoticeSaid("clock_unplaced", f"{left} shot-clock row(s) or shot(s) placed on no stroke"))
        out.extend(NoticeSaid("clock_problem", str(p), p.line) for p in self.problems)
        return out

    def _nearest(self, tab: _Table, ts: int) -> _Stroke | None:
        i = bisect.bisect_left(tab.times, ts)
        near = [tab.strokes[j] for j in (i - 1, i) if 0 <= j < len(tab.strokes)]
        near = [s for s in near if abs(s.t - ts) <= self.tol]
        return min(near, key=lambda s: (abs(s.t - ts), s.t), default=None)

    def _shot(self, tab: _Table, s: _Stroke) -> ShotSaid | None:
        lo = bisect.bisect_left(tab.stops, s.t - self.tol)
        hi = bisect.bisect_right(tab.stops, s.t + self.tol)
        mine = [k for k in range(lo, hi) if self._nearest(tab, tab.shots[k].stop_ts) is s]
        if not mine:
            return None
        k = min(mine, key=lambda k: (abs(tab.shots[k].stop_ts - s.t), tab.shots[k].stop_line))
        shot = tab.shots[k]
        tab.used.add(shot.stop_line)
        return ShotSaid(s.match, s.frame, s.n, shot.shot_s, shot.paused_s, shot.limit_s, shot.stop_line)
