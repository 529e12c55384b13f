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
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

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
    TIME_FOUL_ERROR,
    TIME_FOUL_UNCALLED,
    UNSUPPORTED_FOUL,
    WRONG_STRIKER,
    Finding,
    FrameResult,
    Outcome,
)
from cuelog.replay.params import param
from cuelog.schemas.records import (
    Choice,
    Clock,
    Event,
    Frame,
    FrameEnd,
    FrameRecord,
    Match,
    Stroke,
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

# Spot centres in mm on a standard table (FORMAT.md section 3): origin bottom-left seen
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

# Phases of the ball on (S3 R3(g),(h)).
RED: Final = 0
"""Red (or a free ball nominated as Red) is on: the first stroke of a turn while Reds remain."""
COLOUR: Final = 1
"""A colour of the striker's choice is on, after a Red was potted (S3 R3(h)(i))."""
SEQUENCE: Final = 2
"""The colours are on in ascending order (S3 R3(h)(iii)); ``State.seq`` is the one on."""


# -- editions --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Edition:
    """The parameters in which the snooker editions differ. The defaults are WPBSA 2024."""

    name: str
    reds: int = param(
        15, rule="S3 R21(c)", meaning="Reds at the start of a frame unless the match or frame says otherwise."
    )
    pen: str = param(
        "S3 R11", rule="S3 R11", meaning="Where the penalty values are (the older edition numbers them S3 R12)."
    )
    free_ball: str = param(
        "S3 R12", rule="S3 R12", meaning="Where the free-ball rule is (the older edition numbers it S3 R10)."
    )
    minimum: int = param(4, rule="S3 R11", meaning='The minimum penalty ("four penalty points unless higher").')
    miss_rule: bool = param(True, rule="S3 R14", meaning="FOUL AND A MISS exists (not in the shootout, SO 19(i)).")
    miss_award: bool = param(True, rule="S3 R14(d)(ii)", meaning="A further failure after the Warning loses the frame.")
    warn_after: int = param(
        2, rule="S3 R14(d)", meaning="Failures from the original position after which the Warning is given."
    )
    miss_waived_behind: int | None = param(
        None,
        rule="S3 R14(a)",
        meaning="FOUL AND A MISS is not called when the offender was more than this many points"
        " behind before the stroke (a rule change under study; no edition has it).",
    )
    miss_cap: int | None = param(
        None,
        rule="S3 R19(a)",
        meaning="Most consecutive FOUL AND A MISS calls from the original position (six reds: 5).",
    )
    miss_black_only: bool = param(
        True,
        rule="S3 R14",
        meaning="FOUL AND A MISS may be called with only the Black left (not in the older edition).",
    )
    play_again: bool = param(
        True, rule="S3 R10(h)(ii)", meaning="The non-offender may ask the offender to play again (not SO 15)."
    )
    in_hand_after_foul: bool = param(
        False, rule="SO 15", meaning="After every foul the incoming player has the cue-ball in hand anywhere."
    )
    replace_after_event_foul: bool = param(
        True,
        rule="S3 R10(i)",
        meaning="Replacing all balls after a foul before the stroke (not in the older edition).",
    )
    award_non_striker: bool = param(
        True,
        rule="S2 R1(c)",
        meaning="Black only and the non-striker more than seven ahead: the frame is theirs.",
    )
    respot_black_on_tie: bool = param(
        True,
        rule="S3 R4(b)",
        meaning="A tie on the last Black is played off with a re-spotted Black (not SO 13).",
    )
    concede_striker_only: bool = param(
        False, rule="older S4 R5(a)", meaning="Only the striker may concede (older edition)."
    )
    no_cushion_foul: bool = param(
        False, rule="SO 17", meaning="Every stroke must send a ball to a cushion or a pocket."
    )
    time_foul: bool = param(False, rule="SO 16", meaning="Shot-clock time fouls.")
    shot_clock_s: float | None = param(
        None,
        rule="SO 2(i)",
        meaning="The shot-clock limit before the last five minutes (15 s in the shootout); none: the"
        " limit each clock record carries. A record whose limit is 10 s or less is in the last five"
        " minutes (SO 2(ii)).",
    )
    shot_clock_late_s: float | None = param(
        None,
        rule="SO 2(ii)",
        meaning="The shot-clock limit in the last five minutes (10 s in the shootout); none: the"
        " limit each clock record carries.",
    )
    out_of_turn_foul: bool = param(
        False,
        rule="older S3 R12(a)(iv)",
        meaning="Playing out of turn is a foul worth the ball on (2024: four-handed only).",
    )
    snooker_behind_nominated: bool = param(
        False,
        rule="S3 R19(d)",
        meaning="After a Red, leaving the opponent snookered behind the nominated colour is a foul.",
    )
    deferred_points: bool = param(
        True,
        rule="S3 R7(b)",
        meaning="Points for re-potting a colour spotted in error count only after the next stroke or"
        " infringement (the older edition has no such proviso, DIFF A17).",
    )
    declare_when_snookered: bool = param(
        False,
        rule="older S3 R12(d)(v)",
        meaning="Failing to declare the ball on when snookered is worth seven (DIFF A14; 2024"
        " S3 R11(d)(v): only when the referee asks).",
    )
    cushion_face_unsnookers: bool = param(
        False,
        rule="older S2 R17(e)",
        meaning="A curved cushion face nearer than the obstructing ball means not snookered (DIFF A16).",
    )
    touching_starts_sequence: bool = param(
        True,
        rule="S3 R14(d)",
        meaning="A miss with the cue-ball touching a ball that could be on starts the FOUL AND A MISS"
        " sequence (not in the older edition, DIFF A5).",
    )
    non_striker_penalty: bool = param(
        True,
        rule="S3 R11(e)-(g)",
        meaning="A non-striker's infringement is a PENALTY; the older edition penalises it as if"
        " they were the striker (older S3 R2(b)(ii), R14(h), DIFF A15).",
    )
    warning_survives_event_foul: bool = param(
        False,
        rule="older S3 R14(d)(vi)",
        meaning="A foul before the stroke during a FOUL AND A MISS sequence keeps the Warning and the"
        " sequence whatever the non-offender chooses (DIFF A7); 2024 keeps it only when all balls"
        " are replaced (S3 R14(e)).",
    )
    replace_cue_ball_only: bool = param(
        False,
        rule="older S3 R14(f)",
        meaning="Replacing after a FOUL AND A MISS puts back the cue-ball (and the ball on) but leaves"
        " the object balls to the referee's discretion (DIFF A8).",
    )
    fb_snooker_after_scoring: bool = param(
        False,
        rule="older S3 R10(b)(ii)",
        meaning="The free-ball snooker foul applies after a scoring stroke too (DIFF A10).",
    )
    fb_snooker_black_and_any: bool = param(
        True,
        rule="S3 R12(b)(ii)",
        meaning="The free-ball snooker is no foul with Black and any one other colour left; the older"
        " edition excepts Pink and Black only (older S3 R10(b)(ii), DIFF A10).",
    )
    forfeit_points: bool = param(
        False,
        rule="older S4 R2(a)(ii)",
        meaning="A frame awarded for conduct forfeits the offender's points and gives the non-offender"
        " the balls left (2024 S4 R4(a)(ii) only in aggregate, DIFF A19).",
    )
    time_wasting_warning_first: bool = param(
        True,
        rule="S4 R3",
        meaning="A frame is awarded for time wasting only after a Warning (older S4 R1 lets the"
        " referee award it at once, DIFF A20).",
    )
    rerack_respotted_black_only: bool = param(
        True,
        rule="S3 R17(d)",
        meaning="A stalemate during a re-spotted Black re-spots the Black only (older S3 R16 re-racks"
        " the frame, DIFF A21).",
    )
    renumber: tuple[tuple[str, str], ...] = param(
        (), rule="-", meaning="Citation fix-ups where an edition numbers an item differently."
    )

    def cite(self, where: str, item: str = "") -> str:
        """The citation of ``item`` in the rule ``where`` of this edition."""
        for a, b in self.renumber:
            if item == a:
                item = b
        return f"{where}{item}"


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

# Referee-judged infringements (FORMAT.md stroke ``infringements``): the penalty item of
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


def _describe(code: str, st: Stroke, on: str) -> str:
    """The foul in words, for a finding's message."""
    if code == "first_contact":
        return f"{st.first[0]} hit first with {on} on"
    if code == "simultaneous":
        return f"{' and '.join(st.first)} hit simultaneously"
    if code == "ball_not_on_potted":
        return f"ball not on potted ({', '.join(b for b in st.potted if b != 'white')}) with {on} on"
    if code == "off_table":
        return f"{', '.join(st.off_table or ())} forced off the table"
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
    last_n: int = 0
    ledger: Ledger = field(default_factory=Ledger)
    recorded_end: FrameEnd | None = None
    findings: list[Finding] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)

    def copy(self) -> State:
        s = copy.copy(self)
        s.ledger = self.ledger.copy()
        s.findings = list(self.findings)
        s.outcomes = list(self.outcomes)
        return s

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
    s = State(edition, frame.frame, breaker, reds, phase=RED if reds > 0 else SEQUENCE, start_reds=reds)
    s.aggregate = bool(match.aggregate)
    s.to_play = breaker
    return s


