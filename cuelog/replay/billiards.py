"""English billiards: the WPBSA 2024 rules (seed 001, Sections 2-4) and their older editions.

The engine is a pure fold: ``new_frame(match, frame, previous)`` gives the state at the
start of a game (S3 R2(b)), ``apply(state, record)`` folds one record into a new state and
returns the due call of a stroke (an :class:`Outcome`) with the findings of that record.
``replay_frame`` runs the fold over one game and returns its :class:`FrameResult`.

Editions are data (:class:`Edition`) plus a few switches where the rule books differ:
``billiards/wpbsa-2024``, ``billiards/classic`` (seed 000, "Rules of Billiards") and
``billiards/one-red`` (seed 002, "Snooker - 1 Red").

Facts that are absent are unknown and raise nothing (docs/format.md 1.2): every fact test
below answers ``True``, ``False`` or ``None`` (unknown).

A stroke goes through steps named after the rules they apply (:func:`_stroke`): who may
play, the balls played, scoring, the limits and the Baulk-line rule, the calls as made,
the scoreboard, runs, the table and its respots, the Baulk-line windows and the next turn.
A stroke after strokes missing from the log: :func:`_stroke_after_gap` (docs/rulings.md 32).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from cuelog.replay.billiards_editions import Edition
from cuelog.replay.common import alternating_breaker, check_choice, check_frame_end, leader, parse_time, stroke_gap
from cuelog.replay.ledger import Ledger
from cuelog.replay.model import (
    CONDONED_FOUL,
    FRAME_END_ERROR,
    INVALID_RECORD,
    LIMIT_EXCEEDED,
    MISS_ERROR,
    PENALTY_VALUE,
    RESPOT_IN_ERROR,
    RESPOT_MISSING,
    RESPOT_WRONG_SPOT,
    UNSUPPORTED_FOUL,
    WRONG_STRIKER,
    Finding,
    FrameResult,
    Outcome,
)
from cuelog.schemas.records import (
    Choice,
    Event,
    Frame,
    FrameEnd,
    FrameRecord,
    Match,
    Respot,
    Stroke,
    TypedStroke,
    other,
)

Pos: TypeAlias = tuple[float, float]
Step: TypeAlias = tuple["State", Outcome | None, list[Finding]]

RED: Final = "red"
PENALTY: Final = 2
"""Every foul and every miss costs two points, never more in one stroke (S3 R16(c), R17)."""
BALL_MM: Final = 52.5
"""Ball diameter (S1 R2(b)); two balls closer than this, centre to centre, touch."""
TOLERANCE_MM: Final = 0.5
"""Measurement tolerance when positions decide touching, occupied spots and Baulk."""
TABLE_MM: tuple[float, float] = (1778.0, 3569.0)
"""The standard playing area (not ``Final``: a compiled build, benchmarks/compile_engines.py,
cannot read a ``Final`` tuple of floats from a function of its module)."""
BAULK_LINE_MM: Final = 737.0
D_RADIUS_MM: Final = 292.0
SPOT_FROM_TOP_MM: Final = 324.0

# docs/format.md ``infringements`` codes that are billiards fouls when the edition lists them
# (``touching_ball_moved`` is a snooker matter: billiards re-spots a touching ball, S3 R14).
JUDGED_FOULS: Final = frozenset(
    {
        "wrong_cue_ball",
        "double_hit",
        "balls_moving",
        "feet_off_floor",
        "jump_shot",
        "push_stroke",
        "touched_ball",
        "before_spotted",
        "coaching",
        "non_standard_cue",
        "ball_off_table_used",
        "measuring",
    }
)
LIMIT_FOULS: Final = frozenset({"hazards", "cannons", "baulk_line"})


_B24_FOULS: Final = {
    "wrong_cue_ball": "S3 R15(a)",
    "double_hit": "S3 R15(b)",
    "balls_moving": "S3 R15(c)",
    "feet_off_floor": "S3 R15(d)",
    "out_of_turn": "S3 R15(e)",
    "in_hand": "S3 R15(f)",
    "coup": "S3 R15(g)",
    "jump_shot": "S3 R15(h)",
    "push_stroke": "S3 R15(i)",
    "off_table": "S3 R15(j)",
    "hazards": "S3 R15(k)",
    "cannons": "S3 R15(l)",
    "touched_ball": "S3 R15(m)",
    "before_spotted": "S3 R15(n)",
    "no_contact": "S3 R15(o)",
    "coaching": "S3 R15(p)",
    "non_standard_cue": "S3 R15(q)",
    "ball_off_table_used": "S3 R15(r)",
    "measuring": "S3 R15(s)",
    "baulk_line": "S3 R15(t)",
}
_B24_CITE: Final = {
    "start": "S3 R2(b)",
    "order": "S3 R3",
    "scoring": "S3 R4",
    "in_off_cannon": "S3 R4(d)",
    "in_hand": "S3 R6",
    "baulk_line": "S3 R8",
    "spot_red": "S3 R9(a)",
    "sequence": "S3 R9(b)",
    "spotted": "S3 R9(g)",
    "cannons": "S3 R10",
    "hazards": "S3 R11",
    "hazard_spot": "S3 R11(c)",
    "touching": "S3 R14(a)",
    "penalty": "S3 R16(c)",
    "spot_play": "S3 R16(c)(ii)",
    "condoned": "S3 R16(d)",
    "miss": "S3 R17",
    "target": "S3 R5(d)",
    "time": "S3 R5(a)",
    "end": "S2 R1",
    "concede": "S4 R4",
    "award": "S4 R3(a)",
}

# The older rule book's numbers are not always printed (bulleted lists); cite the rule.
_OB_FOULS: Final = {k: "S3 R14" for k in _B24_FOULS if k not in ("ball_off_table_used", "measuring", "baulk_line")}
_OB_CITE: Final = {
    **_B24_CITE,
    "in_off_cannon": "S3 R4",
    "spot_red": "S3 R8",
    "sequence": "S3 R8",
    "spotted": "S3 R8",
    "cannons": "S3 R9",
    "hazards": "S3 R10",
    "hazard_spot": "S3 R10",
    "touching": "S3 R13",
    "penalty": "S3 R15",
    "spot_play": "S3 R15",
    "condoned": "S3 R15",
    "miss": "S3 R16",
    "target": "S2 R1",
    "time": "S2 R1",
    "concede": "S4 R6",
    "award": "S4 R3",
}

_1R_FOULS: Final = {
    "wrong_cue_ball": "1R 2.11(1)",
    "double_hit": "1R 2.11(2)",
    "balls_moving": "1R 2.11(3)",
    "feet_off_floor": "1R 2.11(4)",
    "out_of_turn": "1R 2.11(5)",
    "in_hand": "1R 2.11(6)",
    "coup": "1R 2.11(7)",
    "jump_shot": "1R 2.11(8)",
    "push_stroke": "1R 2.11(9)",
    "off_table": "1R 2.11(10)",
    "hazards": "1R 2.11(11)",
    "cannons": "1R 2.11(12)",
    "touched_ball": "1R 2.11(13)",
    "before_spotted": "1R 2.11(14)",
    "no_contact": "1R 2.11(15)",
    "baulk_line": "1R 2.13.4",
}
_1R_CITE: Final = {
    "start": "1R 2.3.2",
    "order": "1R 2.4.5",
    "scoring": "1R 2.5.2",
    "in_off_cannon": "1R 2.5.4",
    "in_hand": "1R 2.6",
    "baulk_line": "1R 2.13",
    "spot_red": "1R 2.7.1",
    "sequence": "1R 2.7.2",
    "spotted": "1R 2.7.3",
    "cannons": "1R 2.8",
    "hazards": "1R 2.9",
    "hazard_spot": "1R 2.9.4",
    "touching": "1R 2.10",
    "penalty": "1R 2.12.3",
    "spot_play": "1R 2.12.3(2)",
    "condoned": "1R 2.12.4",
    "miss": "1R 2.11(15)",
    "target": "1R 2.5.5",
    "time": "S3 R5(a)",
    "end": "1R 2.1",
    "concede": "S4 R4",
    "award": "S4 R3(a)",
}

EDITIONS: Final[dict[str, Edition]] = {
    "wpbsa-2024": Edition("wpbsa-2024", _B24_FOULS, _B24_CITE),
    "classic": Edition(
        "classic",
        _OB_FOULS,
        _OB_CITE,
        baulk_line=None,
        sequence_fallback_resets=False,
        concede_striker_only=True,
        wrong_ball_opening_void=True,
    ),
    "one-red": Edition(
        "one-red",
        _1R_FOULS,
        _1R_CITE,
        miss_is_foul=True,
        baulk_line=True,
        crossing_on_line_counts=True,
        touching_by_consent=True,
    ),
}
editions: Final[dict[str, Edition]] = EDITIONS
"""The engine protocol's name for :data:`EDITIONS` (:class:`cuelog.replay.engine.Engine`)."""


