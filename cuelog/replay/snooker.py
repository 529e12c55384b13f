"""The snooker rules engine: WPBSA Official Rules 2024, Sections 2-4, and its editions.

Read beside the rule book. The engine is a pure fold over the records of one frame:

    state = new_frame(match, frame, previous)
    for record in records:
        state, outcome, findings = apply(state, record)
    result = finish(state)

``apply`` never changes the state it is given (the simulator calls it to learn what a
stroke is worth before writing its calls). ``replay_frame`` runs the same fold in place.

Two questions per stroke: what the facts make the *due* call (the :class:`Outcome`),
and where the recorded calls differ (the findings). The table follows what really
happened: a foul nobody called is condoned (S3 R10(c)) and play continues as the
officials let it; a colour left off the table stays off until it is corrected (S3 R7(c)).

Editions (``snooker/six-reds-2024``, ``snooker/shootout-2024``, ``snooker/classic``) are
:class:`Edition` parameters read at the few places where their rule differs.

A stroke goes through steps named after the rules they apply (:func:`_judge_stroke`): who
may play, the ball on, the free ball (S3 R12, in one section), fouls and their value,
scoring, the calls as made, the table after, the scoreboard, respots, the frame's end and
the next turn. A stroke after strokes missing from the log is judged by
:func:`_stroke_after_gap` (docs/rulings.md S51).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from cuelog.replay.common import leader, stroke_gap
from cuelog.replay.ledger import Ledger
from cuelog.replay.model import (
    CONDONED_FOUL,
    FRAME_END_ERROR,
    FREE_BALL_ERROR,
    INVALID_RECORD,
    MISS_ERROR,
    PENALTY_VALUE,
    RESPOT_IN_ERROR,
    RESPOT_MISSING,
    RESPOT_WRONG_SPOT,
    SCORE_MISMATCH,
    TIME_FOUL_ERROR,
    TIME_FOUL_UNCALLED,
    UNSUPPORTED_FOUL,
    WRONG_STRIKER,
    Finding,
    FrameResult,
    Outcome,
)
from cuelog.replay.snooker_editions import Edition
from cuelog.schemas.records import (
    Choice,
    Clock,
    Event,
    Frame,
    FrameEnd,
    FrameRecord,
    Match,
    Stroke,
    TypedStroke,
    other,
)

__all__ = [
    "COLOURS",
    "EDITIONS",
    "SPOTS",
    "VALUE",
    "Edition",
    "State",
    "apply",
    "editions",
    "finish",
    "new_frame",
    "penalty_points_required",
    "points_remaining",
    "replay_frame",
    "snookered",
    "snookered_in_hand",
]

# -- balls, values and spots (S3 R1(a), S1 R1(f)) ------------------------------------------

COLOURS: Final = ("yellow", "green", "brown", "blue", "pink", "black")
"""The colours in ascending order of value: the order they are on after the Reds (S3 R3(h)(iii))."""

VALUE: Final[dict[str, int]] = {"red": 1, "yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}
_BIT: Final = {c: 1 << i for i, c in enumerate(COLOURS)}
_ALL_COLOURS: Final = (1 << len(COLOURS)) - 1
_BLACK: Final = 5

# Spot centres in mm on a standard table (docs/format.md section 3): origin bottom-left seen
# from baulk, x across 0..1778, y along 0..3569. Baulk-line 737 mm (29 in) from the bottom
# cushion, "D" radius 292 mm (11.5 in), Black 324 mm from the Top cushion, Pink midway
# between the Blue and the Top cushion (S1 R1(d)-(f)).
_CX = 1778 / 2
SPOTS: Final[dict[str, tuple[float, float]]] = {
    "yellow": (_CX + 292.0, 737.0),
    "green": (_CX - 292.0, 737.0),
    "brown": (_CX, 737.0),
    "blue": (_CX, 3569 / 2),
    "pink": (_CX, (3569 / 2 + 3569) / 2),
    "black": (_CX, 3569 - 324.0),
}
_BALL_MM: Final = 52.5
"""Ball diameter: a spot is occupied when a ball on it would touch another (S2 R18)."""

Point = tuple[float, float]

_TABLE_MM: tuple[float, float] = (1778.0, 3569.0)
"""The standard playing area (docs/format.md section 3): what ``SPOTS`` are measured on. Not
``Final``: a compiled build (benchmarks/compile_engines.py) cannot take a ``Final`` tuple as
the default of a cached function."""
_D_RADIUS: Final = 292.0
_D_STEP: Final = 10.0
"""Spacing in mm of the positions in the "D" from which an in-hand snooker is judged."""


def _d_positions(centre: Point = SPOTS["brown"], radius: float = _D_RADIUS) -> tuple[Point, ...]:
    """Cue-ball positions on or within the lines of the "D" (S2 R17(a), S3 R5): a grid at
    ``_D_STEP`` over the half-disc behind the Baulk-line plus points along its two lines."""
    cx, cy = centre
    r = radius
    pts: list[Point] = []
    steps = int(r // _D_STEP)
    for i in range(-steps, steps + 1):
        for j in range(0, steps + 1):
            x, y = cx + i * _D_STEP, cy - j * _D_STEP
            if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                pts.append((x, y))
    arc = int(math.pi * r // _D_STEP)
    for k in range(arc + 1):
        a = math.pi * k / arc
        pts.append((cx + r * math.cos(a), cy - r * math.sin(a)))
    return tuple(pts)


_D_POSITIONS: Final = _d_positions()


_JAW_MM: Final = 2 * _BALL_MM
"""How near a pocket a ball must be for a curved cushion face (a jaw) to come between it
and the cue-ball; the log has no pocket geometry to say more (FORMAT 3)."""


@dataclass(frozen=True, slots=True)
class Table:
    """The spots, the "D" and the pockets of a playing area (S1 R1(d)-(f)): the standard
    measures scaled to the match's ``table_mm``, as the billiards engine scales its spots."""

    size: tuple[float, float]
    spots: dict[str, Point]
    d_positions: tuple[Point, ...]
    pockets: tuple[Point, ...]

    def near_jaw(self, p: Point) -> bool:
        return any((p[0] - x) ** 2 + (p[1] - y) ** 2 < _JAW_MM * _JAW_MM for x, y in self.pockets)


@functools.lru_cache(maxsize=16)
def table_of(size: tuple[float, float] = _TABLE_MM) -> Table:
    """The :class:`Table` of a playing area ``size`` (width, length) in mm."""
    sx, sy = size[0] / _TABLE_MM[0], size[1] / _TABLE_MM[1]
    spots = {c: (x * sx, y * sy) for c, (x, y) in SPOTS.items()}
    w, length = size
    pockets = ((0.0, 0.0), (w, 0.0), (0.0, length / 2), (w, length / 2), (0.0, length), (w, length))
    standard = size == _TABLE_MM
    d = _D_POSITIONS if standard else _d_positions(spots["brown"], _D_RADIUS * sx)
    return Table(size, spots, d, pockets)


STANDARD: Final = table_of()

# Phases of the ball on (S3 R3(g),(h)).
RED: Final = 0
"""Red (or a free ball nominated as Red) is on: the first stroke of a turn while Reds remain."""
COLOUR: Final = 1
"""A colour of the striker's choice is on, after a Red was potted (S3 R3(h)(i))."""
SEQUENCE: Final = 2
"""The colours are on in ascending order (S3 R3(h)(iii)); ``State.seq`` is the one on."""


# -- editions --------------------------------------------------------------------------


EDITIONS: Final[dict[str, Edition]] = {
    e.name: e
    for e in (
        Edition("wpbsa-2024"),
        # S3 R19: six Reds, up to five FOUL AND A MISS replays, no frame award.
        Edition("six-reds-2024", reds=6, warn_after=4, miss_cap=5, miss_award=False, snooker_behind_nominated=True),
        # Seed 000: the older edition (RULES-DIGEST DIFFERENCES A).
        Edition(
            "classic",
            pen="S3 R12",
            free_ball="S3 R10",
            miss_black_only=False,
            replace_after_event_foul=False,
            award_non_striker=False,
            concede_striker_only=True,
            out_of_turn_foul=True,
            deferred_points=False,
            non_striker_penalty=False,
            touching_starts_sequence=False,
            declare_when_snookered=True,
            cushion_face_unsnookers=True,
            warning_survives_event_foul=True,
            replace_cue_ball_only=True,
            fb_snooker_after_scoring=True,
            fb_snooker_black_and_any=False,
            forfeit_points=True,
            time_wasting_warning_first=False,
            rerack_respotted_black_only=False,
            renumber=(("(b)(x)", "(b)(vii)"),),
        ),
        # SO 13, 15-17, 19.
        Edition(
            "shootout-2024",
            miss_rule=False,
            play_again=False,
            in_hand_after_foul=True,
            respot_black_on_tie=False,
            no_cushion_foul=True,
            time_foul=True,
        ),
    )
}
editions: Final[dict[str, Edition]] = EDITIONS
"""The engine protocol's name for :data:`EDITIONS` (:class:`cuelog.replay.engine.Engine`)."""

# Referee-judged infringements (docs/format.md stroke ``infringements``): the penalty item of
# S3 R11 and whether the ball concerned counts ("b") or only the ball on ("a"), or seven.
_INFRINGEMENTS: Final[dict[str, tuple[str, str]]] = {
    "double_hit": ("a", "(a)(ii)"),
    "feet_off_floor": ("a", "(a)(iii)"),
    "jump_shot": ("a", "(a)(x)"),
    "non_standard_cue": ("a", "(a)(xi)"),
    "coaching": ("a", "(a)(xii)"),
    "balls_moving": ("b", "(b)(i)"),
    "before_spotted": ("b", "(b)(ii)"),
    "push_stroke": ("b", "(b)(v)"),
    "touching_ball_moved": ("b", "(b)(v)"),
    "touched_ball": ("b", "(b)(vi)"),
    "ball_off_table_used": ("7", "(d)(i)"),
    "measuring": ("7", "(d)(ii)"),
    "wrong_cue_ball": ("7", "(d)(iv)"),
}


_TEXT: Final[dict[str, str]] = {
    "in_hand": "cue-ball played from outside the D",
    "no_contact": "the cue-ball hit no ball",
    "reds_successive": "a Red played at straight after a Red",
    "cue_ball_potted": "cue-ball pocketed",
    "no_cushion": "no ball reached a cushion or a pocket",
    "out_of_turn": "played out of turn",
    "before_spotted": "struck before the referee had finished spotting a colour",
    "free_ball_snooker": "cue-ball left snookered by the nominated free ball",
    "snookered_behind_nominated": "opponent left snookered behind the nominated colour",
}


def _describe(code: str, stroke: Stroke, on: str) -> str:
    """The foul in words, for a finding's message."""
    if code == "first_contact":
        return f"{stroke.first[0]} hit first with {on} on"
    if code == "simultaneous":
        return f"{' and '.join(stroke.first)} hit simultaneously"
    if code == "ball_not_on_potted":
        return f"ball not on potted ({', '.join(b for b in stroke.potted if b != 'white')}) with {on} on"
    if code == "off_table":
        return f"{', '.join(stroke.off_table or ())} forced off the table"
    return _TEXT.get(code, code.replace("_", " "))


# -- state -----------------------------------------------------------------------------


Positions = list[tuple[str, float, float]]


@dataclass(slots=True)
class _Foul:
    """The last foul, kept until the incoming player's choice is known."""

    n: int
    offender: str
    snapshot: tuple[int, int, int, int, bool]
    """Table before the foul: reds, colours, phase, seq, in_hand (for replacing, S3 R10(i), R14(b))."""
    miss: bool
    free_ball: bool
    before_stroke: bool
    """A foul with no stroke (an ``event`` of kind ``foul``, S3 R10(i))."""
    needed: bool = False
    """A player needed penalty points before or as a result of the foul (S3 R19(b)(iii))."""
    after_replace: bool = False
    """The offender was playing again from the original position after a FOUL AND A MISS."""
    rest: Positions | None = None
    """Rest positions before the foul (the original position), when recorded."""


