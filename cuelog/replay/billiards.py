"""English billiards: the WPBSA 2024 rules (seed 001, Sections 2-4) and their older editions.

The engine is a pure fold: ``new_frame(match, frame, previous)`` gives the state at the
start of a game (S3 R2(b)), ``apply(state, record)`` folds one record into a new state and
returns the due call of a stroke (an :class:`Outcome`) with the findings of that record.
``replay_frame`` runs the fold over one game and returns its :class:`FrameResult`.

Editions are data (:class:`Edition`) plus a few switches where the rule books differ:
``billiards/wpbsa-2024``, ``billiards/classic`` (seed 000, "Rules of Billiards") and
``billiards/one-red`` (seed 002, "Snooker - 1 Red").

Facts that are absent are unknown and raise nothing (FORMAT.md 1.2): every fact test
below answers ``True``, ``False`` or ``None`` (unknown).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from cuelog.replay.common import check_choice, check_frame_end, leader, parse_time
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
from cuelog.replay.params import param, required
from cuelog.schemas.records import Choice, Event, Frame, FrameEnd, FrameRecord, Match, Respot, Stroke, other

Pos: TypeAlias = tuple[float, float]
Step: TypeAlias = tuple["State", Outcome | None, list[Finding]]

RED: Final = "red"
PENALTY: Final = 2
"""Every foul and every miss costs two points, never more in one stroke (S3 R16(c), R17)."""
BALL_MM: Final = 52.5
"""Ball diameter (S1 R2(b)); two balls closer than this, centre to centre, touch."""
TOLERANCE_MM: Final = 0.5
"""Measurement tolerance when positions decide touching, occupied spots and Baulk."""
TABLE_MM: Final = (1778.0, 3569.0)
BAULK_LINE_MM: Final = 737.0
D_RADIUS_MM: Final = 292.0
SPOT_FROM_TOP_MM: Final = 324.0

# FORMAT.md ``infringements`` codes that are billiards fouls when the edition lists them
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


@dataclass(frozen=True, slots=True)
class Edition:
    """What differs between the billiards rule books, as data."""

    name: str
    fouls: Mapping[str, str] = required(
        rule="S3 R15", meaning="Foul code -> citation; a code absent here is not a foul in this edition."
    )
    cite: Mapping[str, str] = required(rule="-", meaning="Concept -> citation (scoring, miss, spotting, ...).")
    miss_is_foul: bool = param(
        False, rule="1R 2.11(15)", meaning="Missing all object balls is a foul; no non-foul miss."
    )
    baulk_line: bool | None = param(
        False,
        rule="S3 R8",
        meaning="The baulk-line crossing rule: None absent from the edition; false applied when the match"
        " says baulk_line: true; true applied unless the match says false.",
    )
    crossing_on_line_counts: bool = param(
        False,
        rule="S3 R8(b)",
        meaning="Resting centrally on the line counts as a crossing (B24 S3 R8(b): it does not; 1R 2.13.1: it does).",
    )
    sequence_fallback_resets: bool = param(
        True,
        rule="S3 R9(b)(ii)",
        meaning="The Red put back on the Spot when Centre and Pyramid are occupied is not part of a"
        " sequence. The older text says nothing of it.",
    )
    concede_striker_only: bool = param(
        False, rule="older S4 R6", meaning="Only the striker may concede (B24 S4 R4: any player)."
    )
    wrong_ball_opening_void: bool = param(
        False,
        rule="older S3 R2",
        meaning="An opening stroke with the wrong white is void (B24 S3 R2(c): the striker's"
        " responsibility, so a foul, S3 R15(a)).",
    )
    touching_by_consent: bool = param(
        False,
        rule="1R 2.10",
        meaning='The touching-ball re-spot is made "with the consent of both players".',
    )


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


# -- the table -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Geometry:
    """Spots and lines of the table (S1 R1), in FORMAT.md coordinates (mm, origin bottom left)."""

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
    breaker = frame.breaker
    if breaker is None and previous is not None and previous.breaker is not None:
        # S3 R2(d)(ii): the order of starting alternates from game to game.
        breaker = other(previous.breaker)
    st = State(match, frame.frame, ed, geo, cue, match.target, match.time_limit_s, bool(applies), table, breaker)
    st.breaker = breaker
    red = table.get(RED)
    st.red_spot = geo.spot_named(*red) if red is not None else None
    st.t0 = parse_time(frame.t)
    return st


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


def _objects_out_of_baulk(st: State, objects: Sequence[str]) -> bool | None:
    unknown = False
    for b in objects:
        if b not in st.table:
            continue
        p = st.table[b]
        if p is None:
            unknown = True
        elif not st.geo.in_baulk(p):
            return True
    return None if unknown else False


def _facts(st: State, s: Stroke, cb: str, ob: str, in_hand: bool, out_of_turn: bool) -> _Facts:
    ed = st.ed
    fouls: list[str] = []
    unknown = False
    miss = False
    no_contact_unknown = False
    for inf in s.infringements or ():
        if inf.code in JUDGED_FOULS and inf.code in ed.fouls:
            fouls.append(inf.code)
    if out_of_turn:
        fouls.append("out_of_turn")
    cue_first = s.cushions.cue_first if s.cushions is not None else None
    if in_hand:
        if s.placement == "illegal":
            fouls.append("in_hand")
        elif s.first:
            # S3 R6(f): no part of an object ball in Baulk may be played on directly; off a
            # cushion it is legal only if that cushion is out of Baulk (R6(d)), which the
            # facts do not say.
            for b in s.first:
                p = st.table.get(b)
                if p is not None and st.geo.in_baulk(p):
                    if cue_first is False:
                        fouls.append("in_hand")
                    else:
                        unknown = True
                    break
    if s.off_table:
        fouls.append("off_table")
    if not s.first:
        cb_potted = cb in s.potted
        if not in_hand or ed.miss_is_foul:
            fouls.append("no_contact")
        else:
            out = _objects_out_of_baulk(st, (RED, ob))
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


def _respots_recorded(st: State, respots: Sequence[Respot]) -> list[tuple[str, str | None, Pos | None]]:
    out: list[tuple[str, str | None, Pos | None]] = []
    for r in respots:
        if r.spot is not None:
            out.append((r.ball, r.spot, st.geo.spots.get(r.spot)))
        elif r.x is not None and r.y is not None:
            out.append((r.ball, st.geo.spot_named(r.x, r.y), (r.x, r.y)))
        else:
            out.append((r.ball, None, None))
    return out


def _chain_options(st: State, table: Mapping[str, Pos | None], chain: Sequence[str], ball: str) -> list[str]:
    """The spots of a fallback chain a ball may go to, given what is known of the table.

    The first free spot of the chain is due; a spot before it whose occupation is unknown
    is also accepted (unknown facts raise nothing).
    """
    options: list[str] = []
    for name in chain:
        occ = _occupied(table, st.geo.spots[name], ball)
        if occ is True:
            continue
        options.append(name)
        if occ is False:
            break
    return options or [chain[-1]]


_SPOT_CHAIN: Final = ("spot", "pyramid", "centre")
_CENTRE_CHAIN: Final = ("centre", "pyramid", "spot")
_HAZARD_CHAIN: Final = ("baulk_middle", "d_right")


def _limit(st: State, call: str, at: int, limit: int, n: int) -> int:
    """The run limit with the referee's call (S3 R10(a), R11(a)): five more after a late call.

    A call belongs to the current run when it was made after the run's first stroke and
    before a later run could have reached its own call (``at`` strokes after this one).
    No call recorded: it is taken as made on time (FORMAT.md 4, ``referee_call``).
    """
    best = limit
    for after, c in st.calls:
        if c == call and st.run_first <= after < n + at:
            counted = after - st.run_first + 1
            if counted > at:
                best = max(best, counted + (limit - at))
    return best


def _stroke(st: State, s: Stroke) -> tuple[Outcome | None, list[Finding]]:
    F: list[Finding] = []
    ed = st.ed
    n = s.n
    if st.over:
        if not st.late_reported:
            st.late_reported = True
            F.append(
                Finding(
                    n,
                    FRAME_END_ERROR,
                    st.cite("end"),
                    s.striker,
                    0,
                    f"stroke played after the game ended at {st.end_n}",
                )
            )
        return None, F
    t = parse_time(s.t)
    if st.t0 is None:
        st.t0 = t
    elif st.time_limit is not None and t is not None and t - st.t0 > st.time_limit:
        # S3 R5(a): TIME ends the game; only a stroke already made may finish.
        _end(st, leader(st.ledger.score()), "time", st.last_n)
        st.late_reported = True
        F.append(Finding(n, FRAME_END_ERROR, st.cite("time"), s.striker, 0, "stroke struck after the time limit"))
        return None, F

    striker = s.striker
    if striker not in st.cue:
        return None, [Finding(n, INVALID_RECORD, "FORMAT 3", None, 0, f"striker {striker!r} is not a side (A or B)")]
    if st.last_n == 0 and ed.wrong_ball_opening_void and any(i.code == "wrong_cue_ball" for i in s.infringements or ()):
        return _void_opening(st, s)
    if st.breaker is None:
        st.breaker = striker
    o = other(striker)
    cb, ob = st.cue[striker], st.cue[o]
    due = st.striker
    out_of_turn = due is not None and striker != due
    if out_of_turn:
        start = st.last_n == 0
        F.append(
            Finding(
                n,
                WRONG_STRIKER,
                st.cite("start") if start else ed.fouls.get("out_of_turn", st.cite("order")),
                striker,
                0 if start or (s.call is not None and s.call.foul) else PENALTY,
                f"{striker} played, {due} was entitled to"
                + (" (wrong player started the game)" if start else " (playing out of turn is a foul)"),
            )
        )
        out_of_turn = not start and "out_of_turn" in ed.fouls
    if st.turn_side != striker:
        _begin_turn(st, striker, n)
    red_spot0 = st.red_spot
    st.foul_by = None
    in_hand = cb not in st.table
    if ob not in st.table and (ob in s.first or ob in (s.then or ())):
        F.append(Finding(n, INVALID_RECORD, st.cite("scoring"), striker, 0, f"{ob} hit but it was not on the table"))
    if RED not in st.table and (RED in s.first or RED in (s.then or ()) or RED in s.potted):
        # The Red left off the table by mistake (already reported) was put back: follow the facts.
        st.table[RED] = None
    for b in s.potted:
        if b not in st.table and b != cb:
            F.append(
                Finding(n, INVALID_RECORD, st.cite("scoring"), striker, 0, f"{b} potted but it was not on the table")
            )
    facts = _facts(st, s, cb, ob, in_hand, out_of_turn)

    # -- what the stroke scores if legal (S3 R4) --
    then = s.then
    hit = set(s.first) | set(then or ())
    hazard = 0
    if RED in s.potted and RED in st.table:
        hazard += 3
    if ob in s.potted and ob in st.table:
        hazard += 2
    if cb in s.potted and s.first and all(b in st.table for b in s.first):
        # S2 R9: in-off the first object ball hit; S3 R4(d): 3 off the Red, 2 off the
        # opponent's ball or when both were hit at once.
        hazard += 3 if s.first == [RED] else 2
    cannon: bool | None = False
    if ob in st.table and RED in st.table:
        if {ob, RED} <= hit:
            cannon = True
        elif then is None and len(s.first) == 1:
            cannon = None
    if cannon is None:
        # ``then`` unknown: trust the scoreboard on whether a cannon was made.
        moved = _recorded_move(st, s, striker)
        cannon = moved is not None and moved == hazard + 2
    points = hazard + (2 if cannon else 0)

    brk0 = st.ledger.break_of(striker)
    # -- the limits (S3 R10, R11) and the baulk-line rule (S3 R8) --
    legal_so_far = not facts.fouls and not facts.miss and not facts.no_contact_unknown
    if legal_so_far and points:
        if cannon and not hazard and st.cannons + 1 > _limit(st, "seventy_cannons", 70, 75, n):
            facts.fouls.append("cannons")
        if hazard and not cannon and st.hazards + 1 > _limit(st, "ten_hazards", 10, 15, n):
            facts.fouls.append("hazards")
    crossed = _crossed(st, s, cb, in_hand)
    if st.baulk_line and st.bl_deadline is not None and legal_so_far:
        if crossed is True:
            st.bl_crossed = True
        elif crossed is None and st.bl_crossed is False:
            st.bl_crossed = None
        if points and brk0 + points >= st.bl_deadline and st.bl_crossed is False and "baulk_line" in ed.fouls:
            facts.fouls.append("baulk_line")

    due_foul: bool | None = True if facts.fouls else (None if facts.unknown else False)
    due_miss = facts.miss and due_foul is False
    reasons = tuple(dict.fromkeys(facts.fouls))

    # -- the calls as made, checked against the due call --
    call = s.call
    called_foul = call is not None and call.foul
    called_miss = call is not None and not call.foul and call.miss
    explained = False
    if called_foul or called_miss:
        what = "foul" if called_foul else "miss"
        assert call is not None
        if called_foul and due_miss:
            F.append(Finding(n, MISS_ERROR, st.cite("miss"), striker, 0, "FOUL called for a miss (S2 R16), not a foul"))
        elif called_miss and due_foul is True:
            F.append(
                Finding(
                    n,
                    MISS_ERROR,
                    _rule(st, reasons),
                    striker,
                    0,
                    f"MISS called, the facts show a foul ({', '.join(reasons)})",
                )
            )
        elif due_foul is False and not due_miss and not facts.no_contact_unknown:
            kind = UNSUPPORTED_FOUL if called_foul else MISS_ERROR
            F.append(
                Finding(
                    n,
                    kind,
                    st.cite("penalty" if called_foul else "miss"),
                    striker,
                    PENALTY,
                    f"{what} called, the facts show a legal stroke",
                )
            )
        elif call.points is not None and call.points != PENALTY:
            explained = True
            F.append(
                Finding(
                    n,
                    PENALTY_VALUE,
                    st.cite("penalty" if called_foul else "miss"),
                    striker,
                    abs(call.points - PENALTY),
                    f"{what} called for {call.points} points, the penalty is {PENALTY}",
                )
            )
    elif due_foul is True:
        limit = [r for r in reasons if r in LIMIT_FOULS]
        other_fouls = [r for r in reasons if r != "out_of_turn"]
        if limit:
            F.append(
                Finding(n, LIMIT_EXCEEDED, _rule(st, tuple(limit)), striker, PENALTY, _limit_message(st, limit[0], n))
            )
        elif other_fouls:
            F.append(
                Finding(
                    n,
                    CONDONED_FOUL,
                    _rule(st, tuple(other_fouls)),
                    striker,
                    PENALTY,
                    f"foul not called ({', '.join(other_fouls)}); condoned when the next stroke was made",
                )
            )
    elif due_miss:
        F.append(Finding(n, MISS_ERROR, st.cite("miss"), striker, PENALTY, "MISS not called (S2 R16)"))
    elif facts.no_contact_unknown:
        F.append(
            Finding(
                n,
                MISS_ERROR,
                st.cite("miss"),
                striker,
                PENALTY,
                "no object ball hit from in-hand and no MISS or FOUL called",
            )
        )

    # -- book the stroke --
    if called_foul or called_miss:
        scored, penalty, brk_pts = 0, PENALTY, 0
    else:
        scored, penalty, brk_pts = points, 0, points
    # The due call (Outcome.scored/penalty) follows the facts whatever was called; where
    # the facts are unknown (due_foul None) the call as made stands.
    due_penal = due_foul is True or due_miss or (due_foul is None and (called_foul or called_miss))
    due_scored, due_penalty = (0, PENALTY) if due_penal else (points, 0)
    i = 0 if striker == "A" else 1
    official = st.ledger.official
    if st.target is not None:
        # S3 R5(d): only the points required count; the break keeps them all.
        room, room_other = max(st.target - official[i], 0), max(st.target - official[1 - i], 0)
        scored, penalty = min(scored, room), min(penalty, room_other)
        due_scored, due_penalty = min(due_scored, room), min(due_penalty, room_other)
    mismatch = st.ledger.stroke(
        n, striker, scored, penalty, s.score, explained=explained, break_points=brk_pts, rule=st.cite("scoring")
    )
    if mismatch is not None:
        F.append(mismatch)
    legal = not (called_foul or called_miss)
    continues = legal and points > 0

    # -- runs of hazards and cannons --
    if continues:
        if cannon and not hazard:
            if not st.cannons:
                st.run_first = n
            st.cannons, st.hazards = st.cannons + 1, 0
        elif hazard and not cannon:
            if not st.hazards:
                st.run_first = n
            st.hazards, st.cannons = st.hazards + 1, 0
        else:
            st.hazards = st.cannons = 0

    # -- the table after the stroke --
    before = st.table
    table: dict[str, Pos | None] = {b: p for b, p in before.items() if b not in s.potted}
    if cb not in s.potted:
        table[cb] = before.get(cb)
    for b in s.off_table or ():
        table.pop(b, None)
    if s.positions is not None:
        listed = {b: (x, y) for b, x, y in s.positions}
        for b in table:
            table[b] = listed.get(b)
    else:
        # Without recorded positions, every ball may have moved once the cue ball hit one
        # (the object balls can kiss each other, ``then`` may be incomplete).
        stirred = list(table) if s.first else [cb]
        for b in stirred:
            if b in table:
                table[b] = None
    if RED in hit or RED not in table:
        st.red_spot = None

    # -- the due respots --
    due_spots: dict[str, tuple[list[str], str]] = {}
    seq = 0
    chain: tuple[str, ...] = _SPOT_CHAIN
    if RED not in table:
        # S3 R9(b): potted alone from the Spot (or Pyramid) twice, "or more by mistake", in
        # consecutive strokes of a break, the Red goes to the Centre Spot; potted from there
        # it goes back to the Spot, so that continued pots go Spot twice, then the Centre
        # once (R9(c)).
        lone = legal and RED in s.potted and points == 3 and not cannon
        if lone and red_spot0 in ("spot", "pyramid"):
            seq = st.red_seq + 1
        chain = _CENTRE_CHAIN if seq >= 2 else _SPOT_CHAIN
        due_spots[RED] = (
            _chain_options(st, table, chain, RED),
            st.cite("sequence" if chain is _CENTRE_CHAIN else "spot_red"),
        )
    st.red_seq = seq
    if continues and not cannon and st.hazards == 15 and ob not in table and st.ob_off_at_turn_start:
        due_spots[ob] = (_chain_options(st, table, _HAZARD_CHAIN, ob), st.cite("hazard_spot"))
    nxt = striker if continues else o
    nxt_ball = st.cue[nxt]
    touching = _touching_ball(table, nxt_ball)
    recorded = None if s.respots is None else _respots_recorded(st, s.respots)
    if touching is None and recorded is not None:
        # Positions unknown: trust a recorded TOUCHING BALL re-spot (S3 R14(a)).
        non = st.cue[other(nxt)]
        marks = {b: sp for b, sp, _ in recorded}
        if nxt_ball in table and (marks.get(non) == "centre" or (RED in table and marks.get(RED) == "spot")):
            touching = True
    if touching and ed.touching_by_consent:
        # 1R 2.10: only with both players' consent; without a recorded re-spot, play on.
        non = st.cue[other(nxt)]
        marks = {b: sp for b, sp, _ in recorded or ()}
        touching = marks.get(non) == "centre" or (RED in table and marks.get(RED) == "spot")
    if touching:
        due_spots[RED] = (["spot"], st.cite("touching"))
        non = st.cue[other(nxt)]
        if non in table:
            due_spots[non] = (["centre"], st.cite("touching"))
    due_list = tuple((b, opts[0]) for b, (opts, _) in sorted(due_spots.items()))
    F.extend(_check_respots(st, n, striker, due_spots, recorded, table))
    if touching:
        table.pop(nxt_ball, None)
    st.table = table
    if RED in table and (RED in due_spots or (recorded and any(b == RED for b, _, _ in recorded))):
        placed = table[RED]
        st.red_spot = st.geo.spot_named(*placed) if placed is not None else None
        fallback = chain is _CENTRE_CHAIN and st.red_spot == "spot" and "spot" in due_spots[RED][0]
        if seq and ed.sequence_fallback_resets and fallback:
            # S3 R9(b)(ii): back on the Spot because the Centre and Pyramid are occupied, it
            # is not part of a sequence (put there by mistake, it is: "or more by mistake").
            st.red_seq = 0

    # -- the baulk-line windows (S3 R8(c),(d)) --
    if st.baulk_line and continues:
        brk1 = brk0 + points
        if st.bl_deadline is not None and brk1 >= st.bl_deadline:
            st.bl_next, st.bl_deadline, st.bl_crossed = st.bl_next + 100, None, False
        if st.bl_deadline is None and brk1 >= st.bl_next:
            st.bl_deadline, st.bl_crossed, st.bl_open_n = st.bl_next + 20, False, n

    # -- whose turn --
    st.last_n = n
    st.striker = nxt
    if continues:
        st.turn_side = striker
    else:
        _end_turn(st)
        if called_foul:
            st.foul_by = striker
    i_score = st.ledger.official
    if st.target is not None and max(i_score) >= st.target:
        _end(st, "A" if i_score[0] >= st.target else "B", "target", n)
    return (
        Outcome(
            n,
            striker,
            due_scored,
            due_penalty,
            due_foul is True,
            reasons,
            None,
            due_miss,
            False,
            due_list,
            not continues,
            nxt,
            st.ledger.score(),
            st.ledger.visit_id if brk_pts else None,
            st.ledger.visit_id,
            st.over,
            st.winner,
            st.ledger.credited,
        ),
        F,
    )


def _void_opening(st: State, s: Stroke) -> tuple[Outcome | None, list[Finding]]:
    """OB S3 R2: the opening stroke with the wrong white is void; the game starts again."""
    F: list[Finding] = []
    if s.call is not None and (s.call.foul or s.call.miss):
        F.append(
            Finding(
                s.n,
                UNSUPPORTED_FOUL,
                st.cite("start"),
                s.striker,
                PENALTY,
                "opening stroke with the wrong ball is void",
            )
        )
    mismatch = st.ledger.check(s.n, s.striker, s.score, rule=st.cite("start"))
    if mismatch is not None:
        F.append(mismatch)
    score = st.ledger.score()
    return Outcome(s.n, s.striker, 0, 0, False, ("void",), next_striker=st.striker or s.striker, score=score), F


def _recorded_move(st: State, s: Stroke, striker: str) -> int | None:
    if s.score is None:
        return None
    i = 0 if striker == "A" else 1
    prev = st.ledger.recorded if st.ledger.recorded is not None else st.ledger.official
    return s.score[i] - prev[i]


def _crossed(st: State, s: Stroke, cb: str, in_hand: bool) -> bool | None:
    """Did the cue ball cross the Baulk-line into Baulk (S3 R8(a),(b))?"""
    if s.crossed_baulk is not None:
        return s.crossed_baulk
    if s.positions is None or cb in s.potted:
        return None
    start = st.table.get(cb)
    if in_hand or start is None or st.geo.in_baulk(start):
        return None
    for b, _x, y in s.positions:
        if b == cb:
            if y < st.geo.baulk_y - TOLERANCE_MM:
                return True
            on_line = abs(y - st.geo.baulk_y) <= TOLERANCE_MM
            return True if on_line and st.ed.crossing_on_line_counts else None
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
    st: State,
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
            table[b] = st.geo.spots[opts[0]]
        return F
    placed: dict[str, tuple[str | None, Pos | None]] = {}
    for b, sp, p in recorded:
        placed[b] = (sp, p)
    for b, (opts, rule) in sorted(due.items()):
        if b not in placed:
            F.append(Finding(n, RESPOT_MISSING, rule, striker, 0, f"{b} not spotted; due on the {opts[0]}"))
            continue
        sp, p = placed[b]
        table[b] = p
        if sp not in opts:
            where = sp or "an unnamed place"
            F.append(Finding(n, RESPOT_WRONG_SPOT, rule, striker, 0, f"{b} spotted on {where}; due on the {opts[0]}"))
    for b, (sp, p) in sorted(placed.items(), key=lambda kv: kv[0]):
        if b in due:
            continue
        table[b] = p
        F.append(
            Finding(
                n,
                RESPOT_IN_ERROR,
                st.cite("spot_red"),
                striker,
                0,
                f"{b} spotted on {sp or 'the table'}; nothing was due",
            )
        )
    return F


def _rule(st: State, reasons: Sequence[str]) -> str:
    return st.ed.fouls.get(reasons[0], st.cite("penalty")) if reasons else st.cite("penalty")


def _limit_message(st: State, reason: str, n: int) -> str:
    if reason == "hazards":
        return f"more than {_limit(st, 'ten_hazards', 10, 15, n)} consecutive hazards, foul not called"
    if reason == "cannons":
        return f"more than {_limit(st, 'seventy_cannons', 70, 75, n)} consecutive cannons, foul not called"
    return f"Baulk-line not crossed by {st.bl_deadline} points of the break, foul not called"


def _begin_turn(st: State, striker: str, n: int) -> None:
    st.ledger.end_visit()
    st.turn_side = striker
    st.ob_off_at_turn_start = st.cue[other(striker)] not in st.table
    st.hazards = st.cannons = st.red_seq = 0
    st.run_first = n
    st.bl_next, st.bl_deadline, st.bl_crossed = 80, None, False


def _end_turn(st: State) -> None:
    st.ledger.end_visit()
    st.turn_side = None
    st.hazards = st.cannons = st.red_seq = 0


def _end(st: State, winner: str | None, reason: str, n: int) -> None:
    st.over, st.winner, st.end_reason, st.end_n = True, winner, reason, n
    st.ledger.close()


# -- other records ---------------------------------------------------------------------

_CHOICES: Final = frozenset({"play", "spot_play"})


def _choice(st: State, c: Choice) -> list[Finding]:
    entitled = other(st.foul_by) if st.foul_by is not None else None
    bad = check_choice(c, entitled, _CHOICES, st.cite("penalty"))
    if bad is not None:
        return [bad]
    st.foul_by = None
    if c.option == "spot_play":
        # S3 R16(c)(ii): Red on the Spot, the offender's ball on the Centre Spot, the
        # incoming player in-hand.
        assert entitled is not None
        st.table[RED] = st.geo.spots["spot"]
        st.table[st.cue[other(entitled)]] = st.geo.spots["centre"]
        st.table.pop(st.cue[entitled], None)
        st.red_spot, st.red_seq = "spot", 0
    return []


def _event(st: State, e: Event) -> list[Finding]:
    F: list[Finding] = []
    kind = e.kind
    if kind == "referee_call" and e.call is not None:
        st.calls = (*st.calls, (e.after, e.call))
        late = st.bl_deadline is not None and e.after > st.bl_open_n
        if e.call == "baulk_line_warning" and late and st.turn_side is not None:
            # S3 R8(e): a late Warning gives twenty points from the break score at the call.
            st.bl_deadline = st.ledger.break_of(st.turn_side) + 20
    elif kind == "foul" and e.side is not None:
        F.extend(_event_foul(st, e, e.side))
    elif kind in ("concede", "award") and not st.over:
        if kind == "concede" and e.side is not None:
            if st.ed.concede_striker_only and st.striker is not None and e.side != st.striker:
                F.append(
                    Finding(e.after, FRAME_END_ERROR, st.cite("concede"), e.side, 0, "only the striker may concede")
                )
            _end(st, other(e.side), "concede", e.after)
        elif kind == "award" and e.side is not None:
            if st.target is not None and e.reason in ("unsporting", "time_wasting"):
                # S4 R3(a): the offender forfeits all points; the game is won by the target to nil.
                i = 0 if e.side == "A" else 1
                st.ledger.official[i], st.ledger.official[1 - i] = st.target, 0
            _end(st, e.side, "award", e.after)
    elif kind == "spot_correction" and e.ball is not None:
        if e.remove:
            st.table.pop(e.ball, None)
        elif e.spot is not None and e.spot in st.geo.spots:
            st.table[e.ball] = st.geo.spots[e.spot]
            if e.ball == RED:
                st.red_spot = e.spot
    return F


def _event_foul(st: State, e: Event, side: str) -> list[Finding]:
    """A foul with no stroke (S3 R16(a)): two points, the turn ends, the usual options."""
    F: list[Finding] = []
    rule = st.ed.fouls.get(e.code or "", st.cite("penalty"))
    if e.points is not None and e.points != PENALTY:
        F.append(
            Finding(
                e.after,
                PENALTY_VALUE,
                rule,
                side,
                abs(e.points - PENALTY),
                f"foul called for {e.points} points, the penalty is {PENALTY}",
            )
        )
    pts = PENALTY
    o = other(side)
    if st.target is not None:
        pts = min(pts, max(st.target - st.ledger.official[0 if o == "A" else 1], 0))
    st.ledger.award(e.after, o, pts)
    _end_turn(st)
    st.striker, st.foul_by = o, side
    if st.target is not None and max(st.ledger.official) >= st.target:
        _end(st, o, "target", e.after)
    return F


def _frame_end(st: State, fe: FrameEnd) -> list[Finding]:
    F: list[Finding] = []
    n = st.last_n
    mismatch = st.ledger.check(n, None, fe.score, rule=st.cite("scoring"))
    if mismatch is not None:
        F.append(mismatch)
    if not st.over:
        reason = fe.reason
        score = st.ledger.score()
        if reason == "time" and st.time_limit is not None:
            _end(st, leader(score), "time", n)
        elif reason in ("concede", "award"):
            # The event is not in the log: trust the recorded result.
            _end(st, fe.winner, reason, n)
            return F
        elif st.target is not None:
            F.append(
                Finding(
                    n,
                    FRAME_END_ERROR,
                    st.cite("target"),
                    fe.winner,
                    0,
                    f"game recorded as ended ({reason or 'no reason'}) before either side reached {st.target}",
                )
            )
            _end(st, fe.winner, reason or "recorded", n)
            return F
        else:
            _end(st, leader(score), reason or "recorded", n)
    decided = not (st.end_reason == "time" and st.winner is None)
    bad = check_frame_end(n, fe, st.winner, st.end_reason, st.cite("end"), decided=decided)
    if bad is not None:
        F.append(bad)
    return F


def apply(state: State, record: FrameRecord) -> Step:
    """Fold one record into the state: ``(new state, due call of a stroke or None, findings)``.

    Pure: ``state`` is not changed (the simulator asks for a stroke's due call this way).
    """
    st = state.copy()
    outcome, findings = _fold(st, record)
    return st, outcome, findings


def _fold(st: State, record: FrameRecord) -> tuple[Outcome | None, list[Finding]]:
    """Fold one record into ``st`` in place (the replay owns its state: no copy per stroke)."""
    if isinstance(record, Stroke):
        return _stroke(st, record)
    if isinstance(record, Choice):
        return None, _choice(st, record)
    if isinstance(record, Event):
        return None, _event(st, record)
    if isinstance(record, FrameEnd):
        return None, _frame_end(st, record)
    return None, []


def replay_frame(
    match: Match, frame: Frame, records: Sequence[FrameRecord], previous: FrameResult | None
) -> FrameResult:
    """Replay one game and return its result (FORMAT.md section 7)."""
    st = new_frame(match, frame, previous)
    # The referee's calls are read ahead: a late TEN HAZARDS call made after the fifteenth
    # hazard still entitles the striker to five more (S3 R11(a)).
    st.calls = tuple((r.after, r.call) for r in records if isinstance(r, Event) and r.kind == "referee_call" and r.call)
    findings: list[Finding] = []
    outcomes: list[Outcome] = []
    end: FrameEnd | None = None
    for r in records:
        if isinstance(r, Event) and r.kind == "referee_call":
            # Already read ahead; still fold it for the baulk-line Warning.
            seen = st.calls
            _, fs = _fold(st, r)
            st.calls = seen
        else:
            outcome, fs = _fold(st, r)
            if outcome is not None:
                outcomes.append(outcome)
        if isinstance(r, FrameEnd):
            end = r
        findings.extend(fs)
    result = finish(st, end)
    result.findings = sorted(findings, key=Finding.sort_key)
    result.outcomes = outcomes
    return result


def finish(state: State, end: FrameEnd | None = None) -> FrameResult:
    """The result of a game from its final state (the break in progress is closed)."""
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
        end.winner if end is not None else None,
        state.end_reason,
        state.breaker,
    )