# -- the table -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Geometry:
    """Spots and lines of the table (S1 R1), in docs/format.md coordinates (mm, origin bottom left)."""

    spots: Mapping[str, Pos]
    baulk_y: float

    @staticmethod
    def of(table_mm: Sequence[float] | None) -> Geometry:
        w, length = (table_mm[0], table_mm[1]) if table_mm and len(table_mm) == 2 else TABLE_MM
        baulk = BAULK_LINE_MM * length / TABLE_MM[1]
        mid = w / 2
        return Geometry(
            {
                "spot": (mid, length - SPOT_FROM_TOP_MM * length / TABLE_MM[1]),
                "pyramid": (mid, length * 0.75),
                "centre": (mid, length / 2),
                "baulk_middle": (mid, baulk),
                # The right-hand corner of the "D" viewed from the Baulk end (S3 R11(c)).
                "d_right": (mid + D_RADIUS_MM * w / TABLE_MM[0], baulk),
            },
            baulk,
        )

    def in_baulk(self, p: Pos) -> bool:
        """S2 R15: resting centrally on the Baulk-line or between it and the Bottom Cushion."""
        return p[1] <= self.baulk_y + TOLERANCE_MM

    def spot_named(self, x: float, y: float) -> str | None:
        """The named spot a ball placed at (x, y) sits on, within half a ball."""
        for name, (sx, sy) in self.spots.items():
            if math.hypot(x - sx, y - sy) <= BALL_MM / 2:
                return name
        return None


def _touching(a: Pos, b: Pos) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) <= BALL_MM + TOLERANCE_MM


def _occupied(table: Mapping[str, Pos | None], spot: Pos, ball: str) -> bool | None:
    """S2 R20: a spot is occupied if the ball cannot be placed on it without touching another."""
    unknown = False
    for b, p in table.items():
        if b == ball:
            continue
        if p is None:
            unknown = True
        elif _touching(p, spot):
            return True
    return None if unknown else False


def _nothing_known(table: Mapping[str, Pos | None], ball: str) -> bool:
    """A ball other than ``ball`` is on the table and none of them has a known position:
    :func:`_occupied` is then ``None`` for every spot."""
    others = False
    for b, p in table.items():
        if p is not None and b != ball:
            return False
        others = others or b != ball
    return others


# -- the state -------------------------------------------------------------------------


@dataclass(slots=True)
class State:
    """The state of a game between records. ``apply`` copies it; nothing mutates an input."""

    match: Match
    frame: int
    ed: Edition
    geo: Geometry
    cue: dict[str, str]
    """Side -> its cue ball (the match's ``cue_balls``, default A white, B yellow)."""
    target: int | None
    time_limit: float | None
    baulk_line: bool
    table: dict[str, Pos | None]
    """Balls on the table and their positions (``None``: on the table, position unknown).
    A cue ball absent from it is in-hand (S2 R13); the Red absent is waiting to be spotted."""
    striker: str | None
    """The side due to play the next stroke (``None``: anyone, before the first stroke)."""
    ledger: Ledger = field(default_factory=Ledger)
    last_n: int = 0
    red_spot: str | None = "spot"
    """The spot the Red was placed on and has not been contacted since (S3 R9(g))."""
    red_seq: int = 0
    """Lone pots of the Red from the Spot or the Pyramid Spot in consecutive strokes of this
    break (S3 R9(b)): from two on, it goes to the Centre Spot."""
    hazards: int = 0
    cannons: int = 0
    run_first: int = 0
    """The first stroke of the current run of hazards or cannons."""
    calls: tuple[tuple[int, str], ...] = ()
    """Referee's calls (``after``, ``call``) known so far (S3 R10(a), R11(a), R8(c))."""
    turn_side: str | None = None
    """The side whose turn is in progress (``None`` between turns)."""
    ob_off_at_turn_start: bool = True
    foul_by: str | None = None
    """The offender of the last foul while the incoming player may still choose (S3 R16(c))."""
    bl_next: int = 80
    bl_deadline: int | None = None
    bl_crossed: bool | None = False
    bl_open_n: int = 0
    t0: float | None = None
    over: bool = False
    winner: str | None = None
    end_reason: str | None = None
    end_n: int = 0
    late_reported: bool = False
    breaker: str | None = None
    seen_n: int = 0
    """The last stroke read, whatever became of it (``last_n`` is the last one played)."""
    resync: bool = False
    """After a gap in the strokes, the recorded state does not yet agree with the rules
    (docs/rulings.md 32)."""
    gap_scored: bool = False
    """After a gap, the official score has been taken from a recorded scoreboard."""
    recorded_winner: str | None = None
    """The winner the ``frame_end`` record gives (``None`` before it)."""

    def copy(self) -> State:
        c = State(
            self.match,
            self.frame,
            self.ed,
            self.geo,
            self.cue,
            self.target,
            self.time_limit,
            self.baulk_line,
            dict(self.table),
            self.striker,
            self.ledger.copy(),
        )
        for name in _SCALARS:
            setattr(c, name, getattr(self, name))
        return c

    def cite(self, concept: str) -> str:
        return self.ed.cite[concept]


_SCALARS: Final = (
    "last_n",
    "red_spot",
    "red_seq",
    "hazards",
    "cannons",
    "run_first",
    "calls",
    "turn_side",
    "ob_off_at_turn_start",
    "foul_by",
    "bl_next",
    "bl_deadline",
    "bl_crossed",
    "bl_open_n",
    "t0",
    "over",
    "winner",
    "end_reason",
    "end_n",
    "late_reported",
    "breaker",
    "seen_n",
    "resync",
    "gap_scored",
    "recorded_winner",
)


def edition_of(rules: str) -> Edition:
    return EDITIONS[rules.split("/", 1)[1]]


def new_frame(match: Match, frame: Frame, previous: FrameResult | None = None) -> State:
    """The start of a game (S3 R2(b)): the Red on the Spot, the first player in-hand, and
    the other player's ball off the table until that side plays (1R 2.3.3)."""
    ed = edition_of(match.rules)
    geo = Geometry.of(match.table_mm)
    cue = {"A": "white", "B": "yellow", **(match.cue_balls or {})}
    applies = ed.baulk_line is not None and (match.baulk_line if match.baulk_line is not None else ed.baulk_line)
    table: dict[str, Pos | None] = {RED: geo.spots["spot"]}
    if frame.positions:
        table = {b: (x, y) for b, x, y in frame.positions}
    breaker = alternating_breaker(frame, previous)
    state = State(match, frame.frame, ed, geo, cue, match.target, match.time_limit_s, bool(applies), table, breaker)
    state.breaker = breaker
    red = table.get(RED)
    state.red_spot = geo.spot_named(*red) if red is not None else None
    state.t0 = parse_time(frame.t)
    return state


# -- strokes ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Facts:
    """What the facts of one stroke say, before the calls are compared."""

    fouls: list[str]
    unknown: bool
    """A foul (or miss) may have happened but the facts cannot tell."""
    miss: bool
    no_contact_unknown: bool
    """No object ball was hit from in-hand and it cannot be told whether it was a miss or a foul."""


def _objects_out_of_baulk(state: State, objects: Sequence[str]) -> bool | None:
    unknown = False
    for b in objects:
        if b not in state.table:
            continue
        p = state.table[b]
        if p is None:
            unknown = True
        elif not state.geo.in_baulk(p):
            return True
    return None if unknown else False