@dataclass(slots=True)
class State:
    """Everything the rules need to know about a frame between two records.

    The table is compact: the number of Reds and a bit mask of the colours on it.
    """

    edition: Edition
    frame: int
    breaker: str | None
    """The side due to break under S3 R3(b) (the correct order, whoever actually broke)."""
    reds: int
    colours: int = _ALL_COLOURS
    phase: int = RED
    seq: int = 0
    in_hand: bool = True
    anywhere: bool = False
    """The cue-ball may be placed anywhere (SO 15, six-reds S3 R19(b)(iii))."""
    to_play: str | None = None
    """The side entitled to play the next stroke (None: not known, e.g. the first stroke)."""
    turn_of: str | None = None
    """The side whose turn is in progress (it played the last stroke and may continue)."""
    free_ball: bool = False
    """FREE BALL was called for the player to play (S3 R12)."""
    foul: _Foul | None = None
    miss_seq: int = 0
    """Consecutive FOUL AND A MISS calls from the original position (S3 R14(d))."""
    warned: bool = False
    replaced: bool = False
    """The balls were replaced after a FOUL AND A MISS: the next failure continues the sequence."""
    due_award: str | None = None
    """The side the frame is due to be awarded to after a warned failure (S3 R14(d)(ii))."""
    respotted_black: bool = False
    over: bool = False
    winner: str | None = None
    end_reason: str | None = None
    end_n: int = 0
    late_reported: bool = False
    aggregate: bool = False
    """Aggregate points decide the match (no claims, no re-spotted Black, S2 R1(b),(c), S3 R4(a)(ii))."""
    missing: int = 0
    """Colours reported ``respot_missing`` and not seen since: a later pot of one shows it was
    put back, which is the same error, not a new one (FORMAT 7, each discrepancy once)."""
    in_error: int = 0
    """Colours potted in sequence and spotted in error, still on the table (S3 R7(b)). Until
    the error is discovered they are played as correctly spotted (R7(c)): the lowest is on."""
    resume: int = 0
    """The colour on (``seq``) once no colour spotted in error is left (S3 R7(b))."""
    deferred: tuple[int, str, str, int] | None = None
    """(stroke, side, colour, points) of a colour spotted in error and potted again: its
    points count once the next stroke is played or an infringement committed (S3 R7(b))."""
    nomination: str | None = None
    """A free ball named with the ``choice`` (FORMAT ``choice.nominated``)."""
    start_reds: int = 15
    opener: str | None = None
    """Who made the opening stroke (of the frame, or of the re-spotted Black): they open again after a re-rack (S3 R17(c),(d))."""
    rest: tuple[int, Positions] | None = None
    """Rest positions after stroke ``n``, spotted colours included: the position the next
    stroke is played from (S3 R14(c),(d))."""
    full_ball: bool | None = None
    """At the original position of the FOUL AND A MISS sequence, central full-ball contact
    (or a touching ball) was available (S3 R14(d)); ``None`` when positions do not tell."""
    time_wasting_warned: tuple[str, ...] = ()
    """Sides Warned for time wasting in this frame (S4 R3(a))."""
    time_fouls: tuple[int, ...] = ()
    """``after`` of each time foul recorded (SO 16)."""
    resync: bool = False
    """After a gap in the strokes, the recorded state does not yet agree with the rules (S51)."""
    gap_scored: bool = False
    """After a gap, the official score has been taken from a recorded scoreboard (S51)."""
    gap_strokes: int = 0
    """How many strokes the last gap left out."""
    last_n: int = 0
    table: Table = STANDARD
    """Spots, "D" and pockets of the match's table (``table_mm``, S1 R1)."""
    ledger: Ledger = field(default_factory=Ledger)
    recorded_end: FrameEnd | None = None
    findings: list[Finding] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)

    def copy(self) -> State:
        state = copy.copy(self)
        state.ledger = self.ledger.copy()
        state.findings = list(self.findings)
        state.outcomes = list(self.outcomes)
        return state

    @property
    def black_only(self) -> bool:
        return self.reds == 0 and self.phase == SEQUENCE and self.seq == _BLACK

    def ball_on(self) -> str:
        """The ball on as a word: ``red``, ``colour`` (any colour), or the colour in sequence."""
        if self.phase == RED:
            return "red"
        if self.phase == COLOUR:
            return "colour"
        return COLOURS[min(self.seq, _BLACK)]


def points_remaining(state: State) -> int:
    """Points still available on the table: Reds 8 each with the colours 27 (S4 R2(f)).

    After a Red is potted the colour that may follow adds 7 more. In the sequence the
    colours still to come count as if spotted (S4 R2(f): "any colour incorrectly off the
    table shall be counted as if spotted").
    """
    if state.phase == SEQUENCE:
        return sum(VALUE[c] for c in COLOURS[state.seq :])
    return state.reds * 8 + 27 + (7 if state.phase == COLOUR else 0)


def penalty_points_required(state: State) -> bool:
    """Whether any player needs penalty points to win: behind by more than the points left.

    A player exactly that far behind can still tie and force a re-spotted Black, so does
    not need penalty points (S3 R4(b)). See docs/rulings.md.
    """
    a, b = state.ledger.official
    return abs(a - b) > points_remaining(state)


def new_frame(match: Match, frame: Frame, previous: FrameResult | None = None) -> State:
    """The state at the start of a frame: all balls set up, cue-ball in hand (S3 R2, R5).

    The number of Reds is the frame's ``reds``, else the match's, else the edition's
    (S3 R21(c)). The due breaker alternates from the previous frame's due breaker
    (S3 R3(b)); a wrong starter does not change the order (S3 R3(d)(ii)).
    """
    edition = EDITIONS[match.rules.split("/", 1)[1]]
    reds = frame.reds if frame.reds is not None else match.reds if match.reds is not None else edition.reds
    if previous is not None and previous.breaker is not None:
        breaker: str | None = other(previous.breaker)
    else:
        breaker = frame.breaker
    state = State(edition, frame.frame, breaker, reds, phase=RED if reds > 0 else SEQUENCE, start_reds=reds)
    state.aggregate = bool(match.aggregate)
    state.to_play = breaker
    if match.table_mm is not None and len(match.table_mm) == 2:
        state.table = table_of((float(match.table_mm[0]), float(match.table_mm[1])))
    return state


# -- the fold --------------------------------------------------------------------------


def apply(state: State, record: FrameRecord) -> tuple[State, Outcome | None, list[Finding]]:
    """Apply one record to a state; the given state is left unchanged.

    Returns the new state, the due call of a stroke (``None`` for other records) and the
    findings the record raises.
    """
    state = state.copy()
    outcome, findings = _apply(state, record)
    return state, outcome, findings


def _apply(state: State, record: FrameRecord) -> tuple[Outcome | None, list[Finding]]:
    before = len(state.findings)
    outcome: Outcome | None = None
    if isinstance(record, Stroke):
        outcome = _stroke(state, record)
        if outcome is not None:
            state.outcomes.append(outcome)
    elif isinstance(record, Choice):
        _open_gap(state, record.after + 1)
        if state.resync:
            _choice_after_gap(state, record)
        else:
            _choice(state, record)
    elif isinstance(record, Event):
        _open_gap(state, record.after + 1)
        _event(state, record)
    elif isinstance(record, FrameEnd):
        if state.resync:
            _end_after_gap(state, record)
        _frame_end(state, record)
    elif isinstance(record, Clock):
        _clock(state, record)
    return outcome, state.findings[before:]


def finish(state: State) -> FrameResult:
    """The frame's result: official and recorded score, winner, breaks, findings.

    The given state is left unchanged (the break in progress is closed on a copy).
    """
    return _finish(state.copy())


def _finish(state: State) -> FrameResult:
    state.ledger.close()
    recorded: tuple[int, int] | None = None
    if state.recorded_end is not None and state.recorded_end.score is not None and len(state.recorded_end.score) == 2:
        recorded = (state.recorded_end.score[0], state.recorded_end.score[1])
    elif state.ledger.recorded is not None:
        recorded = (state.ledger.recorded[0], state.ledger.recorded[1])
    winner = state.winner
    if not state.over and state.recorded_end is not None:
        a, b = state.ledger.official
        winner = "A" if a > b else "B" if b > a else None
    return FrameResult(
        frame=state.frame,
        score=state.ledger.score(),
        recorded=recorded,
        winner=winner,
        breaks=list(state.ledger.breaks),
        findings=sorted(state.findings, key=Finding.sort_key),
        outcomes=list(state.outcomes),
        visits=(state.ledger.visits[0], state.ledger.visits[1]),
        recorded_winner=state.recorded_end.winner if state.recorded_end is not None else None,
        end_reason=state.end_reason,
        breaker=state.breaker if state.breaker is not None else state.opener,
    )


def replay_frame(
    match: Match, frame: Frame, records: Sequence[FrameRecord], previous: FrameResult | None
) -> FrameResult:
    """Replay the records of one frame (the engine entry point of ``cuelog.replay``)."""
    state = new_frame(match, frame, previous)
    outcomes = state.outcomes
    for record in records:
        if type(record) is TypedStroke or type(record) is Stroke:
            outcome = _stroke(state, record)
            if outcome is not None:
                outcomes.append(outcome)
        else:
            _apply(state, record)
    return _finish(state)


# -- snookered (S2 R17), from rest positions -------------------------------------------