# -- the fold --------------------------------------------------------------------------


def apply(state: State, record: FrameRecord) -> tuple[State, Outcome | None, list[Finding]]:
    """Apply one record to a state; the given state is left unchanged.

    Returns the new state, the due call of a stroke (``None`` for other records) and the
    findings the record raises.
    """
    s = state.copy()
    outcome, findings = _apply(s, record)
    return s, outcome, findings


def _apply(s: State, record: FrameRecord) -> tuple[Outcome | None, list[Finding]]:
    before = len(s.findings)
    outcome: Outcome | None = None
    if isinstance(record, Stroke):
        outcome = _stroke(s, record)
        if outcome is not None:
            s.outcomes.append(outcome)
    elif isinstance(record, Choice):
        _choice(s, record)
    elif isinstance(record, Event):
        _event(s, record)
    elif isinstance(record, FrameEnd):
        _frame_end(s, record)
    elif isinstance(record, Clock):
        _clock(s, record)
    return outcome, s.findings[before:]


def finish(state: State) -> FrameResult:
    """The frame's result: official and recorded score, winner, breaks, findings.

    The given state is left unchanged (the break in progress is closed on a copy).
    """
    return _finish(state.copy())


def _finish(s: State) -> FrameResult:
    s.ledger.close()
    recorded: tuple[int, int] | None = None
    if s.recorded_end is not None and s.recorded_end.score is not None and len(s.recorded_end.score) == 2:
        recorded = (s.recorded_end.score[0], s.recorded_end.score[1])
    elif s.ledger.recorded is not None:
        recorded = (s.ledger.recorded[0], s.ledger.recorded[1])
    winner = s.winner
    if not s.over and s.recorded_end is not None:
        a, b = s.ledger.official
        winner = "A" if a > b else "B" if b > a else None
    return FrameResult(
        frame=s.frame,
        score=s.ledger.score(),
        recorded=recorded,
        winner=winner,
        breaks=list(s.ledger.breaks),
        findings=sorted(s.findings, key=Finding.sort_key),
        outcomes=list(s.outcomes),
        visits=(s.ledger.visits[0], s.ledger.visits[1]),
        recorded_winner=s.recorded_end.winner if s.recorded_end is not None else None,
        end_reason=s.end_reason,
        breaker=s.breaker if s.breaker is not None else s.opener,
    )


def replay_frame(
    match: Match, frame: Frame, records: Sequence[FrameRecord], previous: FrameResult | None
) -> FrameResult:
    """Replay the records of one frame (the engine entry point of ``cuelog.replay``)."""
    s = new_frame(match, frame, previous)
    outcomes = s.outcomes
    for record in records:
        if type(record) is Stroke:
            outcome = _stroke(s, record)
            if outcome is not None:
                outcomes.append(outcome)
        else:
            _apply(s, record)
    return _finish(s)


# -- snookered (S2 R17), from rest positions -------------------------------------------

Point = tuple[float, float]


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


_D_CENTRE: Final = SPOTS["brown"]
_D_RADIUS: Final = 292.0
_D_STEP: Final = 10.0
"""Spacing in mm of the positions in the "D" from which an in-hand snooker is judged."""


def _d_positions() -> tuple[Point, ...]:
    """Cue-ball positions on or within the lines of the "D" (S2 R17(a), S3 R5): a grid at
    ``_D_STEP`` over the half-disc behind the Baulk-line plus points along its two lines."""
    cx, cy = _D_CENTRE
    r = _D_RADIUS
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


def snookered_in_hand(on: Sequence[Point], not_on: Sequence[Point]) -> bool:
    """Whether the cue-ball in hand is snookered: obstructed "from all possible positions on
    or within the lines of the D" (S2 R17(a)), judged from the positions of ``_d_positions``."""
    if not on:
        return False
    return all(snookered(p, on, not_on) is not None for p in _D_POSITIONS)


_POCKETS: Final = ((0.0, 0.0), (1778.0, 0.0), (0.0, 1784.5), (1778.0, 1784.5), (0.0, 3569.0), (1778.0, 3569.0))
_JAW_MM: Final = 2 * _BALL_MM
"""How near a pocket a ball must be for a curved cushion face (a jaw) to come between it
and the cue-ball; the log has no pocket geometry to say more (FORMAT 3)."""


def _near_jaw(p: Point) -> bool:
    return any((p[0] - x) ** 2 + (p[1] - y) ** 2 < _JAW_MM * _JAW_MM for x, y in _POCKETS)


def _snooker_from(
    positions: list[tuple[str, float, float]],
    on_balls: Sequence[str],
    *,
    in_hand: bool = False,
    jaws: bool = False,
) -> frozenset[Point] | bool | None:
    """Snookered on ``on_balls`` from the recorded positions; ``False`` when they cannot tell.

    With the cue-ball in hand the result is ``frozenset()`` (snookered, S2 R17(a)) or ``None``.
    ``jaws``: a curved cushion face can unsnooker (older S2 R17(e)), so a ball on, or the
    cue-ball, by a pocket makes the answer undecidable.
    """
    on = [(x, y) for b, x, y in positions if b in on_balls]
    if not on:
        return False
    if jaws and any(_near_jaw((x, y)) for b, x, y in positions if b in on_balls or (b == "white" and not in_hand)):
        return False
    not_on = [(x, y) for b, x, y in positions if b != "white" and b not in on_balls]
    if in_hand:
        return frozenset() if snookered_in_hand(on, not_on) else None
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


def _table_after(pos: Positions, st: Stroke, due: list[tuple[str, str]]) -> Positions | None:
    """The rest positions with the colours spotted after the stroke on their spots;
    ``None`` when a spotted colour's place is not known (``near``)."""
    listed = {b for b, _, _ in pos}
    placed: Positions = []
    if st.respots is not None:
        for r in st.respots:
            if r.ball in listed or r.ball == "red":
                continue
            if r.x is not None and r.y is not None:
                placed.append((r.ball, r.x, r.y))
            elif r.spot in SPOTS:
                placed.append((r.ball, *SPOTS[r.spot]))
            else:
                return None
    else:
        if any(sp not in SPOTS for b, sp in due if b not in listed):
            return None
        placed = [(b, *SPOTS[sp]) for b, sp in due if b not in listed]
    return [*pos, *placed] if placed else pos


def _position(positions: list[tuple[str, float, float]], ball: str) -> Point | None:
    return next(((x, y) for b, x, y in positions if b == ball), None)


def _incoming_on(positions: list[tuple[str, float, float]], seq_colour: str) -> tuple[str, ...]:
    """The ball on for the next turn, from the positions: Red while any is left, else the colour."""
    return ("red",) if any(b == "red" for b, _, _ in positions) else (seq_colour,)


# -- strokes ---------------------------------------------------------------------------


def _add(s: State, n: int, kind: str, rule: str, side: str | None, points: int, message: str) -> None:
    s.findings.append(Finding(n, kind, rule, side, points, message))


def _frame_over_stroke(s: State, n: int) -> None:
    if not s.late_reported:
        s.late_reported = True
        _add(s, n, FRAME_END_ERROR, "S2 R1", None, 0, f"play continued after the frame ended at stroke {s.end_n}")


def _end(s: State, n: int, winner: str | None, reason: str) -> None:
    s.over, s.winner, s.end_reason, s.end_n = True, winner, reason, n


def _leader(s: State) -> str | None:
    a, b = s.ledger.official
    return "A" if a > b else "B" if b > a else None