def _facts(state: State, stroke: Stroke, cb: str, ob: str, in_hand: bool, out_of_turn: bool) -> _Facts:
    ed = state.ed
    fouls: list[str] = []
    unknown = False
    miss = False
    no_contact_unknown = False
    for inf in stroke.infringements or ():
        if inf.code in JUDGED_FOULS and inf.code in ed.fouls:
            fouls.append(inf.code)
    if out_of_turn:
        fouls.append("out_of_turn")
    cue_first = stroke.cushions.cue_first if stroke.cushions is not None else None
    if in_hand:
        if stroke.placement == "illegal":
            fouls.append("in_hand")
        elif stroke.first:
            # S3 R6(f): no part of an object ball in Baulk may be played on directly; off a
            # cushion it is legal only if that cushion is out of Baulk (R6(d)), which the
            # facts do not say.
            for b in stroke.first:
                p = state.table.get(b)
                if p is not None and state.geo.in_baulk(p):
                    if cue_first is False:
                        fouls.append("in_hand")
                    else:
                        unknown = True
                    break
    if stroke.off_table:
        fouls.append("off_table")
    if not stroke.first:
        cb_potted = cb in stroke.potted
        if not in_hand or ed.miss_is_foul:
            fouls.append("no_contact")
        else:
            out = _objects_out_of_baulk(state, (RED, ob))
            if out is True:
                fouls.append("no_contact")
            elif cb_potted and cue_first is False:
                # Directly into a pocket: a coup when nothing is out of Baulk (S2 R17), a
                # failure to hit an object ball otherwise (S3 R15(o)); a foul either way.
                fouls.append("coup" if out is False else "no_contact")
            elif out is None or (cb_potted and cue_first is None):
                no_contact_unknown = True
            else:
                miss = True
    if fouls:
        miss = False
    return _Facts(fouls, unknown, miss, no_contact_unknown)


def _respots_recorded(state: State, respots: Sequence[Respot]) -> list[tuple[str, str | None, Pos | None]]:
    out: list[tuple[str, str | None, Pos | None]] = []
    for r in respots:
        if r.spot is not None:
            out.append((r.ball, r.spot, state.geo.spots.get(r.spot)))
        elif r.x is not None and r.y is not None:
            out.append((r.ball, state.geo.spot_named(r.x, r.y), (r.x, r.y)))
        else:
            out.append((r.ball, None, None))
    return out


def _chain_options(state: State, table: Mapping[str, Pos | None], chain: Sequence[str], ball: str) -> list[str]:
    """The spots of a fallback chain a ball may go to, given what is known of the table.

    The first free spot of the chain is due; a spot before it whose occupation is unknown
    is also accepted (unknown facts raise nothing).
    """
    if _nothing_known(table, ball):
        return list(chain)  # every spot's occupation unknown (the loop below, in one test)
    options: list[str] = []
    for name in chain:
        occ = _occupied(table, state.geo.spots[name], ball)
        if occ is True:
            continue
        options.append(name)
        if occ is False:
            break
    return options or [chain[-1]]


_SPOT_CHAIN: Final = ("spot", "pyramid", "centre")
_CENTRE_CHAIN: Final = ("centre", "pyramid", "spot")
_HAZARD_CHAIN: Final = ("baulk_middle", "d_right")


def _limit(state: State, call: str, at: int, limit: int, n: int) -> int:
    """The run limit with the referee's call (S3 R10(a), R11(a)): five more after a late call.

    A call belongs to the current run when it was made after the run's first stroke and
    before a later run could have reached its own call (``at`` strokes after this one).
    No call recorded: it is taken as made on time (docs/format.md 4, ``referee_call``).
    """
    best = limit
    for after, c in state.calls:
        if c == call and state.run_first <= after < n + at:
            counted = after - state.run_first + 1
            if counted > at:
                best = max(best, counted + (limit - at))
    return best


_Recorded: TypeAlias = list[tuple[str, str | None, Pos | None]] | None
"""Respots as recorded: (ball, spot name, where), ``None`` when the stroke has none."""


class _Play:
    """What the rules make of one stroke, built up step by step by :func:`_stroke`.

    A plain class: the steps set what they find, the class gives the defaults (the hot loop
    builds one per stroke; only the fields every stroke needs are set at once)."""

    stroke: Stroke
    n: int
    striker: str
    findings: list[Finding]
    opponent: str = ""
    cue_ball: str = ""
    object_ball: str = ""
    """The opponent's cue ball, an object ball for the striker."""
    in_hand: bool = False
    out_of_turn: bool = False
    red_spot0: str | None = None
    facts: _Facts | None = None
    red_hit: bool = False
    hazard: int = 0
    cannon: bool = False
    points: int = 0
    break_before: int = 0
    due_foul: bool | None = False
    due_miss: bool = False
    reasons: tuple[str, ...] = ()
    called_foul: bool = False
    called_miss: bool = False
    explained: bool = False
    due_scored: int = 0
    due_penalty: int = 0
    break_points: int = 0
    continues: bool = False
    due_spots: dict[str, tuple[list[str], str]]
    chain: tuple[str, ...] = ()
    seq: int = 0
    next_striker: str = ""

    def __init__(self, stroke: Stroke, n: int, striker: str) -> None:
        self.stroke, self.n, self.striker = stroke, n, striker
        self.findings = []
        self.due_spots = {}


_FAST = True
"""Take the shortcuts for strokes :func:`_plain` admits: :func:`_plain_stroke` without
recorded positions, :func:`_plain_start` with them (switched off in a test)."""


def _stroke(state: State, stroke: Stroke) -> tuple[Outcome | None, list[Finding]]:
    """One stroke through the rules, step by step: the due call and the findings."""
    plain = _FAST and _plain(state, stroke)
    if plain and stroke.positions is None:
        return _plain_stroke(state, stroke)
    play = _Play(stroke, stroke.n, stroke.striker)
    if plain:
        _plain_start(state, play)
    else:
        early = _who_may_play(state, play)
        if early is not None:
            return early
        _balls_played(state, play)
    _scoring(state, play)
    if not plain:
        _limits(state, play)
        _calls(state, play)
    _book(state, play)
    if play.continues:
        _runs(state, play)
    table = _table_after_stroke(state, play)
    _respot_step(state, play, table)
    if play.continues and state.baulk_line:
        _baulk_line_windows(state, play)
    _next_turn(state, play)
    return _outcome(state, play), play.findings


# -- the plain stroke: facts that need no judgment ------------------------------------------


def _plain(state: State, stroke: Stroke) -> bool:
    """A stroke in which no foul, miss or limit can be found, so that the steps who may
    play, the balls played, the limits and the calls would find nothing: the entitled
    striker (S3 R15(e)), a game in play with no time limit (S3 R5(a)), an object ball hit
    (S3 R15(o), S2 R16), nothing called, no infringement, nothing off the table (S3 R15(j)),
    every ball played on the table (FORMAT 4), runs short of their limits (S3 R10, R11) and
    no Baulk-line rule (S3 R8). The cue ball is on the table, or in-hand (S3 R6) with a
    placement not recorded illegal and the first balls hit at unknown positions: whether one
    of them was in Baulk (S3 R6(f)) is then not in the facts, so :func:`_facts` finds nothing."""
    striker = stroke.striker
    table = state.table
    cb = state.cue.get(striker)
    first = stroke.first
    if (
        cb is None
        or striker != state.striker
        or stroke.call is not None
        or stroke.infringements
        or stroke.off_table
        or not first
        or state.over
        or state.time_limit is not None
        or state.baulk_line
        # The limits are fifteen hazards and seventy-five cannons at the least (S3 R10(a), R11(a)).
        or state.hazards >= 14
        or state.cannons >= 74
    ):
        return False
    if cb in table:
        for b in first:
            if b not in table:
                return False
    elif stroke.placement == "illegal":
        return False
    else:
        for b in first:
            if b not in table or table[b] is not None:
                return False
    for b in stroke.then or ():
        if b not in table:
            return False
    # Loops, not all() over a generator: this runs on every stroke.
    for b in stroke.potted:  # noqa: SIM110
        if b not in table and b != cb:
            return False
    return True


def _red_back_on(
    state: State, stroke: Stroke, table: dict[str, Pos | None], red_spot0: str | None, lone_three: bool
) -> str | None:
    """:func:`_respot_step` for the Red potted in a plain stroke without recorded positions
    (every position on ``table`` unknown), respotted where it was due or not recorded: the
    spot it goes to, with nothing to find; None, and nothing changed, for any other respot,
    which takes the step itself. (A third of billiards strokes pot the Red; the step took a
    quarter of the billiards engine's time.)

    A lone pot (``lone_three``: three points, no cannon, nothing called) from the Spot or
    the Pyramid continues the sequence of S3 R9(b); its second goes to the Centre Spot, and
    continued pots go Spot twice, then Centre (R9(c)); any other pot starts it again. With
    every position unknown the first spot of the chain is due (S3 R9(a); the spots after it
    are accepted too, :func:`_chain_options`), so a Red recorded there is right and there
    is no spot before it to ask about. With the Red the only ball recorded, no TOUCHING BALL
    re-spot can be due (S3 R14(a), :func:`_touching_due`)."""
    if RED in table or RED not in stroke.potted:
        return None
    seq = state.red_seq + 1 if lone_three and red_spot0 in ("spot", "pyramid") else 0
    spot = _CENTRE_CHAIN[0] if seq >= 2 else _SPOT_CHAIN[0]
    recorded = stroke.respots
    if recorded is not None and (len(recorded) != 1 or recorded[0].ball != RED or recorded[0].spot != spot):
        return None
    table[RED] = placed = state.geo.spots[spot]
    state.red_seq = seq
    state.table = table
    state.red_spot = state.geo.spot_named(*placed)
    return spot


