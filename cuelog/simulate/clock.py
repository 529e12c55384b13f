"""Match time: stroke times ``t`` and the shot-clock device rows (docs/format.md section 5).

Time is kept as integer milliseconds since the Unix epoch so that it is exact and
independent of the machine; it is written in ISO 8601 with millisecond precision, UTC.
The device runs per table: it is started when the balls come to rest (or the cue ball is
handed over) and stopped when the cue ball is struck, with a few milliseconds of lag.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime

CSV_HEADER = "table,ts,event\n"


def iso(ms: int) -> str:
    """ISO 8601 UTC with millisecond precision, e.g. ``2026-05-01T14:03:22.120Z``."""
    dt = datetime.fromtimestamp(ms // 1000, tz=UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + f".{ms % 1000:03d}Z"


def epoch_ms(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> int:
    return int(datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp()) * 1000


@dataclass(slots=True)
class MatchClock:
    """The running time of one match on one table, and its device rows."""

    table: str
    now: int
    rng: random.Random
    rows: list[tuple[int, str]] = field(default_factory=list)
    """``(ms, event)`` device rows, in time order."""

    def wait(self, seconds: float) -> None:
        """Time passes with the clock idle (between frames, a choice, an event)."""
        self.now += int(seconds * 1000)

    def shot(self, seconds: float) -> int:
        """The balls settle, the clock starts, the striker takes ``seconds``: returns ``t``."""
        self.now += self.rng.randint(2500, 6000)  # balls come to rest, referee spots
        start = self.now
        self.rows.append((start, "start"))
        shot_ms = int(seconds * 1000)
        if self.rng.random() < 0.01:
            # The referee cleans a ball or the crowd settles: the clock is paused.
            at = start + self.rng.randint(1000, max(1001, shot_ms))
            pause = self.rng.randint(4000, 20000)
            self.rows.append((at, "pause"))
            self.rows.append((at + pause, "resume"))
            shot_ms += pause
        t = start + shot_ms
        self.rows.append((t + self.rng.randint(0, 180), "stop"))
        self.now = t
        return t

    def csv_rows(self) -> list[str]:
        return [f"{self.table},{iso(ms)},{event}\n" for ms, event in self.rows]