_FAST = True
"""Use :func:`_clean_stroke` for strokes that cannot raise anything (switched off in a test)."""


def _clean_stroke(s: State, st: Stroke) -> Outcome | None:
    """The common case, done cheaply: a legal stroke at the ball on, by the player entitled
    to it, with nothing called, nothing off the table and nothing that needs positions.

    Returns ``None`` (and changes nothing) whenever the stroke is not such a stroke; the
    general path :func:`_stroke` then decides. Both give the same result, which
    ``tests/test_snooker_properties.py`` checks.
    """
    first, potted = st.first, st.potted
    if (
        len(first) != 1
        or st.call is not None
        or st.infringements
        or st.off_table
        or st.positions is not None
        or s.foul is not None
        or s.free_ball
        or s.over
        or s.due_award is not None
        or st.striker != s.to_play
        or (s.in_hand and st.placement == "illegal")
        or s.edition.no_cushion_foul
    ):
        return None
    ball = first[0]
    nom = st.nominated
    striker = st.striker
    phase = s.phase
    if phase == RED:
        if ball != "red" or (nom is not None and nom != "red") or potted.count("red") != len(potted):
            return None
        if len(potted) > s.reds:
            return None
        scored = len(potted)
    else:
        if phase == COLOUR:
            if s.turn_of != striker or ball not in _BIT or not s.colours & _BIT[ball]:
                return None
        elif s.seq >= _BLACK or s.in_error or ball != COLOURS[s.seq] or not s.colours & _BIT[ball]:
            return None
        if (nom is not None and nom != ball) or (potted and potted != [ball]):
            return None
        scored = VALUE[ball] if potted else 0
    spot_due = phase == COLOUR and scored > 0
    respots = st.respots
    if respots is not None:
        if spot_due:
            if (
                len(respots) != 1
                or respots[0].ball != ball
                or _respot_name(respots[0].spot, respots[0].x, respots[0].y) != ball
            ):
                return None
        elif respots:
            return None

    # -- the stroke is clean: apply it (same effects as the general path) --
    n = st.n
    s.last_n = n
    s.in_hand = s.anywhere = False
    if phase == RED:
        s.reds -= scored
        if scored:
            s.phase = COLOUR
    elif phase == COLOUR:
        s.phase = RED if s.reds > 0 else SEQUENCE
    elif scored:
        s.colours &= ~_BIT[ball]
        s.seq += 1
    s.replaced, s.miss_seq, s.warned = False, 0, False
    ledger = s.ledger
    mismatch = ledger.stroke(n, striker, scored, 0, st.score)
    if mismatch is not None:
        s.findings.append(mismatch)
    break_id = len(ledger.breaks) + 1 if scored > 0 else None
    if scored:
        s.turn_of = s.to_play = striker
    else:
        ledger.end_visit()
        s.turn_of = None
        s.to_play = other(striker)
        if s.phase == COLOUR:
            s.phase = RED if s.reds > 0 else SEQUENCE
    _black_only_award(s, n)
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
        not scored or s.over,
        s.to_play,
        ledger.score(),
        break_id,
        ledger.visit_id,
        s.over,
        s.winner,
        ledger.credited,
    )