def _plain_stroke(state: State, stroke: Stroke) -> tuple[Outcome, list[Finding]]:
    """The steps of :func:`_stroke` for a plain stroke (:func:`_plain`) without recorded
    positions, in one function (the hot loop): each line does what the step named beside
    it does, and ``tests/test_billiards_properties.py`` holds the two paths to the same
    results. The due call is no foul and no miss. The respots keep their step
    (:func:`_respot_step`), taken unless nothing can be due and nothing was spotted, or
    the Red potted goes back where it was due (:func:`_red_back_on`).
    """
    n, striker = stroke.n, stroke.striker
    # _plain_start
    if state.t0 is None:
        state.t0 = parse_time(stroke.t)  # the game's start, when the frame has no time
    if state.breaker is None:
        state.breaker = striker
    opponent = other(striker)
    cb, ob = state.cue[striker], state.cue[opponent]
    if state.turn_side != striker:
        _begin_turn(state, striker, n)
    red_spot0 = state.red_spot
    state.foul_by = None
    before = state.table
    # _scoring (S3 R4)
    first, then, potted = stroke.first, stroke.then or (), stroke.potted
    red_hit = RED in first or RED in then
    hazard = 0
    if potted:
        if RED in potted and RED in before:
            hazard += 3
        if ob in potted and ob in before:
            hazard += 2
        if cb in potted and _all_on(first, before):
            hazard += 3 if first == [RED] else 2  # S2 R9, S3 R4(d)
    cannon = False
    if ob in before and RED in before:
        if red_hit and (ob in first or ob in then):
            cannon = True
        elif stroke.then is None and len(first) == 1:
            moved = _recorded_move(state, stroke, striker)  # ``then`` unknown: the scoreboard says
            cannon = moved is not None and moved == hazard + 2
    points = hazard + (2 if cannon else 0)
    # _book (S3 R5(d), R16): nothing called, nothing due.
    scored = points
    ledger, target = state.ledger, state.target
    if target is not None:
        own = ledger.official[0] if striker == "A" else ledger.official[1]
        scored = min(scored, max(target - own, 0))
    mismatch = ledger.stroke(n, striker, scored, 0, stroke.score, break_points=points, rule=state.ed.cite["scoring"])
    continues = points > 0
    # _runs (S3 R10, R11)
    if continues:
        if cannon and not hazard:
            if not state.cannons:
                state.run_first = n
            state.cannons, state.hazards = state.cannons + 1, 0
        elif hazard and not cannon:
            if not state.hazards:
                state.run_first = n
            state.hazards, state.cannons = state.hazards + 1, 0
        else:
            state.hazards = state.cannons = 0
    # _table_after_stroke: a ball was hit, so every ball may have moved.
    table: dict[str, Pos | None] = dict.fromkeys(before)
    for b in potted:
        table.pop(b, None)
    if cb not in potted:
        table[cb] = None
    if red_hit or RED not in table:
        state.red_spot = None
    next_striker = striker if continues else opponent
    findings = [] if mismatch is None else [mismatch]
    respots: tuple[tuple[str, str], ...] = ()
    if RED in table and not stroke.respots:
        # _respot_step with nothing due: the Red is on the table (S3 R9); no position is
        # known, so no cue ball is known to touch a ball (S3 R14(a)) and no respot vouches
        # that one did; a plain stroke's run is short of fifteen hazards (S3 R11(c)).
        state.red_seq = 0
        state.table = table
    elif (spot := _red_back_on(state, stroke, table, red_spot0, points == 3 and not cannon)) is not None:
        respots = ((RED, spot),)
    else:
        play = _Play(stroke, n, striker)
        play.opponent, play.cue_ball, play.object_ball = opponent, cb, ob
        play.red_spot0, play.points, play.cannon, play.continues = red_spot0, points, cannon, continues
        _respot_step(state, play, table)
        findings.extend(play.findings)
        if play.due_spots:
            respots = _due_respots(play.due_spots)
    # _next_turn
    state.last_n = n
    state.striker = next_striker
    if continues:
        state.turn_side = striker
    else:
        _end_turn(state)
    score = ledger.official
    if target is not None and (score[0] >= target or score[1] >= target):
        _end(state, "A" if score[0] >= target else "B", "target", n)
    # _outcome: positional, in the field order of Outcome.
    outcome = Outcome(
        n,
        striker,
        scored,
        0,
        False,
        (),
        None,
        False,
        False,
        respots,
        not continues,
        next_striker,
        ledger.score(),
        ledger.visit_id if points else None,
        ledger.visit_id,
        state.over,
        state.winner,
        ledger.credited,
    )
    return outcome, findings


def _plain_start(state: State, play: _Play) -> None:
    """What :func:`_who_may_play` and :func:`_balls_played` do for a plain stroke; the due
    call is no foul and no miss (the defaults of :class:`_Play`)."""
    striker = play.striker
    if state.t0 is None:
        state.t0 = parse_time(play.stroke.t)  # the game's start, when the frame has no time
    if state.breaker is None:
        state.breaker = striker
    play.opponent = other(striker)
    play.cue_ball, play.object_ball = state.cue[striker], state.cue[play.opponent]
    if state.turn_side != striker:
        _begin_turn(state, striker, play.n)
    play.red_spot0 = state.red_spot
    state.foul_by = None
    play.in_hand = play.cue_ball not in state.table


# -- who may play (S3 R2, R5(a), R15(e)) ----------------------------------------------------


def _who_may_play(state: State, play: _Play) -> tuple[Outcome | None, list[Finding]] | None:
    """The stroke may be played: the game is on, the time not up, the striker a side; a
    wrong striker is reported. Returns the result when the stroke goes no further."""
    stroke, n, ed = play.stroke, play.n, state.ed
    if state.over:
        if not state.late_reported:
            state.late_reported = True
            message = f"stroke played after the game ended at {state.end_n}"
            play.findings.append(
                _finding(
                    n=n, kind=FRAME_END_ERROR, rule=state.cite("end"), side=stroke.striker, points=0, message=message
                )
            )
        return None, play.findings
    # The time is read only when it matters: the game's start, or a timed game (S3 R5(a)).
    t = parse_time(stroke.t) if state.t0 is None or state.time_limit is not None else None
    if state.t0 is None:
        state.t0 = t
    elif state.time_limit is not None and t is not None and t - state.t0 > state.time_limit:
        # S3 R5(a): TIME ends the game; only a stroke already made may finish.
        _end(state, leader(state.ledger.score()), "time", state.last_n)
        state.late_reported = True
        message = "stroke struck after the time limit"
        play.findings.append(
            _finding(n=n, kind=FRAME_END_ERROR, rule=state.cite("time"), side=stroke.striker, points=0, message=message)
        )
        return None, play.findings
    striker = play.striker
    if striker not in state.cue:
        message = f"striker {striker!r} is not a side (A or B)"
        return None, [_finding(n=n, kind=INVALID_RECORD, rule="FORMAT 3", side=None, points=0, message=message)]
    opening = state.last_n == 0 and ed.wrong_ball_opening_void
    if opening and any(i.code == "wrong_cue_ball" for i in stroke.infringements or ()):
        return _void_opening(state, stroke)
    if state.breaker is None:
        state.breaker = striker
    play.opponent = other(striker)
    play.cue_ball, play.object_ball = state.cue[striker], state.cue[play.opponent]
    if state.striker is not None and striker != state.striker:
        _order_of_play(state, play)
    if state.turn_side != striker:
        _begin_turn(state, striker, n)
    return None


def _order_of_play(state: State, play: _Play) -> None:
    """Playing out of turn (S3 R15(e)); the wrong player opening a game (S3 R2(d))."""
    due, striker, call, ed = state.striker, play.striker, play.stroke.call, state.ed
    play.out_of_turn = True
    start = state.last_n == 0
    play.findings.append(
        _finding(
            n=play.n,
            kind=WRONG_STRIKER,
            rule=state.cite("start") if start else ed.fouls.get("out_of_turn", state.cite("order")),
            side=striker,
            points=0 if start or (call is not None and call.foul) else PENALTY,
            message=f"{striker} played, {due} was entitled to"
            + (" (wrong player started the game)" if start else " (playing out of turn is a foul)"),
        )
    )
    play.out_of_turn = not start and "out_of_turn" in ed.fouls