def _seg_dist2(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    u = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    qx, qy = a[0] + u * dx - p[0], a[1] + u * dy - p[1]
    return qx * qx + qy * qy


def _blockers(cue: Point, target: Point, others: Sequence[Point]) -> list[Point]:
    """Balls not on that obstruct a straight stroke at either extreme edge of ``target``.

    S2 R17: the cue-ball is not snookered on a ball it can hit at both extreme edges; to
    graze an edge its centre travels to a point one ball diameter beside the target's centre.
    """
    dx, dy = target[0] - cue[0], target[1] - cue[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length <= _BALL_MM:
        return []  # touching: nothing can be in between
    nx, ny = -dy / length * _BALL_MM, dx / length * _BALL_MM
    edges = ((target[0] + nx, target[1] + ny), (target[0] - nx, target[1] - ny))
    limit = _BALL_MM * _BALL_MM - 1e-6
    return [o for o in others if any(_seg_dist2(o, cue, e) < limit for e in edges)]


def snookered(cue: Point, on: Sequence[Point], not_on: Sequence[Point]) -> frozenset[Point] | None:
    """The effective snookering balls if the cue-ball is snookered on every ball ``on`` (S2 R17).

    ``None`` when some ball on can be hit at both extreme edges. Per ball on, the
    obstructing ball nearest the cue-ball is effective (R17(b)); the union over the balls
    on is returned, so "snookered by X" is a result of exactly ``{X}`` (R17(c)).
    """
    if not on:
        return None
    effective: set[Point] = set()
    for target in on:
        blocking = _blockers(cue, target, not_on)
        if not blocking:
            return None
        d = [((b[0] - cue[0]) ** 2 + (b[1] - cue[1]) ** 2) ** 0.5 for b in blocking]
        nearest = min(d)
        effective.update(b for b, x in zip(blocking, d, strict=True) if x - nearest < 1.0)
    return frozenset(effective)


def snookered_in_hand(
    on: Sequence[Point], not_on: Sequence[Point], *, d_positions: Sequence[Point] = _D_POSITIONS
) -> bool:
    """Whether the cue-ball in hand is snookered: obstructed "from all possible positions on
    or within the lines of the D" (S2 R17(a)), judged from the positions of ``_d_positions``
    (``d_positions``: those of a table of another size, :class:`Table`)."""
    if not on:
        return False
    return all(snookered(p, on, not_on) is not None for p in d_positions)


def _snooker_from(
    positions: list[tuple[str, float, float]],
    on_balls: Sequence[str],
    *,
    in_hand: bool = False,
    jaws: bool = False,
    table: Table = STANDARD,
) -> frozenset[Point] | bool | None:
    """Snookered on ``on_balls`` from the recorded positions; ``False`` when they cannot tell.

    With the cue-ball in hand the result is ``frozenset()`` (snookered, S2 R17(a)) or ``None``.
    ``jaws``: a curved cushion face can unsnooker (older S2 R17(e)), so a ball on, or the
    cue-ball, by a pocket makes the answer undecidable.
    """
    on = [(x, y) for b, x, y in positions if b in on_balls]
    if not on:
        return False
    if jaws and any(table.near_jaw((x, y)) for b, x, y in positions if b in on_balls or (b == "white" and not in_hand)):
        return False
    not_on = [(x, y) for b, x, y in positions if b != "white" and b not in on_balls]
    if in_hand:
        return frozenset() if snookered_in_hand(on, not_on, d_positions=table.d_positions) else None
    cue = next(((x, y) for b, x, y in positions if b == "white"), None)
    if cue is None:
        return False
    return snookered(cue, on, not_on)


def _path_clear(cue: Point, contact: Point, others: Sequence[Point]) -> bool:
    """No ball's centre within one diameter of the cue-ball's straight path to ``contact``."""
    limit = _BALL_MM * _BALL_MM - 1e-6
    return all(_seg_dist2(o, cue, contact) >= limit for o in others)


_AIMS: Final = tuple(-50.0 + 5.0 * i for i in range(21))
"""Offsets in mm across a ball at which a straight stroke can contact it."""


def _miss_geometry(rest: Positions, phase: int, on_names: Sequence[str]) -> tuple[bool, bool, bool] | None:
    """From the position a stroke was played from: (a clear straight path to some part of a
    ball that is or could be on, S3 R14(c); central full-ball contact available, Reds: a
    Red whose full diameter no colour obstructs, S3 R14(d); the cue-ball touching a ball
    that could be on). ``None`` when the positions cannot tell."""
    cue = next(((x, y) for b, x, y in rest if b == "white"), None)
    if phase == RED:
        names: Sequence[str] = ("red",)
    elif phase == COLOUR:
        names = COLOURS  # any colour could be on after a Red (S3 R14(a))
    else:
        names = on_names
    targets = [(x, y) for b, x, y in rest if b in names]
    if cue is None or not targets:
        return None
    clear = full = touching = False
    for t in targets:
        others = [(x, y) for b, x, y in rest if b != "white" and (x, y) != t]
        dx, dy = t[0] - cue[0], t[1] - cue[1]
        length = (dx * dx + dy * dy) ** 0.5
        if length <= _BALL_MM + 0.5:
            touching = True
            continue
        ux, uy = dx / length, dy / length
        centre = (t[0] - ux * _BALL_MM, t[1] - uy * _BALL_MM)
        if phase == RED:
            colours = [(x, y) for b, x, y in rest if b in _BIT]
            full = full or not _blockers(cue, t, colours)
        else:
            full = full or _path_clear(cue, centre, others)
        if not clear:
            for d in _AIMS:
                back = (_BALL_MM * _BALL_MM - d * d) ** 0.5
                contact = (t[0] - uy * d - ux * back, t[1] + ux * d - uy * back)
                if _path_clear(cue, contact, others):
                    clear = True
                    break
    return clear, full, touching


def _table_after(
    pos: Positions, stroke: Stroke, due: list[tuple[str, str]], spots: dict[str, Point]
) -> Positions | None:
    """The rest positions with the colours spotted after the stroke on their spots;
    ``None`` when a spotted colour's place is not known (``near``)."""
    listed = {b for b, _, _ in pos}
    placed: Positions = []
    if stroke.respots is not None:
        for r in stroke.respots:
            if r.ball in listed or r.ball == "red":
                continue
            if r.x is not None and r.y is not None:
                placed.append((r.ball, r.x, r.y))
            elif r.spot in spots:
                placed.append((r.ball, *spots[r.spot]))
            else:
                return None
    else:
        if any(sp not in spots for b, sp in due if b not in listed):
            return None
        placed = [(b, *spots[sp]) for b, sp in due if b not in listed]
    return [*pos, *placed] if placed else pos


def _position(positions: list[tuple[str, float, float]], ball: str) -> Point | None:
    return next(((x, y) for b, x, y in positions if b == ball), None)


def _incoming_on(positions: list[tuple[str, float, float]], seq_colour: str) -> tuple[str, ...]:
    """The ball on for the next turn, from the positions: Red while any is left, else the colour."""
    return ("red",) if any(b == "red" for b, _, _ in positions) else (seq_colour,)


# -- strokes ---------------------------------------------------------------------------


def _add(state: State, *, n: int, kind: str, rule: str, side: str | None, points: int, message: str) -> None:
    state.findings.append(Finding(n=n, kind=kind, rule=rule, side=side, points=points, message=message))


def _frame_over_stroke(state: State, n: int) -> None:
    if not state.late_reported:
        state.late_reported = True
        _add(
            state,
            n=n,
            kind=FRAME_END_ERROR,
            rule="S2 R1",
            side=None,
            points=0,
            message=f"play continued after the frame ended at stroke {state.end_n}",
        )


def _end(state: State, n: int, winner: str | None, reason: str) -> None:
    state.over, state.winner, state.end_reason, state.end_n = True, winner, reason, n


_FAST = True
"""Use :func:`_clean_stroke` for strokes that cannot raise anything (switched off in a test)."""


def _clean_points(state: State, stroke: Stroke, first: list[str], striker: str) -> int | None:
    """What a clean stroke scores (see :func:`_clean_stroke`); ``None`` when it is not one.
    ``first`` and ``striker`` are the stroke's, read once by the caller (the hot loop)."""
    potted = stroke.potted
    if (
        len(first) != 1
        or stroke.call is not None
        or stroke.infringements
        or stroke.off_table
        or stroke.positions is not None
        or state.foul is not None
        or state.free_ball
        or state.over
        or state.due_award is not None
        or striker != state.to_play
        or (state.in_hand and stroke.placement == "illegal")
        or state.edition.no_cushion_foul
    ):
        return None
    ball = first[0]
    nom, phase = stroke.nominated, state.phase
    if phase == RED:
        if ball != "red" or (nom is not None and nom != "red") or potted.count("red") != len(potted):
            return None
        if len(potted) > state.reds:
            return None
        scored = len(potted)
    else:
        if phase == COLOUR:
            if state.turn_of != striker or ball not in _BIT or not state.colours & _BIT[ball]:
                return None
        elif (
            state.seq > _BLACK
            # The Black alone: a pot of it ends the frame or re-spots it (S3 R4); a clean
            # stroke that pots nothing passes the turn like any other.
            or (state.seq == _BLACK and potted)
            or state.in_error
            or ball != COLOURS[state.seq]
            or not state.colours & _BIT[ball]
        ):
            return None
        if (nom is not None and nom != ball) or (potted and potted != [ball]):
            return None
        scored = VALUE[ball] if potted else 0
    respots = stroke.respots
    if respots is not None:
        if phase == COLOUR and scored > 0:
            if (
                len(respots) != 1
                or respots[0].ball != ball
                or _respot_name(respots[0].spot, respots[0].x, respots[0].y, state.table.spots) != ball
            ):
                return None
        elif respots:
            return None
    return scored


def _clean_stroke(state: State, stroke: Stroke, n: int) -> Outcome | None:
    """The common case, done cheaply: a legal stroke at the ball on, by the player entitled
    to it, with nothing called, nothing off the table and nothing that needs positions.

    Returns ``None`` (and changes nothing) whenever the stroke is not such a stroke; the
    general path :func:`_stroke` then decides. Both give the same result, which
    ``tests/test_snooker_properties.py`` checks.
    """
    first, striker = stroke.first, stroke.striker
    scored = _clean_points(state, stroke, first, striker)
    if scored is None:
        return None
    ball, phase = first[0], state.phase
    spot_due = phase == COLOUR and scored > 0

    # -- the stroke is clean: apply it (same effects as the general path) --
    state.last_n = n
    state.in_hand = state.anywhere = False
    if phase == RED:
        state.reds -= scored
        if scored:
            state.phase = COLOUR
    elif phase == COLOUR:
        state.phase = RED if state.reds > 0 else SEQUENCE
    elif scored:
        state.colours &= ~_BIT[ball]
        state.seq += 1
    state.replaced, state.miss_seq, state.warned = False, 0, False
    ledger = state.ledger
    mismatch = ledger.stroke(n, striker, scored, 0, stroke.score)
    if mismatch is not None:
        state.findings.append(mismatch)
    break_id = len(ledger.breaks) + 1 if scored > 0 else None
    if scored:
        state.turn_of = state.to_play = striker
    else:
        ledger.end_visit()
        state.turn_of = None
        state.to_play = other(striker)
        if state.phase == COLOUR:
            state.phase = RED if state.reds > 0 else SEQUENCE
    if state.phase == SEQUENCE:
        _black_only_award(state, n)  # S2 R1(c): only with the Black alone left
    # Positional, in the field order of Outcome: this is the hot loop.
    return Outcome(
        n,
        striker,
        scored,
        0,
        False,
        (),
        "red" if phase == RED else ball,
        False,
        False,
        ((ball, ball),) if spot_due else (),
        not scored or state.over,
        state.to_play,
        ledger.score(),
        break_id,
        ledger.visit_id,
        state.over,
        state.winner,
        ledger.credited,
    )


def _stroke(state: State, stroke: Stroke) -> Outcome | None:
    n = stroke.n
    if n > state.last_n + 1 or state.resync:
        return _stroke_after_gap(state, stroke)
    if state.opener is None:
        state.opener = stroke.striker
    if _FAST:
        done = _clean_stroke(state, stroke, n)
        if done is not None:
            return done
    return _judge_stroke(state, stroke)


def _stroke_after_gap(state: State, stroke: Stroke) -> Outcome | None:
    """A stroke played after strokes missing from the log (docs/rulings.md S51).

    The gap is one ``invalid_record``. What the missing strokes did is unknown: the stroke
    is judged on each table they could have left (:func:`_gap_tables`), and the one it
    agrees with best is taken (fewest findings, then the scoreboard's unexplained points
    matching what that table says the missing strokes scored). Until a stroke raises
    nothing, strokes are followed as recorded and nothing they raise is charged to the
    officials; the official score is the recorded one from the first scoreboard on.
    """
    _open_gap(state, stroke.n)
    state.to_play = stroke.striker
    state.resync = False
    before = len(state.findings)
    best: tuple[tuple[int, int, int], State, Outcome | None, bool] | None = None
    for order, (table, missing) in enumerate(_gap_tables(state, stroke)):
        trial = table.copy()
        outcome = _judge_stroke(trial, stroke)
        counted = [f for f in trial.findings[before:] if f.kind != SCORE_MISMATCH or state.gap_scored]
        key = (len(counted), _unexplained(state, trial, stroke, missing), order)
        if best is None or key < best[0]:
            best = (key, trial, outcome, bool(counted))
    assert best is not None
    _, trial, outcome, raised = best
    del trial.findings[before:]
    if stroke.score is not None and not state.gap_scored:
        trial.ledger.resync(stroke.score)
        trial.gap_scored = True
    trial.resync = raised or not trial.gap_scored
    _adopt(state, trial)
    return outcome


def _open_gap(state: State, n: int) -> None:
    """Strokes before ``n`` are missing: one ``invalid_record``, and what they may have
    left pending (a foul and its choice, a free ball, a Warning, positions) is forgotten."""
    gap = stroke_gap(state.last_n, n)
    if gap is None:
        return
    state.foul, state.free_ball, state.nomination, state.due_award, state.rest = None, False, None, None, None
    state.replaced, state.miss_seq, state.warned = False, 0, False
    state.findings.append(gap)
    state.resync, state.gap_scored, state.gap_strokes = True, False, n - state.last_n - 1
    state.last_n = n - 1


def _choice_after_gap(state: State, c: Choice) -> None:
    """A choice inside a gap's window answers a foul the log may not hold: it is followed
    as recorded (docs/rulings.md S51), and nothing it raises is charged."""
    if state.foul is None:
        snapshot = (state.reds, state.colours, state.phase, state.seq, state.in_hand)
        state.foul = _Foul(c.after, other(c.side), snapshot, True, False, False)
    before = len(state.findings)
    _choice(state, c)
    del state.findings[before:]


def _end_after_gap(state: State, fe: FrameEnd) -> None:
    """A frame that ends inside a gap's window: the recorded score and end are followed."""
    state.ledger.resync(fe.score)
    state.gap_scored = True
    if not state.over and fe.winner is not None:
        _end(state, state.last_n, fe.winner, fe.reason or "recorded")


def _unexplained(state: State, trial: State, stroke: Stroke, missing: int | None) -> int:
    """0 when the scoreboard's movement, less the stroke's own points, is what the table
    ``trial`` says the missing strokes scored for the striker (``None``: any colour, 2-7)."""
    if state.gap_scored or stroke.score is None or len(stroke.score) != 2:
        return 0
    prev = state.ledger.recorded if state.ledger.recorded is not None else state.ledger.official
    i = 0 if stroke.striker == "A" else 1
    extra = [stroke.score[k] - prev[k] - (trial.ledger.official[k] - state.ledger.official[k]) for k in (0, 1)]
    if extra[1 - i] != 0:
        return 1
    return 0 if (2 <= extra[i] <= 7 if missing is None else extra[i] == missing) else 1


def _gap_tables(state: State, stroke: Stroke) -> list[tuple[State, int | None]]:
    """The tables the missing strokes could have left, with the points they scored for the
    striker: nothing changed (0); a Red potted by the striker, a colour on (1); a colour
    after a Red potted and spotted, the turn going on (2-7); the colour on in sequence potted
    (its value); with no more Reds than missing strokes, the Reds and the colours below the
    one hit first all gone (not counted)."""
    tables: list[tuple[State, int | None]] = [(state, 0)]
    going_on = state.copy()
    going_on.turn_of = stroke.striker
    going_on.phase = RED if state.reds > 0 else SEQUENCE
    if state.reds > 0:
        red = going_on.copy()
        red.reds, red.phase = state.reds - 1, COLOUR
        tables.append((red, 1))
    if state.phase != SEQUENCE:
        tables.append((going_on, None))
    if state.phase == SEQUENCE and state.seq < _BLACK and state.colours & _BIT[COLOURS[state.seq]]:
        potted = going_on.copy()
        potted.colours &= ~_BIT[COLOURS[state.seq]]
        potted.seq = state.seq + 1
        tables.append((potted, VALUE[COLOURS[state.seq]]))
    first = stroke.first[0] if len(stroke.first) == 1 else None
    if first in _BIT and state.reds <= state.gap_strokes:
        colours = going_on.copy()
        colours.reds, colours.phase, colours.seq = 0, SEQUENCE, COLOURS.index(first)
        colours.colours &= ~(_BIT[first] - 1)
        tables.append((colours, 0))
    return tables


def _adopt(state: State, other_state: State) -> None:
    """Make ``state`` the state ``other_state`` (a stroke's result is kept in the caller's state)."""
    for f in dataclasses.fields(State):
        if f.name in ("findings", "outcomes"):
            # The same lists: the fold may hold them (replay_frame appends to ``outcomes``).
            getattr(state, f.name)[:] = getattr(other_state, f.name)
        else:
            setattr(state, f.name, getattr(other_state, f.name))


class _Play:
    """What the rules make of one stroke, built up step by step by :func:`_judge_stroke`.

    A plain class, as billiards' is: the steps set what they find, the class gives the
    defaults, and only the fields every stroke needs are set at once (a dataclass's
    ``__init__`` set all forty, and stayed interpreted Python in the compiled build)."""

    stroke: Stroke
    n: int
    striker: str
    spotting: tuple[str, bool, int] | None = None
    free_ball: bool = False
    """FREE BALL is in effect for this stroke (called after the opponent's foul, S3 R12)."""
    snapshot: tuple[int, int, int, int, bool] = (0, 0, 0, 0, False)
    rest: Positions | None = None
    out_of_turn: bool = False
    nom: str | None = None
    fb: str | None = None
    """The nominated free ball, when one is taken (S3 R12(a))."""
    fb_without_call: bool = False
    on_names: tuple[str, ...] = ()
    on_value: int = 0
    ball_on_word: str = "red"
    fouls: list[tuple[int, str, str]]
    """Every foul the facts show: (penalty, rule, code) (S3 R11)."""
    miss_type: bool = False
    unscored: int = 0
    penalty: int = 0
    penalty_hi: int = 0
    rule: str = ""
    what: str = ""
    reasons: tuple[str, ...] = ()
    reds_potted: int = 0
    reds_off: int = 0
    colours_gone: list[str]
    fb_potted: bool = False
    legal_points: int = 0
    foul_stands: bool = False
    scored: int = 0
    official_penalty: int = 0
    explained: bool = False
    findings_before: int = 0
    needed_before: bool = False
    miss_called: bool = False
    waived: bool = False
    """The edition waives FOUL AND A MISS for an offender this far behind (``miss_waived_behind``)."""
    frame_ends: bool = False
    tie: bool = False
    due_spots: list[tuple[str, str]]
    break_id: int | None = None
    free_ball_called: bool = False
    free_ball_due: bool = False
    outcome_free_ball: bool = False

    def __init__(self, stroke: Stroke, n: int, striker: str) -> None:
        self.stroke, self.n, self.striker = stroke, n, striker
        self.fouls = []
        self.colours_gone = []
        self.due_spots = []

    @property
    def due_foul(self) -> bool:
        return bool(self.fouls)


def _judge_stroke(state: State, stroke: Stroke) -> Outcome | None:
    """One stroke through the rules, step by step: the due call and the findings."""
    if state.opener is None:
        state.opener = stroke.striker
    play = _Play(stroke, stroke.n, stroke.striker)
    play.spotting = _being_spotted(state, stroke) if stroke.infringements else None
    state.last_n = play.n
    if not _who_may_play(state, play):
        return None
    _ball_on(state, play)
    _fouls(state, play)
    _foul_value(state, play)
    _scoring(state, play)
    _calls(state, play)
    _balls_after(state, play)
    _book(state, play)
    _respot_step(state, play)
    _frame_end_step(state, play)
    _next_turn(state, play)
    _black_only_award(state, play.n)  # S2 R1(c)
    due_miss = _miss_due(state, play)
    table = (
        _table_after(stroke.positions, stroke, play.due_spots, state.table.spots)
        if stroke.positions is not None
        else None
    )
    state.rest = (play.n, table) if table is not None else None
    return _outcome(state, play, due_miss)


# -- who may play (S3 R3(a),(b); after a foul S3 R10(h), R13) ----------------------------


def _who_may_play(state: State, play: _Play) -> bool:
    """Settle who was entitled to play; ``False`` when the frame is already over."""
    ed, n, striker = state.edition, play.n, play.striker
    if state.over:
        _frame_over_stroke(state, n)
        return False
    if state.due_award is not None:
        _add(
            state,
            n=n,
            kind=MISS_ERROR,
            rule="S3 R14(d)(ii)",
            side=other(state.due_award),
            points=0,
            message="a further failure after the Warning must lose the frame, but play continued",
        )
        state.due_award = None
    pending = state.foul
    if pending is not None and striker == pending.offender and state.to_play != striker and ed.play_again:
        # No choice recorded but the offender played: the non-offender asked them to
        # play again from the position left (S3 R10(h)(ii)); the free ball is void (R12(f)).
        _play_again(state, pending, replace=False, incoming=False)
    state.foul = None
    play.out_of_turn = state.to_play is not None and striker != state.to_play
    call = play.stroke.call
    if play.out_of_turn and not (ed.out_of_turn_foul and call is not None and call.foul):
        rule = "S3 R3(b),(d)" if n == 1 or state.ledger.visit_id == 0 else "S3 R3(a)"
        _add(
            state,
            n=n,
            kind=WRONG_STRIKER,
            rule=rule,
            side=striker,
            points=0,
            message=f"{striker} played but {state.to_play} was entitled to play",
        )
    if state.turn_of != striker and state.phase == COLOUR:
        # A new turn begins on a Red while Reds remain, else on the colours (S3 R3(g)).
        state.phase = RED if state.reds > 0 else SEQUENCE
    play.free_ball = state.free_ball and state.turn_of != striker
    state.free_ball = False
    play.snapshot = (state.reds, state.colours, state.phase, state.seq, state.in_hand)
    if state.rest is not None and state.rest[0] == n - 1 and not state.in_hand:
        play.rest = state.rest[1]
    return True


# -- the ball on (S3 R3(g),(h); S2 R11, R12) --------------------------------------------


def _ball_on(state: State, play: _Play) -> None:
    stroke = play.stroke
    play.nom = stroke.nominated if stroke.nominated is not None else state.nomination if play.free_ball else None
    state.nomination = None
    nom = play.nom
    if state.phase == RED:
        play.on_value, play.on_names = 1, ("red",)
    elif state.phase == COLOUR:
        colour = nom if nom in _BIT else None
        if colour is None and len(stroke.first) == 1 and stroke.first[0] in _BIT:
            # No nomination recorded: the colour hit first is taken as nominated (docs/rulings.md).
            colour = stroke.first[0]
        play.on_names = (colour,) if colour is not None else ()
        play.on_value = VALUE[colour] if colour is not None else 0
    else:
        on = COLOURS[min(state.seq, _BLACK)]
        play.on_names, play.on_value = (on,), VALUE[on]
    _free_ball_taken(state, play)
    play.ball_on_word = "red" if state.phase == RED else play.on_names[0] if play.on_names else "colour"


# -- the free ball (S3 R12) -----------------------------------------------------------------


def _free_ball_taken(state: State, play: _Play) -> None:
    """S3 R12(a): after a foul that left the incoming player snookered and FREE BALL called,
    any ball may be nominated as the ball on. A nomination with no FREE BALL called is no free
    ball (``fb_without_call``): the stroke is judged with the calls as made (S2 R13)."""
    nom, first = play.nom, play.stroke.first
    fb: str | None = None
    if state.phase != COLOUR and nom is not None and nom not in play.on_names and nom in VALUE:
        fb = nom
    hit_first = first[0] if first else None
    if (
        play.free_ball
        and fb is None
        and nom is None
        and hit_first in VALUE
        and hit_first not in play.on_names
        and hit_first != "red"
    ):
        # FREE BALL called, no nomination recorded: the ball hit first is taken as the
        # nominated free ball, as a colour hit first is taken as nominated (docs/rulings.md).
        fb = hit_first
    play.fb_without_call = fb is not None and not play.free_ball
    play.fb = None if play.fb_without_call else fb


def _free_ball_snooker(state: State, play: _Play, pos: Positions, non_scoring: bool) -> None:
    """S3 R12(b)(ii), R11(a)(viii): after a non-scoring stroke, the cue-ball left snookered by
    the nominated free ball is a foul, unless only the Black and one other colour remain."""
    ed, fb = state.edition, play.fb
    if fb is None or not (non_scoring or ed.fb_snooker_after_scoring):
        return
    seq_colour = COLOURS[min(state.seq, _BLACK)]
    left = [b for b, _, _ in pos if b != "white"]
    two_left = len(left) == 2 and "black" in left and (ed.fb_snooker_black_and_any or "pink" in left)
    eff = _snooker_from(
        pos,
        _incoming_on(pos, seq_colour) if state.phase == RED else (seq_colour,),
        jaws=ed.cushion_face_unsnookers,
        table=state.table,
    )
    fbp = _position(pos, fb)
    if not two_left and isinstance(eff, frozenset) and fbp is not None and eff == {fbp}:
        play.fouls.append((_pen(state, play), ed.cite(ed.pen, "(a)(viii)"), "free_ball_snooker"))


def _free_ball_face_value(state: State, play: _Play, mismatch: Finding) -> Finding:
    """S3 R12(a)(ii),(c): a potted free ball counts as the ball on; a scoreboard that booked
    its face value is that error, reported as such."""
    fb = play.fb
    face = VALUE[fb] if fb is not None and play.fb_potted and not play.foul_stands else 0
    red_phase_pot = play.snapshot[2] == RED and play.reds_potted
    if not face or red_phase_pot or mismatch.points != abs(face - play.scored):
        return mismatch
    return Finding(
        n=play.n,
        kind=FREE_BALL_ERROR,
        rule=state.edition.cite(state.edition.free_ball, "(c)"),
        side=play.striker,
        points=mismatch.points,
        message=f"free ball {fb} scored as {face}; it is worth the ball on, {play.scored}",
    )


def _free_ball_after_foul(state: State, play: _Play) -> None:
    """S3 R12: after a foul, FREE BALL is due exactly when the incoming player is snookered;
    in hand, from every position in the D (S2 R17(a)). The due call says so even when the
    foul was not called (the simulator asks with no call written). The next stroke is judged
    with the call as made (S2 R13): a FREE BALL due and not called is one free_ball_error."""
    ed, call = state.edition, play.stroke.call
    play.free_ball_called = bool(call is not None and call.foul and call.free_ball)
    play.free_ball_due = play.free_ball_called if play.foul_stands else False
    play.outcome_free_ball = play.free_ball_due
    pos = play.stroke.positions
    if not (play.foul_stands or play.due_foul) or state.over or pos is None or ed.in_hand_after_foul:
        return
    eff = _snooker_from(
        pos,
        _incoming_on(pos, COLOURS[min(state.seq, _BLACK)]),
        in_hand=state.in_hand,
        jaws=ed.cushion_face_unsnookers,
        table=state.table,
    )
    if eff is False:
        return
    play.outcome_free_ball = eff is not None
    if not play.foul_stands:
        return
    play.free_ball_due = eff is not None
    if play.free_ball_due != play.free_ball_called:
        wrong = (
            "called but the incoming player is not snookered"
            if play.free_ball_called
            else "not called though the incoming player is snookered"
        )
        _add(
            state,
            n=play.n,
            kind=FREE_BALL_ERROR,
            rule=ed.cite(ed.free_ball),
            side=play.striker,
            points=0,
            message="FREE BALL " + wrong,
        )


# -- fouls and their value (S3 R10, R11) -------------------------------------------------


def _pen(state: State, play: _Play, *values: int) -> int:
    """A penalty: the value of the ball on, or of a ball concerned, minimum four (S3 R11)."""
    return max(state.edition.minimum, play.on_value, *values)


def _fouls(state: State, play: _Play) -> None:
    """Every foul the facts show (S3 R11; the highest counts, S3 R10(g))."""
    ed, stroke, P = state.edition, play.stroke, state.edition.pen
    if play.out_of_turn and ed.out_of_turn_foul:
        play.fouls.append((_pen(state, play), ed.cite(P, "(a)(iv)"), "out_of_turn"))
    if state.in_hand and stroke.placement == "illegal" and not state.anywhere:
        play.fouls.append((_pen(state, play), ed.cite(P, "(a)(v)"), "in_hand"))
    _infringement_fouls(state, play)
    _contact_fouls(state, play)
    _pot_fouls(state, play)
    pos = stroke.positions
    if pos is not None and "white" not in stroke.potted:
        _positional_fouls(state, play, pos)


def _infringement_fouls(state: State, play: _Play) -> None:
    """Referee-judged infringements (FORMAT ``infringements``), S3 R11(a),(b),(d)."""
    ed, P = state.edition, state.edition.pen
    for inf in play.stroke.infringements or ():
        spec = _INFRINGEMENTS.get(inf.code)
        if spec is None:
            continue
        kind, item = spec
        concerned = inf.ball
        if inf.code == "before_spotted" and play.spotting is not None:
            # S3 R3(h)(iv): striking before the referee has completed spotting the colour
            # just potted; R11(a)(i) when that colour was a free ball, else R11(b)(ii).
            colour, was_free_ball, points = play.spotting
            concerned = concerned or colour
            if was_free_ball:
                kind, item = "a", "(a)(i)"
            play.unscored = points
        if kind == "7":
            play.fouls.append((7, ed.cite(P, item), inf.code))
        elif kind == "b":
            play.fouls.append((_pen(state, play, VALUE.get(concerned or "", 0)), ed.cite(P, item), inf.code))
        else:
            play.fouls.append((_pen(state, play), ed.cite(P, item), inf.code))


def _contact_fouls(state: State, play: _Play) -> None:
    """The first contact (S3 R11(a)(vi), (b)(iv), (c), (d)(iii); S2 R21 for the miss)."""
    ed, P, first, fb = state.edition, state.edition.pen, play.stroke.first, play.fb
    if not first:
        play.fouls.append((_pen(state, play), ed.cite(P, "(a)(vi)"), "no_contact"))
        play.miss_type = True
    elif len(first) == 1:
        b = first[0]
        if state.phase == COLOUR and fb is None and b == "red" and not play.on_names:
            # Playing at a Red straight after a Red (S3 R11(d)(iii)).
            play.fouls.append((7, ed.cite(P, "(d)(iii)"), "reds_successive"))
            play.miss_type = True
        elif b not in ((fb,) if fb is not None else ("red",) if state.phase == RED else play.on_names):
            play.fouls.append((_pen(state, play, VALUE.get(b, 0)), ed.cite(P, "(b)(iv)"), "first_contact"))
            play.miss_type = True
    else:
        pair = set(first)
        legal_pair = (state.phase == RED and fb is None and pair == {"red"}) or (
            fb is not None and fb in pair and bool(pair & ({"red"} if state.phase == RED else set(play.on_names)))
        )
        if not legal_pair:
            play.fouls.append((_pen(state, play, *(VALUE.get(b, 0) for b in first)), ed.cite(P, "(c)"), "simultaneous"))
            play.miss_type = not (pair & set(play.on_names)) and (fb is None or fb not in pair)


def _pot_fouls(state: State, play: _Play) -> None:
    """Balls pocketed or forced off (S3 R11(a)(vii), (b)(iii), (b)(x)) and SO 17."""
    ed, P, stroke = state.edition, state.edition.pen, play.stroke
    pottable = set(play.on_names) if state.phase != RED else {"red"}
    if play.fb is not None:
        pottable.add(play.fb)
    if "white" in stroke.potted:
        play.fouls.append((_pen(state, play), ed.cite(P, "(a)(vii)"), "cue_ball_potted"))
    for b in stroke.potted:
        if b != "white" and b not in pottable:
            play.fouls.append((_pen(state, play, VALUE.get(b, 0)), ed.cite(P, "(b)(iii)"), "ball_not_on_potted"))
    for b in stroke.off_table or []:
        play.fouls.append((_pen(state, play, VALUE.get(b, 0)), ed.cite(P, "(b)(x)"), "off_table"))
    cu = stroke.cushions
    # "At least one ball": the cue-ball's own cushion before its first contact counts.
    no_cushion = cu is not None and cu.after_contact is False and (cu.objects or 0) == 0 and not cu.cue_first
    if ed.no_cushion_foul and not stroke.potted and no_cushion:
        play.fouls.append((max(5, play.on_value), "SO 17", "no_cushion"))


def _positional_fouls(state: State, play: _Play, pos: Positions) -> None:
    """Fouls the rest positions show (S2 R17): the free-ball snooker (S3 R12(b)(ii)); in six
    reds, the opponent snookered behind the colour nominated after a Red (S3 R19(d), R11(a)(ix))."""
    ed = state.edition
    non_scoring = not any(b in play.stroke.potted for b in (*play.on_names, *(play.fb,)) if b)
    _free_ball_snooker(state, play, pos, non_scoring)
    if non_scoring and ed.snooker_behind_nominated and state.phase == COLOUR and play.on_names:
        nxt = _incoming_on(pos, "yellow")
        eff = _snooker_from(pos, nxt, jaws=ed.cushion_face_unsnookers, table=state.table)
        cp = _position(pos, play.on_names[0])
        if isinstance(eff, frozenset) and cp is not None and eff == {cp}:
            play.fouls.append((_pen(state, play), ed.cite(ed.pen, "(a)(ix)"), "snookered_behind_nominated"))


def _foul_value(state: State, play: _Play) -> None:
    """The penalty is the highest of the fouls (S3 R10(g)); ``penalty_hi`` the most a called
    value may be where a fact the log does not hold could raise it to seven."""
    play.reasons = tuple(code for _, _, code in play.fouls)
    if not play.fouls:
        return
    play.fouls.sort(key=lambda f: -f[0])
    play.penalty, play.rule, top = play.fouls[0]
    play.reasons = tuple(code for _, _, code in play.fouls)
    play.what = _describe(top, play.stroke, play.fb or play.ball_on_word)
    play.penalty_hi = play.penalty
    ed = state.edition
    if state.phase == COLOUR and not play.on_names and play.nom is None:
        # R11(d)(vi): a foul after potting a Red before a colour is nominated is worth seven;
        # without a nomination recorded the penalty may lie anywhere up to seven.
        play.penalty_hi = 7
    elif ed.declare_when_snookered and play.nom is None and play.rest is not None:
        # Older S3 R12(d)(v): seven for failing to declare the ball on when snookered;
        # whether a declaration was made is not in the facts, so up to seven stands.
        names = ("red",) if state.phase == RED else COLOURS if state.phase == COLOUR else play.on_names
        eff = _snooker_from(play.rest, names, jaws=True, table=state.table)
        if isinstance(eff, frozenset):
            play.penalty_hi = 7


# -- scoring (S3 R3(g),(h), R12(c)-(e)) -----------------------------------------------------


def _scoring(state: State, play: _Play) -> None:
    """What the stroke scores as if legal: used for a legal stroke, and for a foul nobody
    called, which stands as played (S3 R10(c)). Balls not on the table are invalid records."""
    stroke, n, striker = play.stroke, play.n, play.striker
    potted, off = stroke.potted, stroke.off_table or []
    play.reds_potted = potted.count("red")
    play.reds_off = play.reds_potted + off.count("red") if off else play.reds_potted
    play.colours_gone = [b for b in potted if b in _BIT]
    if off:
        play.colours_gone += [b for b in off if b in _BIT]
    for b in play.colours_gone:
        if state.missing & _BIT[b]:
            state.missing &= ~_BIT[b]
        elif not state.colours & _BIT[b]:
            _add(
                state,
                n=n,
                kind=INVALID_RECORD,
                rule="FORMAT 4",
                side=striker,
                points=0,
                message=f"{b} potted or forced off but it was not on the table",
            )
    if play.reds_off > state.reds:
        _add(
            state,
            n=n,
            kind=INVALID_RECORD,
            rule="FORMAT 4",
            side=striker,
            points=0,
            message=f"{play.reds_off} red(s) potted or forced off but only {state.reds} on the table",
        )
    play.fb_potted = play.fb is not None and play.fb in potted
    on_names = play.on_names
    if state.phase == RED:
        play.legal_points = play.reds_potted + (1 if play.fb_potted else 0)
    elif state.phase == COLOUR:
        play.legal_points = VALUE[on_names[0]] if on_names and on_names[0] in potted else 0
    else:
        play.legal_points = play.on_value if (on_names[0] in potted or play.fb_potted) else 0


# -- the calls as made (S3 R10(b),(c), R11, R14) ------------------------------------------


def _calls(state: State, play: _Play) -> None:
    """The calls as made decide how play went on (S3 R10(c)); where they differ from the
    due call, a finding."""
    call = play.stroke.call
    play.foul_stands = call is not None and call.foul
    play.scored = 0 if play.foul_stands else play.legal_points
    play.findings_before = len(state.findings)
    if play.foul_stands:
        _called_foul(state, play)
    elif play.due_foul and play.reasons != ("out_of_turn",):  # out of turn alone: wrong_striker
        _uncalled_foul(state, play)
    _miss_called(state, play)


def _called_foul(state: State, play: _Play) -> None:
    """The penalty the score carries: the rules' value for a called foul (a wrong value is
    corrected); a value in range stands when the facts show no foul (docs/rulings.md S8, S54)."""
    ed, n, striker, call = state.edition, play.n, play.striker, play.stroke.call
    called_points = call.points if call is not None and call.points is not None else None
    if play.due_foul:
        if called_points is None or play.penalty <= called_points <= play.penalty_hi:
            play.official_penalty = called_points if called_points is not None else play.penalty
            return
        play.official_penalty = play.penalty if called_points < play.penalty else play.penalty_hi
        _add(
            state,
            n=n,
            kind=PENALTY_VALUE,
            rule=play.rule,
            side=striker,
            points=abs(play.official_penalty - called_points),
            message=f"{play.what}: foul called for {called_points}, the rules give {play.official_penalty}",
        )
        play.explained = True
        return
    low, high = max(ed.minimum, play.on_value), 7
    play.official_penalty = called_points if called_points is not None else low
    if called_points is not None and not low <= called_points <= high:
        # Whatever the facts, a foul is worth the ball on, four to seven (S3 R11):
        # the score books the nearest value the rules give.
        play.official_penalty = min(max(called_points, low), high)
        _add(
            state,
            n=n,
            kind=PENALTY_VALUE,
            rule=ed.cite(ed.pen),
            side=striker,
            points=abs(play.official_penalty - called_points),
            message=f"foul called for {called_points}, a foul here is worth {low} to {high}",
        )
        play.explained = True
    if play.stroke.infringements is not None:
        message = "foul called but the facts show no foul"
        _add(
            state,
            n=n,
            kind=UNSUPPORTED_FOUL,
            rule=ed.cite(ed.pen),
            side=striker,
            points=play.official_penalty,
            message=message,
        )


def _uncalled_foul(state: State, play: _Play) -> None:
    """A foul nobody called is condoned (S3 R10(c)); a free ball taken with no FREE BALL
    called is that error (S3 R12)."""
    ed, penalty = state.edition, play.penalty
    if play.fb_without_call:
        message = f"{play.nom} taken as a free ball but no FREE BALL was called ({play.what}, worth {penalty})"
        _add(
            state,
            n=play.n,
            kind=FREE_BALL_ERROR,
            rule=ed.cite(ed.free_ball),
            side=play.striker,
            points=penalty,
            message=message,
        )
    else:
        message = f"{play.what}: foul not called (worth {penalty}), condoned"
        _add(state, n=play.n, kind=CONDONED_FOUL, rule=play.rule, side=play.striker, points=penalty, message=message)


def _miss_called(state: State, play: _Play) -> None:
    """FOUL AND A MISS (S3 R14): due when the foul is a miss (S2 R21) and nobody needed
    penalty points before or as a result of the stroke (R14(a)(i), (c)). A call where the
    rule does not exist, or for a foul that is no miss, is a miss_error."""
    ed, n, striker, call = state.edition, play.n, play.striker, play.stroke.call
    play.needed_before = (play.due_foul or play.foul_stands) and penalty_points_required(state)
    play.miss_called = bool(call is not None and call.foul and call.miss)
    play.waived = _miss_waived(state, striker)
    if not play.miss_called:
        return
    if not ed.miss_rule:
        _add(
            state,
            n=n,
            kind=MISS_ERROR,
            rule="SO 19(i)",
            side=striker,
            points=0,
            message="FOUL AND A MISS called but the rule does not apply",
        )
    elif play.waived:
        _add(
            state,
            n=n,
            kind=MISS_ERROR,
            rule="S3 R14(a)",
            side=striker,
            points=0,
            message=f"FOUL AND A MISS called with the offender more than {ed.miss_waived_behind} points behind",
        )
    elif play.due_foul and not play.miss_type:
        _add(
            state,
            n=n,
            kind=MISS_ERROR,
            rule="S2 R21",
            side=striker,
            points=0,
            message="FOUL AND A MISS called but the ball on was hit first",
        )
    elif not ed.miss_black_only and state.black_only:
        _add(
            state,
            n=n,
            kind=MISS_ERROR,
            rule="S3 R14",
            side=striker,
            points=0,
            message="FOUL AND A MISS called with only the Black left",
        )


# -- the table after the stroke, as it really was ------------------------------------------


def _balls_after(state: State, play: _Play) -> None:
    """The balls off the table, the cue-ball in hand, the ball on next (S3 R3(g),(h))."""
    stroke = play.stroke
    state.reds = max(0, state.reds - play.reds_off)
    for b in play.colours_gone:
        state.colours &= ~_BIT[b]
    state.in_hand = "white" in stroke.potted or "white" in (stroke.off_table or [])
    state.anywhere = False
    stays_off: set[str] = set()
    if state.phase == RED:
        if not play.foul_stands and play.scored > 0:
            state.phase = COLOUR
        elif state.reds == 0:
            state.phase = SEQUENCE
    elif state.phase == COLOUR:
        # Potted or not, the colour after a Red is spotted (S3 R3(h)(i)) and Red is on
        # again; after the last Red the colours follow in order (S3 R3(h)(ii)).
        state.phase = RED if state.reds > 0 else SEQUENCE
    elif not play.foul_stands and play.on_names[0] in stroke.potted:
        stays_off.add(play.on_names[0])  # S3 R3(h)(iii)
        _colour_in_sequence(state, play)
    elif play.foul_stands and state.seq == _BLACK:
        play.frame_ends = True  # S3 R4(a): the first foul with Black only ends the frame
    # Colours to spot (S3 R7): every colour potted, pocketed or forced off, except the
    # colour potted in sequence, and nothing once the frame is over.
    if not play.frame_ends and play.colours_gone:
        to_spot = sorted({b for b in play.colours_gone if b not in stays_off}, key=lambda b: -VALUE[b])
        play.due_spots = _spots(to_spot, state.colours, stroke.positions, state.table.spots)


def _colour_in_sequence(state: State, play: _Play) -> None:
    """The colour on potted in sequence stays off (S3 R3(h)(iii)); the Black ends the frame."""
    colour = play.on_names[0]
    if state.seq == _BLACK:
        play.frame_ends = True
    bit = _BIT[colour]
    if state.in_error & bit:
        # Potted again after being spotted in error (S3 R7(b)): scored, but only for good
        # once the next stroke is played or an infringement committed.
        state.in_error &= ~bit
        if state.edition.deferred_points:
            state.deferred = (play.n, play.striker, colour, play.legal_points)
        _resume(state)
    else:
        state.seq += 1


# -- the scoreboard (S3 R1) ---------------------------------------------------------------


def _book(state: State, play: _Play) -> None:
    """The official score, the recorded scoreboard and the break."""
    ledger, ed = state.ledger, state.edition
    if play.foul_stands and play.unscored and "before_spotted" in play.reasons:
        # S3 R3(h)(iv): "the value of the colour shall not be scored".
        ledger.retract(play.striker, play.unscored)
    explaining = (PENALTY_VALUE, FREE_BALL_ERROR, INVALID_RECORD)
    play.explained = play.explained or any(f.kind in explaining for f in state.findings[play.findings_before :])
    mismatch = ledger.stroke(
        play.n,
        play.striker,
        play.scored,
        play.official_penalty,
        play.stroke.score,
        explained=play.explained,
        rule=ed.cite(ed.pen) if play.foul_stands else "S3 R1",
    )
    if mismatch is not None:
        state.findings.append(_free_ball_face_value(state, play, mismatch))
    play.break_id = len(ledger.breaks) + 1 if play.scored > 0 else None


# -- respots (S3 R7) and the end of the frame (S3 R4) --------------------------------------


def _respot_step(state: State, play: _Play) -> None:
    """Respots as recorded (S3 R7, R7(b), R7(d)) and the table as it really was. On a tie
    the Black goes back (S3 R4(b)(i)): recorded here or by the respot_black event."""
    ed, ledger, stroke = state.edition, state.ledger, play.stroke
    tied = play.frame_ends and ed.respot_black_on_tie and not state.aggregate
    play.tie = tied and ledger.official[0] == ledger.official[1]
    if play.tie and stroke.respots is not None and any(r.ball == "black" for r in stroke.respots):
        play.due_spots = _spots(["black"], state.colours, stroke.positions, state.table.spots)
    _respots(state, play.n, play.striker, stroke, play.due_spots)
    _reds_back(state)


def _frame_end_step(state: State, play: _Play) -> None:
    """The last Black potted or fouled ends the frame, or re-spots it on a tie (S3 R4)."""
    if not play.frame_ends:
        return
    if play.tie:
        state.respotted_black = True
        state.opener = None
        state.colours = _BIT["black"]
        state.seq = _BLACK
        state.phase = SEQUENCE
        state.in_hand = True
    else:
        _end(state, play.n, leader(state.ledger.score()), "foul" if play.foul_stands else "pot")


# -- the next turn (S2 R5, S3 R10(h), R12, R14) ---------------------------------------------


def _next_turn(state: State, play: _Play) -> None:
    """Who plays next, the free ball and the foul the incoming player answers."""
    striker = play.striker
    continues = not play.foul_stands and play.scored > 0 and not state.over and not play.tie
    if continues:
        state.turn_of = state.to_play = striker
    else:
        state.ledger.end_visit()
        state.turn_of = None
        state.to_play = None if play.tie else other(striker)
        if state.phase == COLOUR:
            state.phase = RED if state.reds > 0 else SEQUENCE
    _free_ball_after_foul(state, play)
    if play.foul_stands and not state.over:
        _foul_stands(state, play)
    elif not play.foul_stands:
        state.replaced, state.miss_seq, state.warned = False, 0, False
    if play.tie:
        state.foul = None
        state.free_ball = False


def _foul_stands(state: State, play: _Play) -> None:
    """A called foul: the incoming player's choice is pending (S3 R10(h)); the free ball as
    called (S2 R13); a FOUL AND A MISS sequence goes on or ends (S3 R14(d))."""
    ed, n, striker = state.edition, play.n, play.striker
    needed = play.needed_before or penalty_points_required(state)
    miss = play.miss_called and ed.miss_rule
    state.foul = _Foul(n, striker, play.snapshot, miss, play.free_ball_called, False, needed, rest=play.rest)
    state.free_ball = play.free_ball_called
    if ed.in_hand_after_foul:
        state.in_hand = True
        state.anywhere = True
    if not miss:
        # A foul without FOUL AND A MISS breaks the run of consecutive calls (S3 R14(d)).
        state.replaced, state.miss_seq, state.warned = False, 0, False
        return
    if not state.replaced:
        # A new sequence: could the ball on be hit full, or was it touching (S3 R14(d))?
        geo = _miss_geometry(play.rest, play.snapshot[2], play.on_names) if play.rest is not None else None
        state.full_ball = None if geo is None else geo[1] or (geo[2] and ed.touching_starts_sequence)
    _miss_sequence(state, n, striker)


def _miss_due(state: State, play: _Play) -> bool:
    """Whether FOUL AND A MISS is due (S3 R14(a),(c)); with the rest positions before the
    stroke, a missing call where the cue-ball had a clear path is a miss_error (S3 R14(c))."""
    ed = state.edition
    due_miss = (
        play.due_foul
        and play.miss_type
        and ed.miss_rule
        and not play.waived
        and not play.needed_before
        and not penalty_points_required(state)
        and (ed.miss_black_only or not state.black_only)
        # A foul that ends the frame, or ties it on the last Black (S3 R4(a),(b)), leaves
        # no stroke to replay: FOUL AND A MISS has nothing to offer.
        and not state.over
        and not play.tie
    )
    if due_miss and play.foul_stands and not play.miss_called and not play.free_ball and play.rest is not None:
        geo = _miss_geometry(play.rest, play.snapshot[2], play.on_names)
        if geo is not None and geo[0] and not geo[2]:
            message = "FOUL AND A MISS not called though the cue-ball had a clear path to a ball on"
            _add(state, n=play.n, kind=MISS_ERROR, rule="S3 R14(c)", side=play.striker, points=0, message=message)
    return due_miss


def _outcome(state: State, play: _Play, due_miss: bool) -> Outcome:
    ledger = state.ledger
    continues = not play.foul_stands and play.scored > 0 and not state.over and not play.tie
    return Outcome(
        n=play.n,
        striker=play.striker,
        scored=0 if play.due_foul else play.legal_points,
        penalty=play.penalty,
        foul=play.due_foul,
        reasons=play.reasons,
        ball_on=play.ball_on_word,
        miss=due_miss,
        free_ball=play.outcome_free_ball,
        respots=tuple(play.due_spots),
        turn_ends=not continues or state.over,
        next_striker=state.to_play,
        score=ledger.score(),
        break_id=play.break_id,
        visit_id=ledger.visit_id,
        frame_over=state.over,
        winner=state.winner,
        credited=ledger.credited,
    )


def _being_spotted(state: State, stroke: Stroke) -> tuple[str, bool, int] | None:
    """The colour the referee was spotting after the previous stroke (S3 R3(h)(iv), R7(c)(ii)).

    Returns the colour, whether it was potted as a free ball, and the points it scored
    when that stroke was part of this striker's break (what R3(h)(iv) takes back).
    """
    if not state.outcomes:
        return None
    prev = state.outcomes[-1]
    if prev.n != stroke.n - 1 or not prev.respots:
        return None
    wanted = next((i.ball for i in stroke.infringements or () if i.code == "before_spotted" and i.ball), None)
    colour = next((b for b, _ in prev.respots if b == wanted), prev.respots[0][0])
    potted_legally = not prev.foul and prev.scored > 0
    was_free_ball = potted_legally and prev.ball_on not in (colour, "colour")
    points = 0
    if potted_legally and prev.striker == stroke.striker and not prev.turn_ends:
        if was_free_ball:
            points = 1 if prev.ball_on == "red" else VALUE.get(prev.ball_on or "", 0)
        elif prev.ball_on == colour:
            points = VALUE[colour]
    return colour, was_free_ball, points


def _black_only_award(state: State, n: int) -> None:
    if (
        state.over
        or not state.edition.award_non_striker
        or not state.black_only
        or state.to_play is None
        or state.aggregate
    ):
        return
    a, b = state.ledger.official
    lead = (a - b) if state.to_play == "B" else (b - a)
    if lead > 7 and not state.respotted_black:
        _end(state, n, other(state.to_play), "award")


def _miss_sequence(state: State, n: int, offender: str) -> None:
    """Count FOUL AND A MISS calls from the original position (S3 R14(d), six reds R19)."""
    ed = state.edition
    state.miss_seq = state.miss_seq + 1 if state.replaced else 1
    state.replaced = False
    if ed.miss_cap is not None and state.miss_seq > ed.miss_cap:
        _add(
            state,
            n=n,
            kind=MISS_ERROR,
            rule="S3 R19(a)",
            side=offender,
            points=0,
            message=f"FOUL AND A MISS number {state.miss_seq} from the original position; at most {ed.miss_cap}",
        )
    if ed.miss_award and state.warned and state.miss_seq > ed.warn_after and state.full_ball is not False:
        state.due_award = other(offender)


def _spots(
    to_spot: list[str],
    colours: int,
    positions: list[tuple[str, float, float]] | None,
    spots: dict[str, Point] = SPOTS,
) -> list[tuple[str, str]]:
    """Where each colour goes (S3 R7(e)-(h)): own spot, else the highest free spot, else ``near``.

    The highest value colour is spotted first (R7(f)). A spot is occupied when a ball on
    it would touch another (S2 R18); without positions only the colours spotted in the
    same stroke can occupy a spot.
    """
    if not to_spot:
        return []
    placed: list[str] = []
    spotting = set(to_spot)
    others = [(x, y) for ball, x, y in positions or () if ball not in spotting]
    out: list[tuple[str, str]] = []

    def free(spot: str) -> bool:
        if spot in placed:
            return False
        sx, sy = spots[spot]
        return all((x - sx) ** 2 + (y - sy) ** 2 >= _BALL_MM**2 for x, y in others)

    for ball in to_spot:
        spot = ball if free(ball) else next((c for c in reversed(COLOURS) if free(c)), "near")
        if spot != "near":
            placed.append(spot)
        out.append((ball, spot))
    return out


def _respot_name(r_spot: str | None, x: float | None, y: float | None, spots: dict[str, Point] = SPOTS) -> str | None:
    if r_spot is not None:
        return r_spot
    if x is None or y is None:
        return None
    for name, (sx, sy) in spots.items():
        if (x - sx) ** 2 + (y - sy) ** 2 < (_BALL_MM / 2) ** 2:
            return name
    return "near"


def _respots(state: State, n: int, striker: str, stroke: Stroke, due: list[tuple[str, str]]) -> None:
    due_map = dict(due)
    if stroke.respots is None:
        # Unknown: the table gets what the rules put on it.
        for ball in due_map:
            state.colours |= _BIT[ball]
        return
    recorded: dict[str, str | None] = {}
    for r in stroke.respots:
        if r.ball == "red":
            # A Red spotted in error (S3 R7(d)): it stays in play until removed.
            _add(state, n=n, kind=RESPOT_IN_ERROR, rule="S3 R7(d)", side=None, points=0, message="a Red was spotted")
            state.reds += 1
            continue
        if r.ball not in _BIT:
            continue
        recorded[r.ball] = _respot_name(r.spot, r.x, r.y, state.table.spots)
    positions_known = stroke.positions is not None
    for ball, spot in due:
        if ball not in recorded:
            _add(
                state,
                n=n,
                kind=RESPOT_MISSING,
                rule="S3 R7",
                side=None,
                points=VALUE[ball],
                message=f"{ball} had to be spotted but was not",
            )
            state.missing |= _BIT[ball]
            continue
        state.colours |= _BIT[ball]
        got = recorded[ball]
        if positions_known and got is not None and got != spot:
            # Where a spot is occupied is only known from the positions (S2 R18).
            _add(
                state,
                n=n,
                kind=RESPOT_WRONG_SPOT,
                rule="S3 R7(e)-(h)",
                side=None,
                points=0,
                message=f"{ball} spotted on {got}, due on {spot}",
            )
    for ball in recorded:
        if ball not in due_map and state.missing & _BIT[ball]:
            # S3 R7(c)(i): a colour left off in error is spotted without penalty when
            # discovered; the respot_missing already reported is that error.
            state.colours |= _BIT[ball]
            state.missing &= ~_BIT[ball]
        elif ball not in due_map:
            state.colours |= _BIT[ball]
            _add(
                state,
                n=n,
                kind=RESPOT_IN_ERROR,
                rule="S3 R7(b)",
                side=None,
                points=VALUE[ball],
                message=f"{ball} spotted but had to stay off the table",
            )
            if state.phase == SEQUENCE and COLOURS.index(ball) < state.seq:
                # Potted in sequence and put back: played as correctly spotted until the
                # error is discovered (S3 R7(b),(c)), so it is the colour on again.
                if not state.in_error:
                    state.resume = state.seq
                state.in_error |= _BIT[ball]
                _resume(state)


def _resume(state: State) -> None:
    """The colour on in the sequence: the lowest colour spotted in error, else the next one (S3 R7(b))."""
    if state.in_error:
        state.seq = (state.in_error & -state.in_error).bit_length() - 1
    else:
        state.seq = state.resume


# -- choices after a foul (S3 R10(h),(i), R12(f), R13, R14(b), R16) ------------------------


def _play_again(state: State, f: _Foul, *, replace: bool, incoming: bool) -> None:
    if replace and state.edition.replace_cue_ball_only and not f.before_stroke:
        # Older S3 R14(a),(f): the cue-ball goes back and the ball on is as before the
        # stroke; object balls stay where they are unless the referee puts them back
        # (recorded as ``spot_correction``); colours off the table are spotted.
        _, colours, state.phase, state.seq, state.in_hand = f.snapshot
        state.colours |= colours
        if state.phase == RED and state.reds == 0:
            state.phase, state.seq = SEQUENCE, 0
    elif replace:
        state.reds, state.colours, state.phase, state.seq, state.in_hand = f.snapshot
    if replace:
        # Back to the original position; the older edition leaves object balls to the referee.
        state.rest = (state.last_n, f.rest) if f.rest is not None and not state.edition.replace_cue_ball_only else None
    elif f.before_stroke:
        state.rest = None  # a ball touched before the stroke may have moved
    state.free_ball = False  # S3 R12(f)
    player = other(f.offender) if incoming else f.offender
    state.to_play = player
    # The offender replaying from the original position keeps the ball on it had
    # (S3 R14(b)(iii)); any other restart is a new turn.
    state.turn_of = f.offender if (replace and not incoming) else None
    if state.turn_of is None and state.phase == COLOUR:
        state.phase = RED if state.reds > 0 else SEQUENCE
    state.replaced = replace and not incoming
    if not state.replaced:
        state.miss_seq, state.warned = 0, False  # S3 R14(d)(iii)


def _choice(state: State, c: Choice) -> None:
    """The incoming player's choice after a foul (S3 R10(h), R14(b), R19(b))."""
    f = state.foul
    if state.over:
        return
    if f is None:
        message = f"choice {c.option!r} with no foul to answer"
        _add(state, n=c.after, kind=INVALID_RECORD, rule="S3 R10(h)", side=c.side, points=0, message=message)
        return
    in_sequence = _check_choice(state, c, f)
    if not _take_choice(state, c, f, in_sequence):
        message = f"unknown option {c.option!r}"
        _add(state, n=c.after, kind=INVALID_RECORD, rule="S3 R10(h)", side=c.side, points=0, message=message)
        return
    state.foul = None
    _black_only_award(state, c.after)


def _check_choice(state: State, c: Choice, f: _Foul) -> bool:
    """Who chose and whether the option is open; returns whether the foul came within a
    FOUL AND A MISS sequence in the older edition (older S3 R14(d)(v))."""
    ed, n, option = state.edition, c.after, c.option
    if c.side != other(f.offender):
        message = f"{c.side} chose after their own foul"
        _add(state, n=n, kind=WRONG_STRIKER, rule="S3 R10(h)", side=c.side, points=0, message=message)
    if option != "play" and not ed.play_again:
        message = f"option {option!r} does not exist: the incoming player plays"
        _add(state, n=n, kind=INVALID_RECORD, rule="SO 15", side=c.side, points=0, message=message)
    # Older S3 R14(d)(v): after a foul before the stroke, the balls may be replaced only
    # within a FOUL AND A MISS sequence (the cue-ball had been replaced).
    in_sequence = f.before_stroke and f.after_replace and ed.warning_survives_event_foul
    if option in ("replace_return", "replace_play") and not (
        f.miss or (f.before_stroke and ed.replace_after_event_foul) or (in_sequence and option == "replace_return")
    ):
        message = f"balls replaced ({option}) but no FOUL AND A MISS was called"
        _add(state, n=n, kind=MISS_ERROR, rule="S3 R14(b)", side=c.side, points=0, message=message)
    if option == "anywhere" and (ed.miss_cap is None or state.miss_seq < ed.miss_cap or f.needed):
        # Only after the fifth FOUL AND A MISS, and not when penalty points were needed.
        message = "cue-ball placed anywhere against S3 R19(b)(iii)"
        _add(state, n=n, kind=MISS_ERROR, rule="S3 R19(b)(iii)", side=c.side, points=0, message=message)
    return in_sequence


def _take_choice(state: State, c: Choice, f: _Foul, in_sequence: bool) -> bool:
    """Play on as the option says; ``False`` for an option that does not exist."""
    option = c.option
    if option == "play":
        if f.before_stroke:
            state.rest = None
        state.to_play = other(f.offender)
        state.turn_of = None
        state.nomination = c.nominated if state.free_ball else None
        if f.miss or f.before_stroke:
            state.miss_seq, state.warned, state.replaced = 0, False, False
    elif option == "return":
        keep = (state.miss_seq, state.warned, state.replaced)
        _play_again(state, f, replace=False, incoming=False)
        if in_sequence:
            # Older S3 R14(d)(iv),(vi): played again from the position left, the Warning
            # and the sequence stay in effect (2024 S3 R14(e): only after full replacement).
            state.miss_seq, state.warned, state.replaced = keep
    elif option == "replace_return":
        keep_warning = state.warned
        _play_again(state, f, replace=True, incoming=False)
        if f.before_stroke:
            state.warned = keep_warning  # S3 R14(e): the Warning survives full replacement
    elif option == "replace_play":
        _play_again(state, f, replace=True, incoming=True)
    elif option == "anywhere":
        state.to_play = other(f.offender)
        state.turn_of = None
        state.in_hand, state.anywhere, state.free_ball = True, True, False
        state.miss_seq, state.warned = 0, False
    else:
        return False
    return True


# -- events ----------------------------------------------------------------------------


def _event(state: State, e: Event) -> None:
    """An event between strokes, handled by the rule it concerns."""
    kind = e.kind
    if kind in ("spot_correction", "rerack", "respot_black"):
        state.rest = None  # the balls were moved: the recorded positions no longer hold
    before_end = _TABLE_EVENTS.get(kind)
    if before_end is not None:
        before_end(state, e)
    elif state.over:
        _event_after_end(state, e)
    elif kind in ("foul", "time_foul"):
        _event_foul(state, e)
    elif e.side is not None and kind in _FRAME_EVENTS:
        _FRAME_EVENTS[kind](state, e)


def _warning(state: State, e: Event) -> None:
    """A Warning: for FOUL AND A MISS (S3 R14(d), R19(b)) or time wasting (S4 R3(a))."""
    ed = state.edition
    n = e.after
    if e.reason == "miss":
        if state.miss_seq < ed.warn_after:
            _add(
                state,
                n=n,
                kind=MISS_ERROR,
                rule="S3 R19(b)" if ed.miss_cap else "S3 R14(d)(ii)",
                side=e.side,
                points=0,
                message=f"Warning given after {state.miss_seq} FOUL AND A MISS call(s); due after {ed.warn_after}",
            )
        elif state.full_ball is False and ed.miss_award:
            _add(
                state,
                n=n,
                kind=MISS_ERROR,
                rule="S3 R14(d)",
                side=e.side,
                points=0,
                message="Warning given but the original position offered no full-ball contact with a ball on",
            )
        state.warned = True
    elif e.reason == "time_wasting" and e.side is not None:
        state.time_wasting_warned = (*state.time_wasting_warned, e.side)


def _respot_black(state: State, e: Event) -> None:
    """The re-spotted Black after a tie (S3 R4(b),(c))."""
    n = e.after
    if state.aggregate and state.over and state.winner is None and state.reds == 0 and state.seq >= _BLACK:
        # S3 R4(c): aggregate level after the last frame: a re-spotted Black decides.
        state.over, state.end_reason, state.respotted_black = False, None, True
        state.colours, state.seq, state.in_hand = _BIT["black"], _BLACK, True
    if not state.respotted_black:
        _add(
            state,
            n=n,
            kind=FRAME_END_ERROR,
            rule="S3 R4(b)",
            side=e.side,
            points=0,
            message="re-spotted Black but the scores were not tied on the last Black",
        )
    state.to_play = e.side
    state.turn_of = None
    state.opener = None


def _rerack(state: State, e: Event) -> None:
    """Stalemate (S3 R17(b)-(d)): the frame re-racked, or the Black re-spotted only."""
    ed = state.edition
    # Stalemate (S3 R17(b),(c)): scores nullified, balls reset, same opener.
    if state.respotted_black and ed.rerack_respotted_black_only:
        state.colours = _BIT["black"]  # S3 R17(d): only the Black, scores stand
    else:
        state.reds = state.start_reds
        state.colours, state.seq, state.in_error, state.deferred = _ALL_COLOURS, 0, 0, None
        state.respotted_black = False  # older S3 R16: the frame starts again (DIFF A21)
        state.phase = RED if state.reds > 0 else SEQUENCE
        # Scores nullified; the breaks made before the re-rack were made and stay.
        old = state.ledger
        old.close()
        state.ledger = Ledger()
        state.ledger.breaks = list(old.breaks)
        state.ledger.visits = list(old.visits)
        state.ledger.visit_id = old.visit_id
    state.in_hand, state.foul, state.free_ball, state.turn_of = True, None, False, None
    state.miss_seq, state.warned, state.replaced = 0, False, False
    state.to_play = state.opener


def _event_after_end(state: State, e: Event) -> None:
    """An event after the frame ended: a concession, claim or award to the same side confirms it (S2 R1(c))."""
    n = e.after
    kind = e.kind
    # The frame already ended (e.g. awarded under S2 R1(c)); a concession, claim or
    # award that gives it to the same side only confirms it.
    if kind in ("concede", "claim", "award") and e.side is not None:
        winner = other(e.side) if kind == "concede" else e.side
        if winner != state.winner:
            _frame_over_stroke(state, n)
    elif kind in ("foul", "time_foul"):
        _frame_over_stroke(state, n)


def _concede(state: State, e: Event) -> None:
    """A concession (S4 R2(b); older S4 R5(a): the striker only)."""
    assert e.side is not None  # _FRAME_EVENTS are dispatched with a side
    ed = state.edition
    n = e.after
    if state.due_award is not None:
        state.due_award = None
    if ed.concede_striker_only and state.to_play is not None and e.side != state.to_play:
        _add(
            state,
            n=n,
            kind=FRAME_END_ERROR,
            rule="S4 R5(a)",
            side=e.side,
            points=0,
            message="conceded while not the striker",
        )
    elif not penalty_points_required(state):
        _add(
            state,
            n=n,
            kind=FRAME_END_ERROR,
            rule="S4 R2(b)",
            side=e.side,
            points=0,
            message=f"conceded with {points_remaining(state)} points on the table and nobody needing penalty points",
        )
    if state.aggregate:
        # S4 R2(f): the opponent receives the value of the balls left, Reds eight each.
        state.ledger.award(n, other(e.side), points_remaining(state))
    _end(state, n, other(e.side), "concede")


def _claim(state: State, e: Event) -> None:
    """A claim with Black only and a lead of more than seven (S2 R1(b))."""
    assert e.side is not None  # _FRAME_EVENTS are dispatched with a side
    n = e.after
    a, b = state.ledger.official
    lead = (a - b) if e.side == "A" else (b - a)
    striker_ok = state.to_play is None or state.to_play == e.side
    if not (state.black_only and lead > 7 and striker_ok and not state.aggregate):
        _add(
            state,
            n=n,
            kind=FRAME_END_ERROR,
            rule="S2 R1(b)",
            side=e.side,
            points=0,
            message="claim without Black only and a lead of more than seven as striker",
        )
    _end(state, n, e.side, "claim")


def _award(state: State, e: Event) -> None:
    """A frame awarded by the referee: for a miss (S3 R14(d)(ii)) or conduct (Section 4)."""
    assert e.side is not None  # _FRAME_EVENTS are dispatched with a side
    ed = state.edition
    n = e.after
    if e.reason == "miss":
        due = state.due_award
        if due is None or due != e.side:
            rule = "S3 R19" if not ed.miss_award else "S3 R14(d)(ii)"
            _add(
                state,
                n=n,
                kind=FRAME_END_ERROR,
                rule=rule,
                side=other(e.side),
                points=0,
                message="frame awarded for a miss without a further failure after the Warning",
            )
    elif e.reason in ("time_wasting", "unsporting"):
        _forfeit(state, n, e)
    state.due_award = None
    _end(state, n, e.side, "award")


def _forfeit(state: State, n: int, e: Event) -> None:
    """A frame awarded under Section 4 (conduct, time wasting)."""
    ed = state.edition
    winner = e.side
    assert winner is not None
    offender = other(winner)
    if (
        e.reason == "time_wasting"
        and ed.time_wasting_warning_first
        and state.frame == 1
        and offender not in state.time_wasting_warned
    ):
        # S4 R3(a),(b): the frame is awarded only after a Warning. A Warning given in an
        # earlier frame of the game is not in this frame's records, so only frame 1 tells.
        _add(
            state,
            n=n,
            kind=FRAME_END_ERROR,
            rule="S4 R3(b)",
            side=offender,
            points=0,
            message="frame awarded for time wasting without a Warning",
        )
    if state.aggregate or ed.forfeit_points:
        # S4 R4(a)(ii) (aggregate only; older S4 R2(a)(ii) always): the offender forfeits
        # their points and the opponent receives the balls left, Reds eight each.
        i = 0 if offender == "A" else 1
        state.ledger.award(n, offender, -state.ledger.official[i])
        state.ledger.award(n, winner, points_remaining(state))


def _event_foul(state: State, e: Event) -> None:
    """A foul with no stroke (S3 R10(i)) or a shot-clock time foul (SO 16)."""
    ed, n = state.edition, e.after
    side = e.side or state.to_play
    if side is None:
        _add(state, n=n, kind=INVALID_RECORD, rule="FORMAT 4", side=None, points=0, message="foul event without a side")
        return
    due, rule = _event_foul_value(state, e, side)
    # After a Red, before a colour is nominated, a foul is worth seven (S3 R11(d)(vi));
    # whether the nomination was made is not in the facts, so any value up to seven stands.
    hi = 7 if state.phase == COLOUR and e.kind == "foul" else due
    points = due
    if e.points is not None and due <= e.points <= hi:
        points = due = e.points
    if e.points is not None and e.points != due and (e.kind != "time_foul" or ed.time_foul):
        kind = PENALTY_VALUE if e.kind == "foul" else TIME_FOUL_ERROR
        message = f"penalty of {e.points} recorded, the rules give {due}"
        _add(state, n=n, kind=kind, rule=rule, side=side, points=abs(e.points - due), message=message)
    state.ledger.award(n, other(side), points)
    if e.points is not None and e.points != points:
        state.ledger.excuse(other(side), points, e.points)  # reported above: not again on the scoreboard
    state.deferred = None  # S3 R7(b): an infringement makes the points of a re-potted colour count
    if e.kind == "foul" and state.to_play is not None and side != state.to_play and state.turn_of == state.to_play:
        # The non-striker infringed during the striker's turn: a PENALTY, the balls are
        # replaced and the striker's turn continues unaffected (S3 R3(k), R11(e)-(g)).
        return
    _after_event_foul(state, n, side)


def _event_foul_value(state: State, e: Event, side: str) -> tuple[int, str]:
    """The penalty an event foul carries and its rule (S3 R11; SO 16 for a time foul)."""
    ed = state.edition
    on_value = 1 if state.phase == RED else VALUE[COLOURS[min(state.seq, _BLACK)]] if state.phase == SEQUENCE else 0
    if e.kind == "time_foul":
        state.time_fouls = (*state.time_fouls, e.after)
        if ed.time_foul:
            return max(5, on_value), "SO 16"
        message = "time foul in a game without a shot clock rule"
        _add(state, n=e.after, kind=TIME_FOUL_ERROR, rule="SO 16", side=side, points=e.points or 0, message=message)
        return e.points or 0, "SO 16"
    kind, item = _INFRINGEMENTS.get(e.code or "", ("b", "(b)(vi)"))
    non_striker = state.to_play is not None and side != state.to_play and state.turn_of == state.to_play
    if non_striker and ed.non_striker_penalty:
        # Penalties of the non-striker (S3 R11(e),(g)): seven for measuring or using a
        # ball off the table, else the ball on or the ball concerned, minimum four.
        # (The older edition penalises them "as if he were the striker", DIFF A15.)
        kind, item = ("7", "(g)") if kind == "7" else ("b", "(e)")
    rule = ed.cite(ed.pen, item)
    if kind == "7":
        return 7, rule
    if kind == "b":
        return max(ed.minimum, on_value, VALUE.get(e.ball or "", 0)), rule
    return max(ed.minimum, on_value), rule


def _after_event_foul(state: State, n: int, side: str) -> None:
    """The turn ends and the incoming player chooses (S3 R10(h),(i)); with Black only the
    frame ends unless the scores tie (S3 R4(a),(b)(iv))."""
    ed = state.edition
    state.ledger.end_visit()
    snapshot = (state.reds, state.colours, state.phase, state.seq, state.in_hand)
    rest = state.rest[1] if state.rest is not None and state.rest[0] == state.last_n else None
    state.foul = _Foul(n, side, snapshot, False, False, True, after_replace=state.replaced, rest=rest)
    state.free_ball = False
    state.to_play = other(side)
    state.turn_of = None
    if state.phase == COLOUR:
        state.phase = RED if state.reds > 0 else SEQUENCE
    if ed.in_hand_after_foul:
        state.in_hand = state.anywhere = True
    if state.black_only:
        a, b = state.ledger.official
        if a != b or not ed.respot_black_on_tie:
            _end(state, n, leader(state.ledger.score()), "foul")
            state.foul = None
        elif not state.respotted_black:
            state.respotted_black, state.colours, state.in_hand = True, _BIT["black"], True
            state.to_play, state.foul = None, None


def _reds_back(state: State) -> None:
    """A Red spotted in error before the colours are touched puts Red back on (S3 R7(d)(ii))."""
    if state.reds > 0 and state.phase == SEQUENCE and state.seq == 0:
        state.phase = RED


def _spot_correction(state: State, e: Event) -> None:
    ball = e.ball
    if ball is None:
        return
    if ball == "red":
        if e.remove:
            state.reds = max(0, state.reds - 1)
        else:
            state.reds += 1
            _reds_back(state)
        return
    if ball not in _BIT:
        return
    if e.remove:
        bit = _BIT[ball]
        d = state.deferred
        if state.in_error & bit:
            # S3 R7(b): removed without penalty when the error is discovered.
            state.in_error &= ~bit
            _resume(state)
        elif d is not None and d[2] == ball and d[0] == state.last_n and not state.colours & bit:
            # S3 R7(b): discovered after it was potted again but before the next stroke
            # or an infringement: the points do not count.
            state.ledger.retract(d[1], d[3])
        state.deferred = None
        state.colours &= ~bit
    else:
        state.colours |= _BIT[ball]  # S3 R7(c)(i)
        state.missing &= ~_BIT[ball]


_TABLE_EVENTS: Final[dict[str, Callable[[State, Event], None]]] = {
    "spot_correction": _spot_correction,
    "warning": _warning,
    "respot_black": _respot_black,
    "rerack": _rerack,
}
"""Events that apply whether or not the frame is over."""

_FRAME_EVENTS: Final[dict[str, Callable[[State, Event], None]]] = {
    "concede": _concede,
    "claim": _claim,
    "award": _award,
}
"""Events that end the frame (need a side)."""


def _miss_waived(state: State, striker: str) -> bool:
    """The edition waives FOUL AND A MISS for an offender this far behind (``miss_waived_behind``)."""
    limit = state.edition.miss_waived_behind
    if limit is None:
        return False
    a, b = state.ledger.official
    behind = b - a if striker == "A" else a - b
    return behind > limit


def _shot_limit(ed: Edition, recorded: float) -> float:
    """The limit of a stroke: the edition's for the phase of the match the recorded limit
    shows (SO 2: 10 s or less is the last five minutes), else the recorded one."""
    late = recorded <= 10 + 1e-9
    limit = ed.shot_clock_late_s if late else ed.shot_clock_s
    return recorded if limit is None else limit


def _clock(state: State, c: Clock) -> None:
    """Shot clock (SO 2-3, 16): a stroke begun after the limit is a time foul."""
    if not state.edition.time_foul or c.limit_s is None or c.elapsed_s is None:
        return
    limit = _shot_limit(state.edition, c.limit_s)
    # elapsed_s is what the clock showed: it does not run while paused (docs/format.md 4, clock).
    if c.elapsed_s > limit + 1e-9 and (c.n - 1) not in state.time_fouls:
        # A time foul is recorded as an event after the stroke before; look for it.
        _add(
            state,
            n=c.n,
            kind=TIME_FOUL_UNCALLED,
            rule="SO 16",
            side=None,
            points=5,
            message=f"stroke began after {c.elapsed_s:.1f} s on the clock, limit {limit:.0f} s",
        )


# -- frame end ----------------------------------------------------------------------


def _frame_end(state: State, fe: FrameEnd) -> None:
    state.recorded_end = fe
    n = state.last_n
    if not state.over and fe.winner is not None and fe.reason in ("concede", "claim", "award"):
        # The frame_end is the only record of the concession, claim or award: check it as
        # if the event had been recorded after the last stroke.
        side = other(fe.winner) if fe.reason == "concede" else fe.winner
        _event(state, Event(frame=fe.frame, after=n, kind=fe.reason, side=side))
    if not state.over:
        _add(
            state,
            n=n,
            kind=FRAME_END_ERROR,
            rule="S2 R1",
            side=fe.winner,
            points=0,
            message=f"frame recorded as ended ({fe.reason or 'no reason'}) but the rules have it still in play",
        )
        return
    if fe.winner is not None and state.winner is not None and fe.winner != state.winner:
        _add(
            state,
            n=state.end_n,
            kind=FRAME_END_ERROR,
            rule="S3 R1(f)",
            side=fe.winner,
            points=0,
            message=f"frame recorded to {fe.winner} but the rules give it to {state.winner}",
        )