def _stroke(s: State, st: Stroke) -> Outcome | None:
    if s.opener is None:
        s.opener = st.striker
    if _FAST:
        done = _clean_stroke(s, st)
        if done is not None:
            return done
    ed = s.edition
    n, striker = st.n, st.striker
    spotting = _being_spotted(s, st) if st.infringements else None
    s.last_n = n
    if s.over:
        _frame_over_stroke(s, n)
        return None
    if s.due_award is not None:
        _add(
            s,
            n,
            MISS_ERROR,
            "S3 R14(d)(ii)",
            other(s.due_award),
            0,
            "a further failure after the Warning must lose the frame, but play continued",
        )
        s.due_award = None

    # Who may play (S3 R3(a),(b); after a foul S3 R10(h), R13).
    pending = s.foul
    if pending is not None and striker == pending.offender and s.to_play != striker and ed.play_again:
        # No choice recorded but the offender played: the non-offender asked them to
        # play again from the position left (S3 R10(h)(ii)); the free ball is void (R12(f)).
        _play_again(s, pending, replace=False, incoming=False)
    s.foul = None
    out_of_turn = s.to_play is not None and striker != s.to_play
    if out_of_turn and not (ed.out_of_turn_foul and st.call is not None and st.call.foul):
        rule = "S3 R3(b),(d)" if n == 1 or s.ledger.visit_id == 0 else "S3 R3(a)"
        _add(s, n, WRONG_STRIKER, rule, striker, 0, f"{striker} played but {s.to_play} was entitled to play")
    if s.turn_of != striker and s.phase == COLOUR:
        # A new turn begins on a Red while Reds remain, else on the colours (S3 R3(g)).
        s.phase = RED if s.reds > 0 else SEQUENCE
    free_ball = s.free_ball and s.turn_of != striker
    s.free_ball = False

    snapshot = (s.reds, s.colours, s.phase, s.seq, s.in_hand)
    rest = s.rest[1] if s.rest is not None and s.rest[0] == n - 1 and not s.in_hand else None
    first = st.first
    potted = st.potted
    off = st.off_table or []
    call = st.call
    called = call is not None and call.foul

    # The ball on (S3 R3(g),(h); S2 R11, R12) and the free ball (S3 R12(a)).
    nom = st.nominated if st.nominated is not None else s.nomination if free_ball else None
    s.nomination = None
    fb: str | None = None
    if s.phase == RED:
        on_value = 1
        on_names: tuple[str, ...] = ("red",)
        if nom is not None and nom != "red" and nom in VALUE:
            fb = nom
    elif s.phase == COLOUR:
        colour = nom if nom in _BIT else None
        if colour is None and len(first) == 1 and first[0] in _BIT:
            # No nomination recorded: the colour hit first is taken as nominated (docs/rulings.md).
            colour = first[0]
        on_names = (colour,) if colour is not None else ()
        on_value = VALUE[colour] if colour is not None else 0
    else:
        on = COLOURS[min(s.seq, _BLACK)]
        on_names = (on,)
        on_value = VALUE[on]
        if nom is not None and nom != on and nom in VALUE:
            fb = nom
    if free_ball and fb is None and nom is None and first and first[0] in VALUE and first[0] not in (*on_names, "red"):
        # FREE BALL called, no nomination recorded: the ball hit first is taken as the
        # nominated free ball, as a colour hit first is taken as nominated (docs/rulings.md).
        fb = first[0]
    fb_without_call = fb is not None and not free_ball
    ball_on_word = "red" if s.phase == RED else on_names[0] if on_names else "colour"
    if fb_without_call:
        fb = None

    def pen(*values: int) -> int:
        return max(ed.minimum, on_value, *values)

    # Every foul the facts show: (penalty, rule, code) (S3 R11; highest counts, S3 R10(g)).
    fouls: list[tuple[int, str, str]] = []
    P = ed.pen
    if out_of_turn and ed.out_of_turn_foul:
        fouls.append((pen(), ed.cite(P, "(a)(iv)"), "out_of_turn"))
    if s.in_hand and st.placement == "illegal" and not s.anywhere:
        fouls.append((pen(), ed.cite(P, "(a)(v)"), "in_hand"))
    unscored = 0
    for inf in st.infringements or ():
        spec = _INFRINGEMENTS.get(inf.code)
        if spec is None:
            continue
        kind, item = spec
        concerned = inf.ball
        if inf.code == "before_spotted" and spotting is not None:
            # S3 R3(h)(iv): striking before the referee has completed spotting the colour
            # just potted; R11(a)(i) when that colour was a free ball, else R11(b)(ii).
            colour, was_free_ball, points = spotting
            concerned = concerned or colour
            if was_free_ball:
                kind, item = "a", "(a)(i)"
            unscored = points
        if kind == "7":
            fouls.append((7, ed.cite(P, item), inf.code))
        elif kind == "b":
            fouls.append((pen(VALUE.get(concerned or "", 0)), ed.cite(P, item), inf.code))
        else:
            fouls.append((pen(), ed.cite(P, item), inf.code))
    miss_type = False
    if not first:
        fouls.append((pen(), ed.cite(P, "(a)(vi)"), "no_contact"))
        miss_type = True
    elif len(first) == 1:
        b = first[0]
        if fb is not None:
            if b != fb:
                fouls.append((pen(VALUE.get(b, 0)), ed.cite(P, "(b)(iv)"), "first_contact"))
                miss_type = True
        elif s.phase == RED:
            if b != "red":
                fouls.append((pen(VALUE.get(b, 0)), ed.cite(P, "(b)(iv)"), "first_contact"))
                miss_type = True
        elif s.phase == COLOUR:
            if b == "red" and not on_names:
                # Playing at a Red straight after a Red (S3 R11(d)(iii)).
                fouls.append((7, ed.cite(P, "(d)(iii)"), "reds_successive"))
                miss_type = True
            elif b not in on_names:
                fouls.append((pen(VALUE.get(b, 0)), ed.cite(P, "(b)(iv)"), "first_contact"))
                miss_type = True
        elif b not in on_names:
            fouls.append((pen(VALUE.get(b, 0)), ed.cite(P, "(b)(iv)"), "first_contact"))
            miss_type = True
    else:
        pair = set(first)
        legal_pair = (s.phase == RED and fb is None and pair == {"red"}) or (
            fb is not None and fb in pair and bool(pair & ({"red"} if s.phase == RED else set(on_names)))
        )
        if not legal_pair:
            fouls.append((pen(*(VALUE.get(b, 0) for b in first)), ed.cite(P, "(c)"), "simultaneous"))
            miss_type = not (pair & set(on_names)) and (fb is None or fb not in pair)

    # What may be potted without a foul.
    pottable = set(on_names) if s.phase != RED else {"red"}
    if fb is not None:
        pottable.add(fb)
    if "white" in potted:
        fouls.append((pen(), ed.cite(P, "(a)(vii)"), "cue_ball_potted"))
    for b in potted:
        if b != "white" and b not in pottable:
            fouls.append((pen(VALUE.get(b, 0)), ed.cite(P, "(b)(iii)"), "ball_not_on_potted"))
    for b in off:
        fouls.append((pen(VALUE.get(b, 0)), ed.cite(P, "(b)(x)"), "off_table"))
    if ed.no_cushion_foul and not potted and st.cushions is not None:
        cu = st.cushions
        if cu.after_contact is False and (cu.objects or 0) == 0:
            fouls.append((max(5, on_value), "SO 17", "no_cushion"))

    # Fouls the rest positions show (S2 R17): after a non-scoring stroke, the cue-ball
    # snookered by the nominated free ball (S3 R12(b)(ii), R11(a)(viii)); in six reds,
    # the opponent snookered behind the colour nominated after a Red (S3 R19(d), R11(a)(ix)).
    pos = st.positions
    non_scoring = not any(b in potted for b in (*on_names, *(fb,)) if b)
    if pos is not None and "white" not in potted:
        if fb is not None and (non_scoring or ed.fb_snooker_after_scoring):
            seq_colour = COLOURS[min(s.seq, _BLACK)]
            left = [b for b, _, _ in pos if b != "white"]
            two_left = len(left) == 2 and "black" in left and (ed.fb_snooker_black_and_any or "pink" in left)
            eff = _snooker_from(
                pos,
                _incoming_on(pos, seq_colour) if s.phase == RED else (seq_colour,),
                jaws=ed.cushion_face_unsnookers,
            )
            fbp = _position(pos, fb)
            if not two_left and isinstance(eff, frozenset) and fbp is not None and eff == {fbp}:
                fouls.append((pen(), ed.cite(P, "(a)(viii)"), "free_ball_snooker"))
        if non_scoring and ed.snooker_behind_nominated and s.phase == COLOUR and on_names:
            nxt = _incoming_on(pos, "yellow")
            eff = _snooker_from(pos, nxt, jaws=ed.cushion_face_unsnookers)
            cp = _position(pos, on_names[0])
            if isinstance(eff, frozenset) and cp is not None and eff == {cp}:
                fouls.append((pen(), ed.cite(P, "(a)(ix)"), "snookered_behind_nominated"))

    # R11(d)(vi): a foul after potting a Red before a colour is nominated is worth seven.
    # Whether the nomination was made is a fact the log may not hold: without one the
    # penalty may lie anywhere from the value shown up to seven.
    penalty_hi = 0
    if fouls:
        fouls.sort(key=lambda f: -f[0])
        penalty, rule, top = fouls[0]
        what = _describe(top, st, fb or ball_on_word)
        penalty_hi = penalty
        if s.phase == COLOUR and not on_names and nom is None:
            penalty_hi = 7
        elif ed.declare_when_snookered and nom is None and rest is not None:
            # Older S3 R12(d)(v): seven for failing to declare the ball on when snookered;
            # whether a declaration was made is not in the facts, so up to seven stands.
            names = ("red",) if s.phase == RED else COLOURS if s.phase == COLOUR else on_names
            eff = _snooker_from(rest, names, jaws=True)
            if isinstance(eff, frozenset):
                penalty_hi = 7
    else:
        penalty, rule, what = 0, "", ""
    due_foul = bool(fouls)
    reasons = tuple(code for _, _, code in fouls)

    # Scoring as if legal (S3 R3(g),(h), R12(c)-(e)): used for a legal stroke, and for a
    # foul nobody called, which stands as played (S3 R10(c)).
    reds_potted = potted.count("red")
    reds_off = reds_potted + off.count("red") if off else reds_potted
    colours_gone = [b for b in potted if b in _BIT]
    if off:
        colours_gone += [b for b in off if b in _BIT]
    for b in colours_gone:
        if s.missing & _BIT[b]:
            s.missing &= ~_BIT[b]
        elif not s.colours & _BIT[b]:
            _add(s, n, INVALID_RECORD, "FORMAT 4", striker, 0, f"{b} potted or forced off but it was not on the table")
    if reds_off > s.reds:
        _add(
            s,
            n,
            INVALID_RECORD,
            "FORMAT 4",
            striker,
            0,
            f"{reds_off} red(s) potted or forced off but only {s.reds} on the table",
        )
    fb_potted = fb is not None and fb in potted
    if s.phase == RED:
        legal_points = reds_potted + (1 if fb_potted else 0)
    elif s.phase == COLOUR:
        legal_points = VALUE[on_names[0]] if on_names and on_names[0] in potted else 0
    else:
        on_potted = on_names[0] in potted
        legal_points = on_value if (on_potted or fb_potted) else 0

    # The calls as made decide how play went on (S3 R10(c)).
    foul_stands = called
    scored = 0 if foul_stands else legal_points

    # The penalty the score carries: the rules' value for a called foul (a wrong value is
    # corrected); the called value when the facts show no foul (docs/rulings.md).
    called_points = call.points if call is not None and call.points is not None else None
    official_penalty = 0
    findings_before = len(s.findings)
    explained = False
    if foul_stands:
        if due_foul:
            if called_points is None or penalty <= called_points <= penalty_hi:
                official_penalty = called_points if called_points is not None else penalty
            else:
                official_penalty = penalty if called_points < penalty else penalty_hi
                _add(
                    s,
                    n,
                    PENALTY_VALUE,
                    rule,
                    striker,
                    abs(official_penalty - called_points),
                    f"{what}: foul called for {called_points}, the rules give {official_penalty}",
                )
                explained = True
        else:
            official_penalty = called_points if called_points is not None else max(ed.minimum, on_value)
            if st.infringements is not None:
                _add(
                    s,
                    n,
                    UNSUPPORTED_FOUL,
                    ed.cite(P),
                    striker,
                    official_penalty,
                    "foul called but the facts show no foul",
                )
    elif due_foul and reasons != ("out_of_turn",):  # out of turn alone: the wrong_striker finding
        if fb_without_call:
            _add(
                s,
                n,
                FREE_BALL_ERROR,
                ed.cite(ed.free_ball),
                striker,
                penalty,
                f"{nom} taken as a free ball but no FREE BALL was called ({what}, worth {penalty})",
            )
        else:
            _add(
                s,
                n,
                CONDONED_FOUL,
                rule,
                striker,
                penalty,
                f"{what}: foul not called (worth {penalty}), condoned",
            )

    # FOUL AND A MISS (S3 R14): due when the foul is a miss (S2 R21) and nobody needed
    # penalty points before or as a result of the stroke (R14(a)(i), (c)). Whether a
    # clear path existed is not in the facts, so a missing call raises nothing.
    needed_before = (due_foul or called) and penalty_points_required(s)
    waived = _miss_waived(s, striker)
    miss_called = bool(call is not None and call.foul and call.miss)
    if miss_called:
        if not ed.miss_rule:
            _add(s, n, MISS_ERROR, "SO 19(i)", striker, 0, "FOUL AND A MISS called but the rule does not apply")
        elif waived:
            behind = f"more than {ed.miss_waived_behind} points behind"
            _add(s, n, MISS_ERROR, "S3 R14(a)", striker, 0, f"FOUL AND A MISS called with the offender {behind}")
        elif due_foul and not miss_type:
            _add(s, n, MISS_ERROR, "S2 R21", striker, 0, "FOUL AND A MISS called but the ball on was hit first")
        elif not ed.miss_black_only and s.black_only:
            _add(s, n, MISS_ERROR, "S3 R14", striker, 0, "FOUL AND A MISS called with only the Black left")

    # -- the table after the stroke (as it really was) ---------------------------------
    legal_as_played = not foul_stands
    s.reds = max(0, s.reds - reds_off)
    for b in colours_gone:
        s.colours &= ~_BIT[b]
    if "white" in potted or "white" in off:
        s.in_hand = True
        s.anywhere = False
    else:
        s.in_hand = False
        s.anywhere = False
    frame_ends = False
    tie = False
    next_phase = s.phase
    stays_off: set[str] = set()
    if s.phase == RED:
        if legal_as_played and scored > 0:
            next_phase = COLOUR
        elif s.reds == 0:
            next_phase = SEQUENCE
    elif s.phase == COLOUR:
        # Potted or not, the colour after a Red is spotted (S3 R3(h)(i)) and Red is on
        # again; after the last Red the colours follow in order (S3 R3(h)(ii)).
        next_phase = RED if s.reds > 0 else SEQUENCE
    else:
        if legal_as_played and on_names[0] in potted:
            stays_off.add(on_names[0])  # S3 R3(h)(iii)
            if s.seq == _BLACK:
                frame_ends = True
            bit = _BIT[on_names[0]]
            if s.in_error & bit:
                # Potted again after being spotted in error (S3 R7(b)): scored, but only
                # for good once the next stroke is played or an infringement committed.
                s.in_error &= ~bit
                if ed.deferred_points:
                    s.deferred = (n, striker, on_names[0], legal_points)
                _resume(s)
            else:
                s.seq += 1
        elif foul_stands and s.seq == _BLACK:
            frame_ends = True  # S3 R4(a): the first foul with Black only ends the frame
    s.phase = next_phase

    # Colours to spot (S3 R7): every colour potted, pocketed or forced off, except the
    # colour potted in sequence, and nothing once the frame is over.
    due_spots: list[tuple[str, str]] = []
    if not frame_ends and colours_gone:
        to_spot = sorted({b for b in colours_gone if b not in stays_off}, key=lambda b: -VALUE[b])
        due_spots = _spots(to_spot, s.colours, st.positions)

    # -- the ledger: official score, recorded scoreboard, breaks -----------------------
    ledger = s.ledger
    if foul_stands and unscored and "before_spotted" in reasons:
        # S3 R3(h)(iv): "the value of the colour shall not be scored".
        ledger.retract(striker, unscored)
    explained = explained or (
        len(s.findings) > findings_before
        and any(f.kind in (PENALTY_VALUE, FREE_BALL_ERROR, INVALID_RECORD) for f in s.findings[findings_before:])
    )
    mismatch = ledger.stroke(
        n, striker, scored, official_penalty, st.score, explained=explained, rule=ed.cite(P) if foul_stands else "S3 R1"
    )
    if mismatch is not None:
        face = VALUE[fb] if fb is not None and fb_potted and legal_as_played else 0
        if face and not (snapshot[2] == RED and reds_potted) and mismatch.points == abs(face - scored):
            # The free ball counted at its face value, not the ball on's (S3 R12(a)(ii),(c)).
            mismatch = Finding(
                n,
                FREE_BALL_ERROR,
                ed.cite(ed.free_ball, "(c)"),
                striker,
                mismatch.points,
                f"free ball {fb} scored as {face}; it is worth the ball on, {scored}",
            )
        s.findings.append(mismatch)
    break_id = len(ledger.breaks) + 1 if scored > 0 else None

    # Respots as recorded (S3 R7, R7(b), R7(d)) and the table as it really was. On a
    # tie the Black goes back (S3 R4(b)(i)): recorded here or by the respot_black event.
    tied = frame_ends and ed.respot_black_on_tie and not s.aggregate and ledger.official[0] == ledger.official[1]
    if tied and st.respots is not None and any(r.ball == "black" for r in st.respots):
        due_spots = _spots(["black"], s.colours, st.positions)
    _respots(s, n, striker, st, due_spots)
    _reds_back(s)

    # Frame end (S3 R4; S2 R1).
    if frame_ends:
        if tied:
            tie = True
            s.respotted_black = True
            s.opener = None
            s.colours = _BIT["black"]
            s.seq = _BLACK
            s.phase = SEQUENCE
            s.in_hand = True
        else:
            _end(s, n, _leader(s), "foul" if foul_stands else "pot")

    # The turn (S2 R5) and who plays next.
    continues = not foul_stands and scored > 0 and not s.over and not tie
    turn_ends = not continues
    opponent = other(striker)
    if continues:
        s.turn_of = striker
        s.to_play = striker
    else:
        ledger.end_visit()
        s.turn_of = None
        s.to_play = None if tie else opponent
        if s.phase == COLOUR:
            s.phase = RED if s.reds > 0 else SEQUENCE
    free_ball_called = bool(call is not None and call.foul and call.free_ball)
    free_ball_due = free_ball_called if foul_stands else False
    outcome_free_ball = free_ball_due
    if (foul_stands or due_foul) and not s.over and pos is not None and not ed.in_hand_after_foul:
        # S3 R12: after a foul, FREE BALL is due exactly when the incoming player is
        # snookered; in hand, from every position in the D (S2 R17(a)). The due call says
        # so even when the foul was not called (the simulator asks with no call written).
        eff = _snooker_from(
            pos,
            _incoming_on(pos, COLOURS[min(s.seq, _BLACK)]),
            in_hand=s.in_hand,
            jaws=ed.cushion_face_unsnookers,
        )
        if eff is not False:
            outcome_free_ball = eff is not None
        if eff is not False and foul_stands:
            free_ball_due = eff is not None
            if free_ball_due != free_ball_called:
                _add(
                    s,
                    n,
                    FREE_BALL_ERROR,
                    ed.cite(ed.free_ball),
                    striker,
                    0,
                    "FREE BALL "
                    + (
                        "called but the incoming player is not snookered"
                        if free_ball_called
                        else "not called though the incoming player is snookered"
                    ),
                )
    if foul_stands and not s.over:
        needed = needed_before or penalty_points_required(s)
        s.foul = _Foul(n, striker, snapshot, miss_called and ed.miss_rule, free_ball_due, False, needed, rest=rest)
        s.free_ball = free_ball_due
        if ed.in_hand_after_foul:
            s.in_hand = True
            s.anywhere = True
        if miss_called and ed.miss_rule:
            if not s.replaced:
                # A new sequence: could the ball on be hit full, or was it touching (S3 R14(d))?
                geo = _miss_geometry(rest, snapshot[2], on_names) if rest is not None else None
                s.full_ball = None if geo is None else geo[1] or (geo[2] and ed.touching_starts_sequence)
            _miss_sequence(s, n, striker)
        else:
            # A foul without FOUL AND A MISS breaks the run of consecutive calls (S3 R14(d)).
            s.replaced, s.miss_seq, s.warned = False, 0, False
    elif not foul_stands:
        s.replaced = False
        s.miss_seq = 0
        s.warned = False
    if tie:
        s.foul = None
        s.free_ball = False

    # Black only with the player to play more than seven behind (S2 R1(c)).
    _black_only_award(s, n)

    due_miss = (
        due_foul
        and miss_type
        and ed.miss_rule
        and not waived
        and not needed_before
        and not penalty_points_required(s)
        and (ed.miss_black_only or not s.black_only)
        # A foul that ends the frame, or ties it on the last Black (S3 R4(a),(b)), leaves
        # no stroke to replay: FOUL AND A MISS has nothing to offer.
        and not s.over
        and not tie
    )
    if due_miss and foul_stands and not miss_called and not free_ball and rest is not None:
        # S3 R14(c): with a clear straight path to a ball that is or could be on, FOUL AND
        # A MISS is compulsory (R14(a)(i) excepted, which due_miss already says).
        geo = _miss_geometry(rest, snapshot[2], on_names)
        if geo is not None and geo[0] and not geo[2]:
            _add(
                s,
                n,
                MISS_ERROR,
                "S3 R14(c)",
                striker,
                0,
                "FOUL AND A MISS not called though the cue-ball had a clear path to a ball on",
            )
    table = _table_after(pos, st, due_spots) if pos is not None else None
    s.rest = (n, table) if table is not None else None
    return Outcome(
        n=n,
        striker=striker,
        scored=0 if due_foul else legal_points,
        penalty=penalty,
        foul=due_foul,
        reasons=reasons,
        ball_on=ball_on_word,
        miss=due_miss,
        free_ball=outcome_free_ball,
        respots=tuple(due_spots),
        turn_ends=turn_ends or s.over,
        next_striker=s.to_play,
        score=ledger.score(),
        break_id=break_id,
        visit_id=ledger.visit_id,
        frame_over=s.over,
        winner=s.winner,
        credited=ledger.credited,
    )