def _balls_played(state: State, play: _Play) -> None:
    """The balls the stroke names must be on the table (FORMAT 4); the facts it shows."""
    stroke, n, striker, ob = play.stroke, play.n, play.striker, play.object_ball
    play.red_spot0 = state.red_spot
    state.foul_by = None
    play.in_hand = play.cue_ball not in state.table
    if ob not in state.table and (ob in stroke.first or ob in (stroke.then or ())):
        message = f"{ob} hit but it was not on the table"
        play.findings.append(
            _finding(n=n, kind=INVALID_RECORD, rule=state.cite("scoring"), side=striker, points=0, message=message)
        )
    if RED not in state.table and (RED in stroke.first or RED in (stroke.then or ()) or RED in stroke.potted):
        # The Red left off the table by mistake (already reported) was put back: follow the facts.
        state.table[RED] = None
    for b in stroke.potted:
        if b not in state.table and b != play.cue_ball:
            message = f"{b} potted but it was not on the table"
            play.findings.append(
                _finding(n=n, kind=INVALID_RECORD, rule=state.cite("scoring"), side=striker, points=0, message=message)
            )
    play.facts = _facts(state, stroke, play.cue_ball, ob, play.in_hand, play.out_of_turn)


# -- scoring (S3 R4, S2 R9) ---------------------------------------------------------------------


def _scoring(state: State, play: _Play) -> None:
    """What the stroke scores if legal: hazards and a cannon (S3 R4)."""
    stroke, cb, ob, table = play.stroke, play.cue_ball, play.object_ball, state.table
    first, then = stroke.first, stroke.then or ()
    play.red_hit = red_hit = RED in first or RED in then
    hazard = 0
    potted = stroke.potted
    if potted:
        if RED in potted and RED in table:
            hazard += 3
        if ob in potted and ob in table:
            hazard += 2
        if cb in potted and first and _all_on(first, table):
            # S2 R9: in-off the first object ball hit; S3 R4(d): 3 off the Red, 2 off the
            # opponent's ball or when both were hit at once.
            hazard += 3 if first == [RED] else 2
    cannon: bool | None = False
    if ob in table and RED in table:
        if red_hit and (ob in first or ob in then):
            cannon = True
        elif stroke.then is None and len(first) == 1:
            cannon = None
    if cannon is None:
        # ``then`` unknown: trust the scoreboard on whether a cannon was made.
        moved = _recorded_move(state, stroke, play.striker)
        cannon = moved is not None and moved == hazard + 2
    play.hazard, play.cannon = hazard, cannon
    play.points = hazard + (2 if cannon else 0)


def _all_on(balls: Sequence[str], table: Mapping[str, Pos | None]) -> bool:
    """Every one of ``balls`` is on the table (a loop, not all() over a generator: every stroke)."""
    for b in balls:  # noqa: SIM110
        if b not in table:
            return False
    return True


def _limits(state: State, play: _Play) -> None:
    """The limits on hazards and cannons (S3 R10, R11) and the Baulk-line rule (S3 R8)."""
    n, points, facts = play.n, play.points, play.facts
    assert facts is not None
    play.break_before = state.ledger.break_of(play.striker)
    legal_so_far = not facts.fouls and not facts.miss and not facts.no_contact_unknown
    if legal_so_far and points:
        if play.cannon and not play.hazard and state.cannons + 1 > _limit(state, "seventy_cannons", 70, 75, n):
            facts.fouls.append("cannons")
        if play.hazard and not play.cannon and state.hazards + 1 > _limit(state, "ten_hazards", 10, 15, n):
            facts.fouls.append("hazards")
    if state.baulk_line and state.bl_deadline is not None and legal_so_far:
        crossed = _crossed(state, play.stroke, play.cue_ball, play.in_hand)
        if crossed is True:
            state.bl_crossed = True
        elif crossed is None and state.bl_crossed is False:
            state.bl_crossed = None
        reached = points and play.break_before + points >= state.bl_deadline
        if reached and state.bl_crossed is False and "baulk_line" in state.ed.fouls:
            facts.fouls.append("baulk_line")
    play.due_foul = True if facts.fouls else (None if facts.unknown else False)
    play.due_miss = facts.miss and play.due_foul is False
    play.reasons = tuple(dict.fromkeys(facts.fouls))


# -- the calls as made, checked against the due call (S3 R15, R16, S2 R16) ------------------


def _calls(state: State, play: _Play) -> None:
    call = play.stroke.call
    play.called_foul = call is not None and call.foul
    play.called_miss = call is not None and not call.foul and call.miss
    if play.called_foul or play.called_miss:
        _called(state, play)
    elif play.due_foul is True or play.due_miss or (play.facts is not None and play.facts.no_contact_unknown):
        _uncalled(state, play)


def _called(state: State, play: _Play) -> None:
    """A foul or a miss called: confused with each other, against the facts, or for a value
    other than two."""
    n, striker, call, F, facts = play.n, play.striker, play.stroke.call, play.findings, play.facts
    assert call is not None and facts is not None
    what = "foul" if play.called_foul else "miss"
    if play.called_foul and play.due_miss:
        message = "FOUL called for a miss (S2 R16), not a foul"
        F.append(_finding(n=n, kind=MISS_ERROR, rule=state.cite("miss"), side=striker, points=0, message=message))
    elif play.called_miss and play.due_foul is True:
        message = f"MISS called, the facts show a foul ({', '.join(play.reasons)})"
        F.append(
            _finding(n=n, kind=MISS_ERROR, rule=_rule(state, play.reasons), side=striker, points=0, message=message)
        )
    elif play.due_foul is False and not play.due_miss and not facts.no_contact_unknown:
        kind = UNSUPPORTED_FOUL if play.called_foul else MISS_ERROR
        rule = state.cite("penalty" if play.called_foul else "miss")
        F.append(
            _finding(
                n=n,
                kind=kind,
                rule=rule,
                side=striker,
                points=PENALTY,
                message=f"{what} called, the facts show a legal stroke",
            )
        )
    if call.points is not None and call.points != PENALTY:
        # Whatever the facts, a foul or a miss is worth two (S3 R15, R16, S2 R16): the
        # score books two and the called value is a discrepancy of its own.
        play.explained = True
        message = f"{what} called for {call.points} points, the penalty is {PENALTY}"
        rule = state.cite("penalty" if play.called_foul else "miss")
        F.append(
            _finding(
                n=n, kind=PENALTY_VALUE, rule=rule, side=striker, points=abs(call.points - PENALTY), message=message
            )
        )


def _uncalled(state: State, play: _Play) -> None:
    """Nothing called: a foul condoned (S3 R16(d)), a limit exceeded, a miss not called."""
    n, striker, F, facts = play.n, play.striker, play.findings, play.facts
    assert facts is not None
    if play.due_foul is True:
        limit = [r for r in play.reasons if r in LIMIT_FOULS]
        other_fouls = [r for r in play.reasons if r != "out_of_turn"]
        if limit:
            message = _limit_message(state, limit[0], n)
            F.append(
                _finding(
                    n=n,
                    kind=LIMIT_EXCEEDED,
                    rule=_rule(state, tuple(limit)),
                    side=striker,
                    points=PENALTY,
                    message=message,
                )
            )
        elif other_fouls:
            message = f"foul not called ({', '.join(other_fouls)}); condoned when the next stroke was made"
            F.append(
                _finding(
                    n=n,
                    kind=CONDONED_FOUL,
                    rule=_rule(state, tuple(other_fouls)),
                    side=striker,
                    points=PENALTY,
                    message=message,
                )
            )
    elif play.due_miss:
        F.append(
            _finding(
                n=n,
                kind=MISS_ERROR,
                rule=state.cite("miss"),
                side=striker,
                points=PENALTY,
                message="MISS not called (S2 R16)",
            )
        )
    elif facts.no_contact_unknown:
        message = "no object ball hit from in-hand and no MISS or FOUL called"
        F.append(_finding(n=n, kind=MISS_ERROR, rule=state.cite("miss"), side=striker, points=PENALTY, message=message))


# -- the scoreboard (S3 R5(d), R16) ----------------------------------------------------------


