"""The watch loop: poll the file, feed new lines to the session, say what they give.

The loop owns time (polling, the settle wait); the session and the engines never see a
clock. It ends on Ctrl-C, on ``stop`` (a threading.Event, for callers embedding it), or
with ``until_end`` when the match is over: decided by its ``best_of``, or, for a match
record without one, its frame has ended and the file then stayed unchanged for
``settle`` seconds.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cuelog.errors import Problem
from cuelog.ingest.reader import MAX_LINE
from cuelog.live.clock import LiveClock
from cuelog.live.follow import Follower, Line, Notice
from cuelog.live.messages import Message, NoticeSaid, ProblemSaid
from cuelog.live.session import Session
from cuelog.replay import ENGINES

POLL_S = 0.005
"""Time between two looks at the file when nothing new came (latency budget 50 ms)."""
SETTLE_S = 2.0


@dataclass(frozen=True, slots=True)
class Summary:
    """How the watch ended and what stands."""

    findings: int
    """Findings said and not withdrawn."""
    problems: int
    """Lines that could not be read or replayed."""
    stopped: str
    """``end`` (the match is over), ``interrupt`` (Ctrl-C) or ``stop``."""


class _Loop:
    def __init__(self, path: Path, emit: Callable[[Message], None], due: bool, clock: LiveClock | None) -> None:
        self.follower = Follower(path)
        self.session = Session(str(path), due=due)
        self.clock = clock
        self.emit = emit
        self.last_line = 0
        self.problems = 0
        """Bad lines of logs read before a restart."""

    def step(self) -> bool:
        """Read and say what is new; whether anything came."""
        items = self.follower.poll()
        for item in items:
            if isinstance(item, Notice):
                self._notice(item)
            else:
                self.last_line = item.number
                self._line(item)
        return bool(items)

    def _notice(self, item: Notice) -> None:
        if item.code == "too_long":
            # A bad line like any other (the reader's own code and limit).
            self.problems += 1
            found, expected = f"more than {MAX_LINE} bytes", "one JSON object per line"
            self.emit(ProblemSaid(Problem(str(self.follower.path), item.line, "", "line_too_long", found, expected)))
            return
        self.emit(NoticeSaid(item.code, item.message, item.line))
        if item.code == "rewritten":
            self._start_over()

    def _start_over(self) -> None:
        """The log is not the one read so far: replay it again from line 1, and say so."""
        self.problems += self.session.problems
        self.session = Session(self.session.file, due=self.session.due)
        why = "the log was rewritten: replaying it from line 1; what was said before stands only if said again"
        self.emit(NoticeSaid("restart", why, 0))

    def _line(self, item: Line) -> None:
        for m in self.session.feed(item.number, item.data):
            self.emit(m)
        if self.clock is not None:
            for m in self.clock.after(self.session.last_record):
                self.emit(m)

    def finish(self, why: str) -> None:
        if self.follower.pending:
            size = len(self.follower.pending)
            self.emit(
                NoticeSaid("unfinished", f"an unfinished last line ({size} bytes) was not read", self.last_line + 1)
            )
        for m in self.session.close(self.last_line):
            self.emit(m)
        if self.clock is not None:
            for m in self.clock.flush():
                self.emit(m)
        self.emit(NoticeSaid("stopped", why, self.last_line))
        self.follower.close()


def watch(
    path: str | Path,
    emit: Callable[[Message], None],
    *,
    due: bool = False,
    until_end: bool = False,
    clock: LiveClock | None = None,
    poll_s: float = POLL_S,
    settle_s: float = SETTLE_S,
    stop: threading.Event | None = None,
) -> Summary:
    """Follow ``path`` and call ``emit`` with every message, until stopped."""
    for module in ENGINES.values():
        importlib.import_module(module)  # loaded now, not on the first record's latency
    loop = _Loop(Path(path), emit, due, clock)
    quiet_since = time.monotonic()
    stopped = "stop"
    try:
        while stop is None or not stop.is_set():
            if loop.step():
                quiet_since = time.monotonic()
            elif until_end and _ended(loop.session, time.monotonic() - quiet_since, settle_s):
                stopped = "end"
                break
            else:
                time.sleep(poll_s)
            if until_end and loop.session.match_over:
                stopped = "end"
                break
    except KeyboardInterrupt:
        stopped = "interrupt"
    why = {"end": "the match is over", "interrupt": "interrupted", "stop": "stopped"}[stopped]
    loop.finish(why)
    return Summary(loop.session.standing, loop.problems + loop.session.problems, stopped)


def _ended(session: Session, quiet_s: float, settle_s: float) -> bool:
    return session.match_over or (session.frame_ended and not session.has_best_of and quiet_s >= settle_s)