def _being_spotted(s: State, st: Stroke) -> tuple[str, bool, int] | None:
    """The colour the referee was spotting after the previous stroke (S3 R3(h)(iv), R7(c)(ii)).

    Returns the colour, whether it was potted as a free ball, and the points it scored
    when that stroke was part of this striker's break (what R3(h)(iv) takes back).
    """
    if not s.outcomes:
        return None
    prev = s.outcomes[-1]
    if prev.n != st.n - 1 or not prev.respots:
        return None
    wanted = next((i.ball for i in st.infringements or () if i.code == "before_spotted" and i.ball), None)
    colour = next((b for b, _ in prev.respots if b == wanted), prev.respots[0][0])
    potted_legally = not prev.foul and prev.scored > 0
    was_free_ball = potted_legally and prev.ball_on not in (colour, "colour")
    points = 0
    if potted_legally and prev.striker == st.striker and not prev.turn_ends:
        if was_free_ball:
            points = 1 if prev.ball_on == "red" else VALUE.get(prev.ball_on or "", 0)
        elif prev.ball_on == colour:
            points = VALUE[colour]
    return colour, was_free_ball, points


def _black_only_award(s: State, n: int) -> None:
    if s.over or not s.edition.award_non_striker or not s.black_only or s.to_play is None or s.aggregate:
        return
    a, b = s.ledger.official
    lead = (a - b) if s.to_play == "B" else (b - a)
    if lead > 7 and not s.respotted_black:
        _end(s, n, other(s.to_play), "award")