def _book(state: State, play: _Play) -> None:
    """Book the stroke as called; the due call (Outcome) follows the facts whatever was
    called, and where the facts are unknown the call as made stands."""
    points = play.points
    penal = play.called_foul or play.called_miss
    scored, penalty = (0, PENALTY) if penal else (points, 0)
    play.break_points = 0 if penal else points
    due_penal = play.due_foul is True or play.due_miss or (play.due_foul is None and penal)
    due_scored, due_penalty = (0, PENALTY) if due_penal else (points, 0)
    ledger, target = state.ledger, state.target
    if target is not None:
        # S3 R5(d): only the points required count; the break keeps them all.
        own, opp = ledger.official if play.striker == "A" else ledger.official[::-1]
        room, room_other = max(target - own, 0), max(target - opp, 0)
        if scored > room or due_scored > room:
            scored, due_scored = min(scored, room), min(due_scored, room)
        if penalty > room_other or due_penalty > room_other:
            penalty, due_penalty = min(penalty, room_other), min(due_penalty, room_other)
    play.due_scored, play.due_penalty = due_scored, due_penalty
    mismatch = ledger.stroke(
        play.n,
        play.striker,
        scored,
        penalty,
        play.stroke.score,
        explained=play.explained,
        break_points=play.break_points,
        rule=state.ed.cite["scoring"],
    )
    if mismatch is not None:
        play.findings.append(mismatch)
    play.continues = not penal and points > 0


def _runs(state: State, play: _Play) -> None:
    """Consecutive hazards and cannons in the break (S3 R10, R11), after a scoring stroke."""
    if play.cannon and not play.hazard:
        if not state.cannons:
            state.run_first = play.n
        state.cannons, state.hazards = state.cannons + 1, 0
    elif play.hazard and not play.cannon:
        if not state.hazards:
            state.run_first = play.n
        state.hazards, state.cannons = state.hazards + 1, 0
    else:
        state.hazards = state.cannons = 0


# -- the table after the stroke, and respots (S3 R9, R11(c), R14) ------------------------------


def _table_after_stroke(state: State, play: _Play) -> dict[str, Pos | None]:
    """The balls left on the table and where they rest, as far as the facts tell."""
    stroke, cb = play.stroke, play.cue_ball
    before, potted = state.table, stroke.potted
    if stroke.positions is None and stroke.first:
        # Without recorded positions, every ball may have moved once the cue ball hit one
        # (the object balls can kiss each other, ``then`` may be incomplete).
        table: dict[str, Pos | None] = dict.fromkeys(before)
        for b in potted:
            table.pop(b, None)
        if cb not in potted:
            table[cb] = None
        for b in stroke.off_table or ():
            table.pop(b, None)
        if play.red_hit or RED not in table:
            state.red_spot = None
        return table
    table = {b: p for b, p in before.items() if b not in potted}
    if cb not in potted:
        table[cb] = before.get(cb)
    for b in stroke.off_table or ():
        table.pop(b, None)
    if stroke.positions is not None:
        listed = {b: (x, y) for b, x, y in stroke.positions}
        for b in table:
            table[b] = listed.get(b)
    elif cb in table:
        table[cb] = None  # no ball hit: only the cue ball moved
    if play.red_hit or RED not in table:
        state.red_spot = None
    return table


def _red_due(state: State, play: _Play, table: dict[str, Pos | None]) -> None:
    """S3 R9(b): potted alone from the Spot (or Pyramid) twice, "or more by mistake", in
    consecutive strokes of a break, the Red goes to the Centre Spot; potted from there it
    goes back to the Spot, so that continued pots go Spot twice, then the Centre once (R9(c))."""
    lone = not (play.called_foul or play.called_miss) and RED in play.stroke.potted
    if lone and play.points == 3 and not play.cannon and play.red_spot0 in ("spot", "pyramid"):
        play.seq = state.red_seq + 1
    play.chain = _CENTRE_CHAIN if play.seq >= 2 else _SPOT_CHAIN
    # Chains compared by value, not identity: a compiled build may hold copies of a constant.
    rule = state.cite("sequence" if play.chain == _CENTRE_CHAIN else "spot_red")
    play.due_spots[RED] = (_chain_options(state, table, play.chain, RED), rule)


def _touching_due(state: State, play: _Play, table: dict[str, Pos | None], recorded: _Recorded) -> bool | None:
    """S3 R14(a): the next striker's cue ball touching another ball; without positions a
    recorded TOUCHING BALL re-spot is trusted; 1R 2.10 only by consent."""
    # The two cue balls as read at the start of the stroke: the next striker's and the other.
    ahead = play.next_striker == play.striker
    nxt_ball, non = (play.cue_ball, play.object_ball) if ahead else (play.object_ball, play.cue_ball)
    touching = _touching_ball(table, nxt_ball)
    if touching is None and recorded:
        marks = {b: sp for b, sp, _ in recorded}
        if nxt_ball in table and (marks.get(non) == "centre" or (RED in table and marks.get(RED) == "spot")):
            touching = True
    if touching and state.ed.touching_by_consent:
        # 1R 2.10: only with both players' consent; without a recorded re-spot, play on.
        marks = {b: sp for b, sp, _ in recorded or ()}
        touching = marks.get(non) == "centre" or (RED in table and marks.get(RED) == "spot")
    return touching


def _respot_step(state: State, play: _Play, table: dict[str, Pos | None]) -> None:
    """The due respots (S3 R9, R11(c), R14(a)) against the recorded ones; the table after."""
    stroke, ob = play.stroke, play.object_ball
    play.chain = _SPOT_CHAIN
    if RED not in table:
        _red_due(state, play, table)
    state.red_seq = play.seq
    if play.continues and not play.cannon and state.hazards == 15 and ob not in table and state.ob_off_at_turn_start:
        play.due_spots[ob] = (_chain_options(state, table, _HAZARD_CHAIN, ob), state.cite("hazard_spot"))
    play.next_striker = play.striker if play.continues else play.opponent
    recorded = None if stroke.respots is None else _respots_recorded(state, stroke.respots)
    touching = _touching_due(state, play, table, recorded)
    if touching:
        play.due_spots[RED] = (["spot"], state.cite("touching"))
        non = state.cue[other(play.next_striker)]
        if non in table:
            play.due_spots[non] = (["centre"], state.cite("touching"))
    if play.due_spots or recorded:
        play.findings.extend(_check_respots(state, play.n, play.striker, play.due_spots, recorded, table))
    if touching:
        table.pop(state.cue[play.next_striker], None)
    state.table = table
    if RED in table and (RED in play.due_spots or (recorded and any(b == RED for b, _, _ in recorded))):
        placed = table[RED]
        state.red_spot = state.geo.spot_named(*placed) if placed is not None else None
        fallback = play.chain == _CENTRE_CHAIN and state.red_spot == "spot" and "spot" in play.due_spots[RED][0]
        if play.seq and state.ed.sequence_fallback_resets and fallback:
            # S3 R9(b)(ii): back on the Spot because the Centre and Pyramid are occupied, it
            # is not part of a sequence (put there by mistake, it is: "or more by mistake").
            state.red_seq = 0


# -- the Baulk-line rule (S3 R8(c),(d)), the next turn and the game's end (S3 R5) ---------------


def _baulk_line_windows(state: State, play: _Play) -> None:
    """The windows of the Baulk-line rule open and close with the break (S3 R8(c),(d))."""
    brk1 = play.break_before + play.points
    if state.bl_deadline is not None and brk1 >= state.bl_deadline:
        state.bl_next, state.bl_deadline, state.bl_crossed = state.bl_next + 100, None, False
    if state.bl_deadline is None and brk1 >= state.bl_next:
        state.bl_deadline, state.bl_crossed, state.bl_open_n = state.bl_next + 20, False, play.n


def _next_turn(state: State, play: _Play) -> None:
    state.last_n = play.n
    state.striker = play.next_striker
    if play.continues:
        state.turn_side = play.striker
    else:
        _end_turn(state)
        if play.called_foul:
            state.foul_by = play.striker
    score, target = state.ledger.official, state.target
    if target is not None and (score[0] >= target or score[1] >= target):
        _end(state, "A" if score[0] >= target else "B", "target", play.n)


def _outcome(state: State, play: _Play) -> Outcome:
    ledger = state.ledger
    # Positional, in the field order of Outcome: this is the hot loop.
    return Outcome(
        play.n,
        play.striker,
        play.due_scored,
        play.due_penalty,
        play.due_foul is True,
        play.reasons,
        None,
        play.due_miss,
        False,
        _due_respots(play.due_spots) if play.due_spots else (),
        not play.continues,
        play.next_striker,
        ledger.score(),
        ledger.visit_id if play.break_points else None,
        ledger.visit_id,
        state.over,
        state.winner,
        ledger.credited,
    )


def _due_respots(due: dict[str, tuple[list[str], str]]) -> tuple[tuple[str, str], ...]:
    """The due respots as ``Outcome.respots``: each ball with the first spot of its options."""
    if len(due) == 1:
        for b, (opts, _) in due.items():
            return ((b, opts[0]),)
    return tuple([(b, opts[0]) for b, (opts, _) in sorted(due.items())])


