"""What a replay gives back: findings, breaks, per-stroke outcomes, frame and match results.

These are the output contract of docs/format.md section 7. Every engine produces them; the
command line, the DuckDB store, the reports and the simulator read them.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Final

import msgspec

from cuelog.schemas.records import Correction

# The finding kinds of docs/format.md section 7, in the order the table lists them.
CONDONED_FOUL: Final = "condoned_foul"
UNSUPPORTED_FOUL: Final = "unsupported_foul"
PENALTY_VALUE: Final = "penalty_value"
SCORE_MISMATCH: Final = "score_mismatch"
RESPOT_MISSING: Final = "respot_missing"
RESPOT_WRONG_SPOT: Final = "respot_wrong_spot"
RESPOT_IN_ERROR: Final = "respot_in_error"
WRONG_STRIKER: Final = "wrong_striker"
FREE_BALL_ERROR: Final = "free_ball_error"
MISS_ERROR: Final = "miss_error"
FRAME_END_ERROR: Final = "frame_end_error"
TIME_FOUL_UNCALLED: Final = "time_foul_uncalled"
TIME_FOUL_ERROR: Final = "time_foul_error"
LIMIT_EXCEEDED: Final = "limit_exceeded"
GROUP_ERROR: Final = "group_error"
"""Pool: a group (colour, solids/stripes) assigned or nominated against the rules."""
VISITS_ERROR: Final = "visits_error"
"""Pool: a foul called with the wrong penalty (visits, ball in hand, free shot)."""
PUSH_OUT_ERROR: Final = "push_out_error"
"""Nine-ball: a push out allowed where the rules give none (WPA 2.4)."""
INVALID_RECORD: Final = "invalid_record"

FINDING_KINDS: Final = (
    CONDONED_FOUL,
    UNSUPPORTED_FOUL,
    PENALTY_VALUE,
    SCORE_MISMATCH,
    RESPOT_MISSING,
    RESPOT_WRONG_SPOT,
    RESPOT_IN_ERROR,
    WRONG_STRIKER,
    FREE_BALL_ERROR,
    MISS_ERROR,
    FRAME_END_ERROR,
    TIME_FOUL_UNCALLED,
    TIME_FOUL_ERROR,
    LIMIT_EXCEEDED,
    GROUP_ERROR,
    VISITS_ERROR,
    PUSH_OUT_ERROR,
    INVALID_RECORD,
)


_KIND_ORDER: Final = {kind: i for i, kind in enumerate(FINDING_KINDS)}

Detail = tuple[tuple[str, str | int | bool | None], ...]
"""A discipline's own facts beyond the common core, as ``(name, value)`` pairs sorted by
name: immutable, comparable, and stored as they are (``replay_stroke_details``)."""


class Finding(msgspec.Struct, frozen=True, gc=False):
    """One place where the recorded calls disagree with the rules.

    The same for every discipline: ``n`` is the stroke (or, for an event, the ``after``
    stroke); ``kind`` a stable code (the kinds of docs/format.md section 7 first, then any a
    discipline adds, ordered by name); ``rule`` the citation; ``side`` the side the
    discrepancy concerns (the offender for a foul); ``points`` what is at stake.
    ``certain`` is false when one unrecorded fact, ``unless``, would excuse the call
    (docs/format.md section 7): such findings are listed apart and do not set the exit code.
    New code builds it with keywords: ``Finding(n=…, kind=…, rule=…, side=…, points=…,
    message=…)``.
    """

    n: int
    kind: str
    rule: str
    side: str | None
    points: int
    message: str
    certain: bool = True
    unless: str | None = None

    def sort_key(self) -> tuple[int, int, str, str, str]:
        return (self.n, _KIND_ORDER.get(self.kind, len(FINDING_KINDS)), self.kind, self.rule, self.message)


class Break(msgspec.Struct, frozen=True, gc=False):
    """A break (S2 R8): points scored by one side in one visit, strokes ``from``..``to``."""

    side: str
    points: int
    from_: int
    to: int


class Outcome(msgspec.Struct, frozen=True, gc=False):
    """What the rules make of one stroke: the *due* call and its effect.

    The simulator uses these to write correct calls; the store writes one row per stroke
    for the reports. Every discipline fills the common core: ``n``, ``striker``,
    ``scored``, ``penalty``, ``foul``, ``reasons``, ``respots``, ``turn_ends``,
    ``next_striker``, ``score``, ``break_id``, ``visit_id``, ``frame_over``, ``winner``,
    ``credited``. ``ball_on`` and ``miss`` are shared by the snooker family (snooker,
    billiards) and by pool where its rules have them (the lowest-numbered ball, a group);
    ``free_ball`` is snooker's. Anything else a discipline decides about a stroke (pool:
    ball in hand, a push-out, a three-foul warning) goes in ``detail``.
    """

    n: int
    striker: str
    scored: int
    """Points the striker scored with this stroke under the rules (0 in a foul stroke)."""
    penalty: int
    """Penalty points due to the opponent (0 when the stroke is not a foul)."""
    foul: bool
    """The facts show a foul."""
    reasons: tuple[str, ...] = ()
    """Stable codes of every foul the facts show (the penalty is the highest, S3 R10(g))."""
    ball_on: str | None = None
    """The ball on when the stroke was played (``red``, a colour, ``colour`` for any colour)."""
    miss: bool = False
    """FOUL AND A MISS is due (snooker S3 R14) or a billiards miss (S2 R16)."""
    free_ball: bool = False
    """FREE BALL is due for the incoming player (S3 R12)."""
    respots: tuple[tuple[str, str], ...] = ()
    """Balls the rules spot after the stroke: ``(ball, spot)``."""
    turn_ends: bool = False
    next_striker: str | None = None
    score: tuple[int, int] = (0, 0)
    """The score the rules give after the stroke, calls as made."""
    break_id: int | None = None
    visit_id: int = 0
    frame_over: bool = False
    winner: str | None = None
    credited: int = 0
    """Points the official ``score`` booked to the striker for this stroke: the calls as
    made, so the pots of a foul nobody called count (S3 R10(c)) and a billiards game
    target caps them (S3 R5(d)). ``scored`` is the due call; this is what stood."""
    detail: Detail = ()
    """The discipline's own facts of this stroke (empty for snooker and billiards)."""
    visits: int = 0
    """Pool: visits due to the incoming player after a foul (two under World/WEPF K)."""
    in_hand: str | None = None
    """Pool: the cue ball is due in hand for the next stroke: ``anywhere``, ``baulk``, ``head``."""
    loss_of_frame: bool = False
    """Pool: the stroke loses the frame (World M, WPA 3.8, black ball 5.14)."""


BY_N: Final = operator.attrgetter("n")
"""The key that orders outcomes by stroke number (in C: the result rows sort each frame's
outcomes by it, once a stroke)."""


@dataclass(slots=True)
class FrameResult:
    """The replay of one frame."""

    frame: int
    score: tuple[int, int]
    recorded: tuple[int, int] | None
    winner: str | None
    breaks: list[Break] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    visits: tuple[int, int] = (0, 0)
    """Visits (turns at the table, S2 R5/R6) per side: points per visit is the billiards average."""
    recorded_winner: str | None = None
    end_reason: str | None = None
    breaker: str | None = None
    """The side due to break this frame (S3 R3(b)); the next frame's breaker alternates from it."""


@dataclass(slots=True)
class MatchResult:
    """The replay of one match."""

    match: str
    rules: str
    sides: dict[str, str]
    frames: list[FrameResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    """Findings that belong to no frame (e.g. an unknown record before the first frame)."""
    corrections: list[Correction] = field(default_factory=list)
    """Officials' corrections applied to the log before this replay (docs/format.md section 6)."""