def _miss_sequence(s: State, n: int, offender: str) -> None:
    """Count FOUL AND A MISS calls from the original position (S3 R14(d), six reds R19)."""
    ed = s.edition
    s.miss_seq = s.miss_seq + 1 if s.replaced else 1
    s.replaced = False
    if ed.miss_cap is not None and s.miss_seq > ed.miss_cap:
        _add(
            s,
            n,
            MISS_ERROR,
            "S3 R19(a)",
            offender,
            0,
            f"FOUL AND A MISS number {s.miss_seq} from the original position; at most {ed.miss_cap}",
        )
    if ed.miss_award and s.warned and s.miss_seq > ed.warn_after and s.full_ball is not False:
        s.due_award = other(offender)


def _spots(to_spot: list[str], colours: int, positions: list[tuple[str, float, float]] | None) -> list[tuple[str, str]]:
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
        sx, sy = SPOTS[spot]
        return all((x - sx) ** 2 + (y - sy) ** 2 >= _BALL_MM**2 for x, y in others)

    for ball in to_spot:
        spot = ball if free(ball) else next((c for c in reversed(COLOURS) if free(c)), "near")
        if spot != "near":
            placed.append(spot)
        out.append((ball, spot))
    return out


def _respot_name(r_spot: str | None, x: float | None, y: float | None) -> str | None:
    if r_spot is not None:
        return r_spot
    if x is None or y is None:
        return None
    for name, (sx, sy) in SPOTS.items():
        if (x - sx) ** 2 + (y - sy) ** 2 < (_BALL_MM / 2) ** 2:
            return name
    return "near"


def _respots(s: State, n: int, striker: str, st: Stroke, due: list[tuple[str, str]]) -> None:
    due_map = dict(due)
    if st.respots is None:
        # Unknown: the table gets what the rules put on it.
        for ball in due_map:
            s.colours |= _BIT[ball]
        return
    recorded: dict[str, str | None] = {}
    for r in st.respots:
        if r.ball == "red":
            # A Red spotted in error (S3 R7(d)): it stays in play until removed.
            _add(s, n, RESPOT_IN_ERROR, "S3 R7(d)", None, 0, "a Red was spotted")
            s.reds += 1
            continue
        if r.ball not in _BIT:
            continue
        recorded[r.ball] = _respot_name(r.spot, r.x, r.y)
    positions_known = st.positions is not None
    for ball, spot in due:
        if ball not in recorded:
            _add(s, n, RESPOT_MISSING, "S3 R7", None, VALUE[ball], f"{ball} had to be spotted but was not")
            s.missing |= _BIT[ball]
            continue
        s.colours |= _BIT[ball]
        got = recorded[ball]
        if positions_known and got is not None and got != spot:
            # Where a spot is occupied is only known from the positions (S2 R18).
            _add(s, n, RESPOT_WRONG_SPOT, "S3 R7(e)-(h)", None, 0, f"{ball} spotted on {got}, due on {spot}")
    for ball in recorded:
        if ball not in due_map:
            s.colours |= _BIT[ball]
            _add(s, n, RESPOT_IN_ERROR, "S3 R7(b)", None, VALUE[ball], f"{ball} spotted but had to stay off the table")
            if s.phase == SEQUENCE and COLOURS.index(ball) < s.seq:
                # Potted in sequence and put back: played as correctly spotted until the
                # error is discovered (S3 R7(b),(c)), so it is the colour on again.
                if not s.in_error:
                    s.resume = s.seq
                s.in_error |= _BIT[ball]
                _resume(s)


def _resume(s: State) -> None:
    """The colour on in the sequence: the lowest colour spotted in error, else the next one (S3 R7(b))."""
    if s.in_error:
        s.seq = (s.in_error & -s.in_error).bit_length() - 1
    else:
        s.seq = s.resume


# -- choices after a foul (S3 R10(h),(i), R12(f), R13, R14(b), R16) ------------------------


def _play_again(s: State, f: _Foul, *, replace: bool, incoming: bool) -> None:
    if replace and s.edition.replace_cue_ball_only and not f.before_stroke:
        # Older S3 R14(a),(f): the cue-ball goes back and the ball on is as before the
        # stroke; object balls stay where they are unless the referee puts them back
        # (recorded as ``spot_correction``); colours off the table are spotted.
        _, colours, s.phase, s.seq, s.in_hand = f.snapshot
        s.colours |= colours
        if s.phase == RED and s.reds == 0:
            s.phase, s.seq = SEQUENCE, 0
    elif replace:
        s.reds, s.colours, s.phase, s.seq, s.in_hand = f.snapshot
    if replace:
        # Back to the original position; the older edition leaves object balls to the referee.
        s.rest = (s.last_n, f.rest) if f.rest is not None and not s.edition.replace_cue_ball_only else None
    elif f.before_stroke:
        s.rest = None  # a ball touched before the stroke may have moved
    s.free_ball = False  # S3 R12(f)
    player = other(f.offender) if incoming else f.offender
    s.to_play = player
    # The offender replaying from the original position keeps the ball on it had
    # (S3 R14(b)(iii)); any other restart is a new turn.
    s.turn_of = f.offender if (replace and not incoming) else None
    if s.turn_of is None and s.phase == COLOUR:
        s.phase = RED if s.reds > 0 else SEQUENCE
    s.replaced = replace and not incoming
    if not s.replaced:
        s.miss_seq, s.warned = 0, False  # S3 R14(d)(iii)