def _finding(*, n: int, kind: str, rule: str, side: str | None, points: int, message: str) -> Finding:
    return Finding(n=n, kind=kind, rule=rule, side=side, points=points, message=message)


def _void_opening(state: State, stroke: Stroke) -> tuple[Outcome | None, list[Finding]]:
    """OB S3 R2: the opening stroke with the wrong white is void; the game starts again."""
    F: list[Finding] = []
    if stroke.call is not None and (stroke.call.foul or stroke.call.miss):
        F.append(
            Finding(
                n=stroke.n,
                kind=UNSUPPORTED_FOUL,
                rule=state.cite("start"),
                side=stroke.striker,
                points=PENALTY,
                message="opening stroke with the wrong ball is void",
            )
        )
    mismatch = state.ledger.check(stroke.n, stroke.striker, stroke.score, rule=state.cite("start"))
    if mismatch is not None:
        F.append(mismatch)
    score = state.ledger.score()
    return Outcome(
        stroke.n, stroke.striker, 0, 0, False, ("void",), next_striker=state.striker or stroke.striker, score=score
    ), F


def _recorded_move(state: State, stroke: Stroke, striker: str) -> int | None:
    if stroke.score is None or (state.resync and not state.gap_scored):
        return None  # the first scoreboard after a gap also holds the missing strokes' points
    i = 0 if striker == "A" else 1
    prev = state.ledger.recorded if state.ledger.recorded is not None else state.ledger.official
    return stroke.score[i] - prev[i]


def _crossed(state: State, stroke: Stroke, cb: str, in_hand: bool) -> bool | None:
    """Did the cue ball cross the Baulk-line into Baulk (S3 R8(a),(b))?"""
    if stroke.crossed_baulk is not None:
        return stroke.crossed_baulk
    if stroke.positions is None or cb in stroke.potted:
        return None
    start = state.table.get(cb)
    if in_hand or start is None or state.geo.in_baulk(start):
        return None
    for b, _x, y in stroke.positions:
        if b == cb:
            if y < state.geo.baulk_y - TOLERANCE_MM:
                return True
            on_line = abs(y - state.geo.baulk_y) <= TOLERANCE_MM
            return True if on_line and state.ed.crossing_on_line_counts else None
    return None


def _touching_ball(table: Mapping[str, Pos | None], ball: str) -> bool | None:
    """S3 R14(a): the next striker's cue ball rests touching another ball."""
    if ball not in table:
        return False
    p = table[ball]
    if p is None:
        return None
    # Touching another ball is the test of an occupied spot, taken where the ball rests.
    return _occupied(table, p, ball)


def _check_respots(
    state: State,
    n: int,
    striker: str,
    due: Mapping[str, tuple[list[str], str]],
    recorded: list[tuple[str, str | None, Pos | None]] | None,
    table: dict[str, Pos | None],
) -> list[Finding]:
    """Compare the recorded respots with the due ones; put on ``table`` what was placed."""
    F: list[Finding] = []
    if recorded is None:
        for b, (opts, _) in due.items():
            table[b] = state.geo.spots[opts[0]]
        return F
    placed: dict[str, tuple[str | None, Pos | None]] = {}
    for b, sp, p in recorded:
        placed[b] = (sp, p)
    for b, (opts, rule) in sorted(due.items()):
        if b not in placed:
            F.append(
                Finding(
                    n=n,
                    kind=RESPOT_MISSING,
                    rule=rule,
                    side=striker,
                    points=0,
                    message=f"{b} not spotted; due on the {opts[0]}",
                )
            )
            continue
        sp, p = placed[b]
        table[b] = p
        if sp not in opts:
            where = sp or "an unnamed place"
            F.append(
                Finding(
                    n=n,
                    kind=RESPOT_WRONG_SPOT,
                    rule=rule,
                    side=striker,
                    points=0,
                    message=f"{b} spotted on {where}; due on the {opts[0]}",
                )
            )
        elif sp != opts[0]:
            F.append(_fallback_spot(n=n, ball=b, spot=sp, passed=opts[: opts.index(sp)], rule=rule, striker=striker))
    for b, (sp, p) in sorted(placed.items(), key=lambda kv: kv[0]):
        if b in due:
            continue
        table[b] = p
        F.append(
            Finding(
                n=n,
                kind=RESPOT_IN_ERROR,
                rule=state.cite("spot_red"),
                side=striker,
                points=0,
                message=f"{b} spotted on {sp or 'the table'}; nothing was due",
            )
        )
    return F


_SPOT_WORDS: Final = {
    "spot": "Spot",
    "pyramid": "Pyramid Spot",
    "centre": "Centre Spot",
    "baulk_middle": "middle of the Baulk-line",
    "d_right": "right-hand corner of the D",
}


def _fallback_spot(*, n: int, ball: str, spot: str, passed: Sequence[str], rule: str, striker: str) -> Finding:
    """A ball put on a later spot of its chain while an earlier one may have been free.

    S3 R9(b), R11(c), R14: each spot of a chain is taken only when the ones before it are
    occupied (S2 R20). Whether they were is not in the facts when positions are unknown
    (docs/rulings.md 14), so the call is almost certainly wrong but one fact excuses it.
    """
    names = " and ".join(f"the {_SPOT_WORDS.get(p, p)}" for p in passed)
    verb = "were both" if len(passed) > 1 else "was"
    return Finding(
        n=n,
        kind=RESPOT_WRONG_SPOT,
        rule=rule,
        side=striker,
        points=0,
        message=f"{ball} spotted on the {spot}; due on the {passed[0]}",
        certain=False,
        unless=f"{names} {verb} occupied",
    )


def _rule(state: State, reasons: Sequence[str]) -> str:
    return state.ed.fouls.get(reasons[0], state.cite("penalty")) if reasons else state.cite("penalty")


def _limit_message(state: State, reason: str, n: int) -> str:
    if reason == "hazards":
        return f"more than {_limit(state, 'ten_hazards', 10, 15, n)} consecutive hazards, foul not called"
    if reason == "cannons":
        return f"more than {_limit(state, 'seventy_cannons', 70, 75, n)} consecutive cannons, foul not called"
    return f"Baulk-line not crossed by {state.bl_deadline} points of the break, foul not called"


def _begin_turn(state: State, striker: str, n: int) -> None:
    state.ledger.end_visit()
    state.turn_side = striker
    state.ob_off_at_turn_start = state.cue[other(striker)] not in state.table
    state.hazards = state.cannons = state.red_seq = 0
    state.run_first = n
    state.bl_next, state.bl_deadline, state.bl_crossed = 80, None, False


def _end_turn(state: State) -> None:
    state.ledger.end_visit()
    state.turn_side = None
    state.hazards = state.cannons = state.red_seq = 0


def _end(state: State, winner: str | None, reason: str, n: int) -> None:
    state.over, state.winner, state.end_reason, state.end_n = True, winner, reason, n
    state.ledger.close()


# -- other records ---------------------------------------------------------------------

_CHOICES: Final = frozenset({"play", "spot_play"})


def _choice(state: State, c: Choice) -> list[Finding]:
    entitled = other(state.foul_by) if state.foul_by is not None else None
    bad = check_choice(c, entitled, _CHOICES, state.cite("penalty"))
    if bad is not None:
        return [bad]
    state.foul_by = None
    if c.option == "spot_play":
        # S3 R16(c)(ii): Red on the Spot, the offender's ball on the Centre Spot, the
        # incoming player in-hand.
        assert entitled is not None
        state.table[RED] = state.geo.spots["spot"]
        state.table[state.cue[other(entitled)]] = state.geo.spots["centre"]
        state.table.pop(state.cue[entitled], None)
        state.red_spot, state.red_seq = "spot", 0
    return []


