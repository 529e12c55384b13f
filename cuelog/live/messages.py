"""What the watch says, as data: one record per line it prints.

Every message names the log line that made it, so a referee's tablet can point at the
record. ``Revised`` findings and ``Withdrawn`` ones are corrections: a later record changed
an earlier judgment, and the message names the judgment it changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from cuelog.errors import Problem
from cuelog.live.remedy import Remedy
from cuelog.replay.model import Finding, Outcome


@dataclass(frozen=True, slots=True)
class MatchOpened:
    line: int
    match: str
    rules: str
    sides: dict[str, str]
    best_of: int | None


@dataclass(frozen=True, slots=True)
class FindingSaid:
    """A finding as soon as the record that makes it arrives."""

    line: int
    match: str
    frame: int | None
    finding: Finding
    due: str
    """What the rules make due for the stroke concerned, in the referee's words."""
    remedy: Remedy
    open: bool
    """The error can still be put right (the remedy's window has not closed)."""
    found_at: int
    """The last stroke played when it was found (later than ``finding.n`` for a late finding)."""
    revised: bool = False
    """Found when a later record changed the judgment of the frame so far."""


@dataclass(frozen=True, slots=True)
class Withdrawn:
    """A correction: a finding printed earlier that a later record shows was not an error."""

    line: int
    match: str
    frame: int | None
    finding: Finding
    reason: str


@dataclass(frozen=True, slots=True)
class Closed:
    """A finding said while it could be put right, whose window the log now shows has closed."""

    line: int
    match: str
    frame: int | None
    finding: Finding
    remedy: Remedy


@dataclass(frozen=True, slots=True)
class DueSaid:
    """The due call of a stroke (``--due``): the engine's Outcome."""

    line: int
    match: str
    frame: int
    outcome: Outcome
    text: str
    revised: bool = False


@dataclass(frozen=True, slots=True)
class FrameSaid:
    """A frame's result: at its recorded end, and again if a later record changes it."""

    line: int
    match: str
    frame: int
    score: tuple[int, int]
    recorded: tuple[int, int] | None
    winner: str | None
    findings: int
    revised: bool = False
    rack: bool = False
    """A pool rack (won by the rack, not by points): said with both winners and the scoreboard."""
    recorded_winner: str | None = None


@dataclass(frozen=True, slots=True)
class MatchOver:
    line: int
    match: str
    frames: tuple[int, int]
    """Frames won by A and B."""


@dataclass(frozen=True, slots=True)
class ShotSaid:
    """A shot-clock reading aligned to a stroke (``--clock``), as ingest aligns it."""

    match: str
    frame: int
    n: int
    shot_s: float
    paused_s: float
    limit_s: float | None
    csv_line: int


@dataclass(frozen=True, slots=True)
class ProblemSaid:
    """A line that cannot be read or replayed: reported, and the watch goes on."""

    problem: Problem


@dataclass(frozen=True, slots=True)
class NoticeSaid:
    """Something about the file or the watch itself (rotated, truncated, stopped)."""

    code: str
    message: str
    line: int = 0


Message = (
    MatchOpened
    | FindingSaid
    | Withdrawn
    | Closed
    | DueSaid
    | FrameSaid
    | MatchOver
    | ShotSaid
    | ProblemSaid
    | NoticeSaid
)