def _choice(s: State, c: Choice) -> None:
    ed = s.edition
    f = s.foul
    n = c.after
    if s.over:
        return
    if f is None:
        _add(s, n, INVALID_RECORD, "S3 R10(h)", c.side, 0, f"choice {c.option!r} with no foul to answer")
        return
    if c.side != other(f.offender):
        _add(s, n, WRONG_STRIKER, "S3 R10(h)", c.side, 0, f"{c.side} chose after their own foul")
    option = c.option
    if option != "play" and not ed.play_again:
        _add(s, n, INVALID_RECORD, "SO 15", c.side, 0, f"option {option!r} does not exist: the incoming player plays")
    # Older S3 R14(d)(v): after a foul before the stroke, the balls may be replaced only
    # within a FOUL AND A MISS sequence (the cue-ball had been replaced).
    in_sequence = f.before_stroke and f.after_replace and ed.warning_survives_event_foul
    if option in ("replace_return", "replace_play") and not (
        f.miss or (f.before_stroke and ed.replace_after_event_foul) or (in_sequence and option == "replace_return")
    ):
        _add(s, n, MISS_ERROR, "S3 R14(b)", c.side, 0, f"balls replaced ({option}) but no FOUL AND A MISS was called")
    if option == "play":
        if f.before_stroke:
            s.rest = None
        s.to_play = other(f.offender)
        s.turn_of = None
        s.nomination = c.nominated if s.free_ball else None
        if f.miss or f.before_stroke:
            s.miss_seq, s.warned, s.replaced = 0, False, False
    elif option == "return":
        keep = (s.miss_seq, s.warned, s.replaced)
        _play_again(s, f, replace=False, incoming=False)
        if in_sequence:
            # Older S3 R14(d)(iv),(vi): played again from the position left, the Warning
            # and the sequence stay in effect (2024 S3 R14(e): only after full replacement).
            s.miss_seq, s.warned, s.replaced = keep
    elif option == "replace_return":
        keep_warning = s.warned
        _play_again(s, f, replace=True, incoming=False)
        if f.before_stroke:
            s.warned = keep_warning  # S3 R14(e): the Warning survives full replacement
    elif option == "replace_play":
        _play_again(s, f, replace=True, incoming=True)
    elif option == "anywhere":
        if ed.miss_cap is None or s.miss_seq < ed.miss_cap or f.needed:
            # Only after the fifth FOUL AND A MISS, and not when penalty points were needed.
            _add(s, n, MISS_ERROR, "S3 R19(b)(iii)", c.side, 0, "cue-ball placed anywhere against S3 R19(b)(iii)")
        s.to_play = other(f.offender)
        s.turn_of = None
        s.in_hand, s.anywhere, s.free_ball = True, True, False
        s.miss_seq, s.warned = 0, False
    else:
        _add(s, n, INVALID_RECORD, "S3 R10(h)", c.side, 0, f"unknown option {option!r}")
        return
    s.foul = None
    _black_only_award(s, n)


# -- events ----------------------------------------------------------------------------


def _event(s: State, e: Event) -> None:
    ed = s.edition
    n = e.after
    kind = e.kind
    if kind in ("spot_correction", "rerack", "respot_black"):
        s.rest = None  # the balls were moved: the recorded positions no longer hold
    if kind == "spot_correction":
        _spot_correction(s, e)
        return
    if kind == "warning":
        if e.reason == "miss":
            if s.miss_seq < ed.warn_after:
                _add(
                    s,
                    n,
                    MISS_ERROR,
                    "S3 R19(b)" if ed.miss_cap else "S3 R14(d)(ii)",
                    e.side,
                    0,
                    f"Warning given after {s.miss_seq} FOUL AND A MISS call(s); due after {ed.warn_after}",
                )
            elif s.full_ball is False and ed.miss_award:
                _add(
                    s,
                    n,
                    MISS_ERROR,
                    "S3 R14(d)",
                    e.side,
                    0,
                    "Warning given but the original position offered no full-ball contact with a ball on",
                )
            s.warned = True
        elif e.reason == "time_wasting" and e.side is not None:
            s.time_wasting_warned = (*s.time_wasting_warned, e.side)
        return
    if kind == "respot_black":
        if s.aggregate and s.over and s.winner is None and s.reds == 0 and s.seq >= _BLACK:
            # S3 R4(c): aggregate level after the last frame: a re-spotted Black decides.
            s.over, s.end_reason, s.respotted_black = False, None, True
            s.colours, s.seq, s.in_hand = _BIT["black"], _BLACK, True
        if not s.respotted_black:
            _add(
                s,
                n,
                FRAME_END_ERROR,
                "S3 R4(b)",
                e.side,
                0,
                "re-spotted Black but the scores were not tied on the last Black",
            )
        s.to_play = e.side
        s.turn_of = None
        s.opener = None
        return
    if kind == "rerack":
        # Stalemate (S3 R17(b),(c)): scores nullified, balls reset, same opener.
        if s.respotted_black and ed.rerack_respotted_black_only:
            s.colours = _BIT["black"]  # S3 R17(d): only the Black, scores stand
        else:
            s.reds = s.start_reds
            s.colours, s.seq, s.in_error, s.deferred = _ALL_COLOURS, 0, 0, None
            s.respotted_black = False  # older S3 R16: the frame starts again (DIFF A21)
            s.phase = RED if s.reds > 0 else SEQUENCE
            # Scores nullified; the breaks made before the re-rack were made and stay.
            old = s.ledger
            old.close()
            s.ledger = Ledger()
            s.ledger.breaks = list(old.breaks)
            s.ledger.visits = list(old.visits)
            s.ledger.visit_id = old.visit_id
        s.in_hand, s.foul, s.free_ball, s.turn_of = True, None, False, None
        s.miss_seq, s.warned, s.replaced = 0, False, False
        s.to_play = s.opener
        return
    if s.over:
        # The frame already ended (e.g. awarded under S2 R1(c)); a concession, claim or
        # award that gives it to the same side only confirms it.
        if kind in ("concede", "claim", "award") and e.side is not None:
            winner = other(e.side) if kind == "concede" else e.side
            if winner != s.winner:
                _frame_over_stroke(s, n)
        elif kind in ("foul", "time_foul"):
            _frame_over_stroke(s, n)
        return
    if kind == "foul" or kind == "time_foul":
        _event_foul(s, e)
        return
    if kind == "concede" and e.side is not None:
        if s.due_award is not None:
            s.due_award = None
        if ed.concede_striker_only and s.to_play is not None and e.side != s.to_play:
            _add(s, n, FRAME_END_ERROR, "S4 R5(a)", e.side, 0, "conceded while not the striker")
        elif not penalty_points_required(s):
            _add(
                s,
                n,
                FRAME_END_ERROR,
                "S4 R2(b)",
                e.side,
                0,
                f"conceded with {points_remaining(s)} points on the table and nobody needing penalty points",
            )
        if s.aggregate:
            # S4 R2(f): the opponent receives the value of the balls left, Reds eight each.
            s.ledger.award(n, other(e.side), points_remaining(s))
        _end(s, n, other(e.side), "concede")
        return
    if kind == "claim" and e.side is not None:
        a, b = s.ledger.official
        lead = (a - b) if e.side == "A" else (b - a)
        striker_ok = s.to_play is None or s.to_play == e.side
        if not (s.black_only and lead > 7 and striker_ok and not s.aggregate):
            _add(
                s,
                n,
                FRAME_END_ERROR,
                "S2 R1(b)",
                e.side,
                0,
                "claim without Black only and a lead of more than seven as striker",
            )
        _end(s, n, e.side, "claim")
        return
    if kind == "award" and e.side is not None:
        if e.reason == "miss":
            due = s.due_award
            if due is None or due != e.side:
                rule = "S3 R19" if not ed.miss_award else "S3 R14(d)(ii)"
                _add(
                    s,
                    n,
                    FRAME_END_ERROR,
                    rule,
                    other(e.side),
                    0,
                    "frame awarded for a miss without a further failure after the Warning",
                )
        elif e.reason in ("time_wasting", "unsporting"):
            _forfeit(s, n, e)
        s.due_award = None
        _end(s, n, e.side, "award")
        return