def _event(state: State, e: Event) -> list[Finding]:
    F: list[Finding] = []
    kind = e.kind
    if kind == "referee_call" and e.call is not None:
        state.calls = (*state.calls, (e.after, e.call))
        late = state.bl_deadline is not None and e.after > state.bl_open_n
        if e.call == "baulk_line_warning" and late and state.turn_side is not None:
            # S3 R8(e): a late Warning gives twenty points from the break score at the call.
            state.bl_deadline = state.ledger.break_of(state.turn_side) + 20
    elif kind == "foul" and e.side is not None:
        F.extend(_event_foul(state, e, e.side))
    elif kind in ("concede", "award") and not state.over:
        if kind == "concede" and e.side is not None:
            if state.ed.concede_striker_only and state.striker is not None and e.side != state.striker:
                F.append(
                    Finding(
                        n=e.after,
                        kind=FRAME_END_ERROR,
                        rule=state.cite("concede"),
                        side=e.side,
                        points=0,
                        message="only the striker may concede",
                    )
                )
            _end(state, other(e.side), "concede", e.after)
        elif kind == "award" and e.side is not None:
            if state.target is not None and e.reason in ("unsporting", "time_wasting"):
                # S4 R3(a): the offender forfeits all points; the game is won by the target to nil.
                i = 0 if e.side == "A" else 1
                state.ledger.official[i], state.ledger.official[1 - i] = state.target, 0
            _end(state, e.side, "award", e.after)
    elif kind == "spot_correction" and e.ball is not None:
        if e.remove:
            state.table.pop(e.ball, None)
        elif e.spot is not None and e.spot in state.geo.spots:
            state.table[e.ball] = state.geo.spots[e.spot]
            if e.ball == RED:
                state.red_spot = e.spot
    return F


def _event_foul(state: State, e: Event, side: str) -> list[Finding]:
    """A foul with no stroke (S3 R16(a)): two points, the turn ends, the usual options."""
    F: list[Finding] = []
    rule = state.ed.fouls.get(e.code or "", state.cite("penalty"))
    if e.points is not None and e.points != PENALTY:
        F.append(
            Finding(
                n=e.after,
                kind=PENALTY_VALUE,
                rule=rule,
                side=side,
                points=abs(e.points - PENALTY),
                message=f"foul called for {e.points} points, the penalty is {PENALTY}",
            )
        )
    pts = PENALTY
    o = other(side)
    if state.target is not None:
        pts = min(pts, max(state.target - state.ledger.official[0 if o == "A" else 1], 0))
    state.ledger.award(e.after, o, pts)
    if e.points is not None and e.points != PENALTY:
        state.ledger.excuse(o, pts, e.points)  # the penalty_value above: not again on the scoreboard
    _end_turn(state)
    state.striker, state.foul_by = o, side
    if state.target is not None and max(state.ledger.official) >= state.target:
        _end(state, o, "target", e.after)
    return F


def _frame_end(state: State, fe: FrameEnd) -> list[Finding]:
    F: list[Finding] = []
    n = state.last_n
    mismatch = state.ledger.check(n, None, fe.score, rule=state.cite("scoring"))
    if mismatch is not None:
        F.append(mismatch)
    if not state.over:
        reason = fe.reason
        score = state.ledger.score()
        if reason == "time" and state.time_limit is not None:
            _end(state, leader(score), "time", n)
        elif reason in ("concede", "award"):
            # The event is not in the log: trust the recorded result.
            _end(state, fe.winner, reason, n)
            return F
        elif state.target is not None:
            F.append(
                Finding(
                    n=n,
                    kind=FRAME_END_ERROR,
                    rule=state.cite("target"),
                    side=fe.winner,
                    points=0,
                    message=f"game recorded as ended ({reason or 'no reason'}) before either side reached {state.target}",
                )
            )
            _end(state, fe.winner, reason or "recorded", n)
            return F
        else:
            _end(state, leader(score), reason or "recorded", n)
    decided = not (state.end_reason == "time" and state.winner is None)
    bad = check_frame_end(n, fe, state.winner, state.end_reason, state.cite("end"), decided=decided)
    if bad is not None:
        F.append(bad)
    return F


def apply(state: State, record: FrameRecord) -> Step:
    """Fold one record into the state: ``(new state, due call of a stroke or None, findings)``.

    Pure: ``state`` is not changed (the simulator asks for a stroke's due call this way).
    """
    state = state.copy()
    outcome, findings = _fold(state, record)
    return state, outcome, findings


def _fold(state: State, record: FrameRecord) -> tuple[Outcome | None, list[Finding]]:
    """Fold one record into ``state`` in place (the replay owns its state: no copy per stroke)."""
    if isinstance(record, Stroke):
        if record.n > state.seen_n + 1 or state.resync:
            return _stroke_after_gap(state, record)
        state.seen_n = record.n
        return _stroke(state, record)
    gap = _gap_before(state, record.after) if isinstance(record, Choice | Event) else []
    if isinstance(record, Choice):
        if state.resync and state.foul_by is None:
            # The foul this choice answers is in the missing strokes (docs/rulings.md 32).
            state.foul_by = other(record.side)
        return None, gap + _choice(state, record)
    if isinstance(record, Event):
        return None, gap + _event(state, record)
    if isinstance(record, FrameEnd):
        state.recorded_winner = record.winner
        if state.resync:
            _resync_end(state, record)
        return None, _frame_end(state, record)
    return None, []


def _gap_before(state: State, after: int) -> list[Finding]:
    """A choice or an event after a stroke that is not in the log: the gap starts there."""
    gap = stroke_gap(state.seen_n, after + 1)
    if gap is None:
        return []
    state.seen_n = after
    _open_gap(state)
    return [gap]


def _open_gap(state: State) -> None:
    """What the missing strokes did is unknown: every ball may be anywhere on the table
    (none in-hand), no foul is pending, and the recorded state is followed (ruling 32)."""
    state.foul_by = None
    state.table = {b: None for b in (RED, *state.cue.values())}
    state.resync, state.gap_scored = True, False


def _resync_end(state: State, fe: FrameEnd) -> None:
    """A game that ends inside a gap's window: its recorded score is the official one."""
    state.ledger.resync(fe.score)
    state.gap_scored = True
    score = state.ledger.official
    if not state.over and state.target is not None and max(score) >= state.target:
        _end(state, "A" if score[0] >= state.target else "B", "target", state.last_n)


def _stroke_after_gap(state: State, stroke: Stroke) -> tuple[Outcome | None, list[Finding]]:
    """A stroke played after strokes missing from the log (docs/rulings.md 32).

    The gap is one ``invalid_record``. Until a stroke raises nothing after a recorded
    scoreboard has given the official score, strokes are followed as recorded: the side
    that played was entitled to, a ball played from in-hand (``placement``) was in-hand,
    and nothing raised is charged to the officials.
    """
    gap = stroke_gap(state.seen_n, stroke.n)
    state.seen_n = stroke.n
    if gap is not None:
        _open_gap(state)
    if state.turn_side != stroke.striker:
        _end_turn(state)
    if stroke.placement is not None:
        state.table.pop(state.cue.get(stroke.striker, ""), None)
    state.striker = stroke.striker
    outcome, raised = _stroke(state, stroke)
    if stroke.score is not None and not state.gap_scored:
        state.ledger.resync(stroke.score)
        state.gap_scored = True
    state.resync = bool(raised) or not state.gap_scored
    return outcome, [gap] if gap is not None else []


def replay_frame(
    match: Match, frame: Frame, records: Sequence[FrameRecord], previous: FrameResult | None
) -> FrameResult:
    """Replay one game and return its result (docs/format.md section 7)."""
    state = new_frame(match, frame, previous)
    # The referee's calls are read ahead: a late TEN HAZARDS call made after the fifteenth
    # hazard still entitles the striker to five more (S3 R11(a)).
    state.calls = tuple(
        (r.after, r.call) for r in records if isinstance(r, Event) and r.kind == "referee_call" and r.call
    )
    findings: list[Finding] = []
    outcomes: list[Outcome] = []
    for r in records:
        if (type(r) is TypedStroke or type(r) is Stroke) and r.n == state.seen_n + 1 and not state.resync:
            # The common case first (the hot loop): what _fold does for such a stroke.
            state.seen_n = r.n
            outcome, fs = _stroke(state, r)
            if outcome is not None:
                outcomes.append(outcome)
            if fs:
                findings.extend(fs)
            continue
        if isinstance(r, Event) and r.kind == "referee_call":
            # Already read ahead; still fold it for the baulk-line Warning.
            seen = state.calls
            _, fs = _fold(state, r)
            state.calls = seen
        else:
            outcome, fs = _fold(state, r)
            if outcome is not None:
                outcomes.append(outcome)
        findings.extend(fs)
    result = finish(state)
    result.findings = sorted(findings, key=Finding.sort_key)
    result.outcomes = outcomes
    return result


def finish(state: State) -> FrameResult:
    """The result of a game from its final state (the break in progress is closed on a
    copy; the state given is left unchanged)."""
    ledger = state.ledger.copy()
    ledger.close()
    recorded = ledger.recorded
    return FrameResult(
        state.frame,
        ledger.score(),
        (recorded[0], recorded[1]) if recorded is not None else None,
        state.winner,
        list(ledger.breaks),
        [],
        [],
        (ledger.visits[0], ledger.visits[1]),
        state.recorded_winner,
        state.end_reason,
        state.breaker,
    )