def _forfeit(s: State, n: int, e: Event) -> None:
    """A frame awarded under Section 4 (conduct, time wasting)."""
    ed = s.edition
    winner = e.side
    assert winner is not None
    offender = other(winner)
    if (
        e.reason == "time_wasting"
        and ed.time_wasting_warning_first
        and s.frame == 1
        and offender not in s.time_wasting_warned
    ):
        # S4 R3(a),(b): the frame is awarded only after a Warning. A Warning given in an
        # earlier frame of the game is not in this frame's records, so only frame 1 tells.
        _add(s, n, FRAME_END_ERROR, "S4 R3(b)", offender, 0, "frame awarded for time wasting without a Warning")
    if s.aggregate or ed.forfeit_points:
        # S4 R4(a)(ii) (aggregate only; older S4 R2(a)(ii) always): the offender forfeits
        # their points and the opponent receives the balls left, Reds eight each.
        i = 0 if offender == "A" else 1
        s.ledger.award(n, offender, -s.ledger.official[i])
        s.ledger.award(n, winner, points_remaining(s))


def _event_foul(s: State, e: Event) -> None:
    """A foul with no stroke (S3 R10(i)) or a shot-clock time foul (SO 16)."""
    ed = s.edition
    n = e.after
    side = e.side or s.to_play
    if side is None:
        _add(s, n, INVALID_RECORD, "FORMAT 4", None, 0, "foul event without a side")
        return
    on_value = 1 if s.phase == RED else VALUE[COLOURS[min(s.seq, _BLACK)]] if s.phase == SEQUENCE else 0
    if e.kind == "time_foul":
        s.time_fouls = (*s.time_fouls, n)
        if not ed.time_foul:
            _add(s, n, TIME_FOUL_ERROR, "SO 16", side, e.points or 0, "time foul in a game without a shot clock rule")
            due = e.points or 0
        else:
            due = max(5, on_value)
        rule = "SO 16"
    else:
        spec = _INFRINGEMENTS.get(e.code or "", ("b", "(b)(vi)"))
        kind, item = spec
        rule = ed.cite(ed.pen, item)
        if s.to_play is not None and side != s.to_play and s.turn_of == s.to_play and ed.non_striker_penalty:
            # Penalties of the non-striker (S3 R11(e),(g)): seven for measuring or using a
            # ball off the table, else the ball on or the ball concerned, minimum four.
            # (The older edition penalises them "as if he were the striker", DIFF A15.)
            kind, item = ("7", "(g)") if kind == "7" else ("b", "(e)")
            rule = ed.cite(ed.pen, item)
        if kind == "7":
            due = 7
        elif kind == "b":
            due = max(ed.minimum, on_value, VALUE.get(e.ball or "", 0))
        else:
            due = max(ed.minimum, on_value)
    # After a Red, before a colour is nominated, a foul is worth seven (S3 R11(d)(vi));
    # whether the nomination was made is not in the facts, so any value up to seven stands.
    hi = 7 if s.phase == COLOUR and e.kind == "foul" else due
    points = due
    if e.points is not None and due <= e.points <= hi:
        points = due = e.points
    if e.points is not None and e.points != due and (e.kind != "time_foul" or ed.time_foul):
        _add(
            s,
            n,
            PENALTY_VALUE if e.kind == "foul" else TIME_FOUL_ERROR,
            rule,
            side,
            abs(e.points - due),
            f"penalty of {e.points} recorded, the rules give {due}",
        )
    s.ledger.award(n, other(side), points)
    s.deferred = None  # S3 R7(b): an infringement makes the points of a re-potted colour count
    if e.kind == "foul" and s.to_play is not None and side != s.to_play and s.turn_of == s.to_play:
        # The non-striker infringed during the striker's turn: a PENALTY, the balls are
        # replaced and the striker's turn continues unaffected (S3 R3(k), R11(e)-(g)).
        return
    s.ledger.end_visit()
    snapshot = (s.reds, s.colours, s.phase, s.seq, s.in_hand)
    rest = s.rest[1] if s.rest is not None and s.rest[0] == s.last_n else None
    s.foul = _Foul(n, side, snapshot, False, False, True, after_replace=s.replaced, rest=rest)
    s.free_ball = False
    s.to_play = other(side)
    s.turn_of = None
    if s.phase == COLOUR:
        s.phase = RED if s.reds > 0 else SEQUENCE
    if ed.in_hand_after_foul:
        s.in_hand = s.anywhere = True
    if s.black_only:
        # S3 R4(a)/(b)(iv): a foul with Black only ends the frame unless the scores tie.
        a, b = s.ledger.official
        if a != b or not ed.respot_black_on_tie:
            _end(s, n, _leader(s), "foul")
            s.foul = None
        elif not s.respotted_black:
            s.respotted_black, s.colours, s.in_hand, s.to_play, s.foul = True, _BIT["black"], True, None, None


def _reds_back(s: State) -> None:
    """A Red spotted in error before the colours are touched puts Red back on (S3 R7(d)(ii))."""
    if s.reds > 0 and s.phase == SEQUENCE and s.seq == 0:
        s.phase = RED


def _spot_correction(s: State, e: Event) -> None:
    ball = e.ball
    if ball is None:
        return
    if ball == "red":
        if e.remove:
            s.reds = max(0, s.reds - 1)
        else:
            s.reds += 1
            _reds_back(s)
        return
    if ball not in _BIT:
        return
    if e.remove:
        bit = _BIT[ball]
        d = s.deferred
        if s.in_error & bit:
            # S3 R7(b): removed without penalty when the error is discovered.
            s.in_error &= ~bit
            _resume(s)
        elif d is not None and d[2] == ball and d[0] == s.last_n and not s.colours & bit:
            # S3 R7(b): discovered after it was potted again but before the next stroke
            # or an infringement: the points do not count.
            s.ledger.retract(d[1], d[3])
        s.deferred = None
        s.colours &= ~bit
    else:
        s.colours |= _BIT[ball]  # S3 R7(c)(i)
        s.missing &= ~_BIT[ball]


def _miss_waived(s: State, striker: str) -> bool:
    """The edition waives FOUL AND A MISS for an offender this far behind (``miss_waived_behind``)."""
    limit = s.edition.miss_waived_behind
    if limit is None:
        return False
    a, b = s.ledger.official
    behind = b - a if striker == "A" else a - b
    return behind > limit


def _shot_limit(ed: Edition, recorded: float) -> float:
    """The limit of a stroke: the edition's for the phase of the match the recorded limit
    shows (SO 2: 10 s or less is the last five minutes), else the recorded one."""
    late = recorded <= 10 + 1e-9
    limit = ed.shot_clock_late_s if late else ed.shot_clock_s
    return recorded if limit is None else limit


def _clock(s: State, c: Clock) -> None:
    """Shot clock (SO 2-3, 16): a stroke begun after the limit is a time foul."""
    if not s.edition.time_foul or c.limit_s is None or c.elapsed_s is None:
        return
    limit = _shot_limit(s.edition, c.limit_s)
    # elapsed_s is what the clock showed: it does not run while paused (FORMAT.md 4, clock).
    if c.elapsed_s > limit + 1e-9 and (c.n - 1) not in s.time_fouls:
        # A time foul is recorded as an event after the stroke before; look for it.
        _add(
            s,
            c.n,
            TIME_FOUL_UNCALLED,
            "SO 16",
            None,
            5,
            f"stroke began after {c.elapsed_s:.1f} s on the clock, limit {limit:.0f} s",
        )


# -- frame end ----------------------------------------------------------------------


def _frame_end(s: State, fe: FrameEnd) -> None:
    s.recorded_end = fe
    n = s.last_n
    if not s.over and fe.winner is not None and fe.reason in ("concede", "claim", "award"):
        # The frame_end is the only record of the concession, claim or award: check it as
        # if the event had been recorded after the last stroke.
        side = other(fe.winner) if fe.reason == "concede" else fe.winner
        _event(s, Event(frame=fe.frame, after=n, kind=fe.reason, side=side))
    if not s.over:
        _add(
            s,
            n,
            FRAME_END_ERROR,
            "S2 R1",
            fe.winner,
            0,
            f"frame recorded as ended ({fe.reason or 'no reason'}) but the rules have it still in play",
        )
        return
    if fe.winner is not None and s.winner is not None and fe.winner != s.winner:
        _add(
            s,
            s.end_n,
            FRAME_END_ERROR,
            "S3 R1(f)",
            fe.winner,
            0,
            f"frame recorded to {fe.winner} but the rules give it to {s.winner}",
        )
