"""What the pool games share: the WPA general rules (seed 000, sections 1 and 6).

Standard fouls, ball in hand, spotting on the long string, condonation, the turn at the
table (visits), stalemate and the comparison of a recorded call with the due one are
written here once; each game (eight-ball and its editions, later nine-ball and 14.1)
states only what its own rules add. Facts that are absent are unknown and raise nothing
(docs/format.md 1.2): every fact test below answers ``True``, ``False`` or ``None``.

Condonation (WPA 6, and every eight-ball book in practice): "If a foul is not called
before the next shot begins, the foul is assumed not to have happened." A foul nobody
called is therefore reported (``condoned_foul``) but the table and the turn follow the
calls as made.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, Generic, Protocol, TypeVar

import msgspec

from cuelog.replay.ledger import Ledger
from cuelog.replay.model import (
    CONDONED_FOUL,
    FRAME_END_ERROR,
    RESPOT_IN_ERROR,
    RESPOT_MISSING,
    RESPOT_WRONG_SPOT,
    UNSUPPORTED_FOUL,
    VISITS_ERROR,
    Finding,
    FrameResult,
    Outcome,
)
from cuelog.schemas.records import (
    Call,
    Choice,
    Clock,
    Cushions,
    Event,
    FrameEnd,
    FrameRecord,
    Respot,
    Stroke,
    TypedStroke,
)

CUE: Final = "white"
FOOT: Final = "foot"
"""The spot every pool ball is spotted on (the foot spot on the long string, WPA 1.4)."""

TABLE_MM: Final[tuple[float, ...]] = (1270.0, 2540.0)
"""A nine-foot table's playing surface (WPA equipment) when the match gives no ``table_mm``:
width and length. Typed as a tuple of any length on purpose: a compiled build reads a pair
of floats of another compiled module through a check that always fails (mypyc)."""
BALL_MM: Final = 57.15
"""Pool ball diameter (WPA equipment: 2 1/4 in); centres closer than this touch."""
TOLERANCE_MM: Final = 0.5

# Who plays after a standard foul, by game: the penalty each rule book gives.
TWO_VISITS: Final = "two_visits"
"""The opponent has two visits (World Eight Ball K, WEPF K)."""
BALL_IN_HAND: Final = "ball_in_hand"
"""The opponent has the cue ball in hand anywhere (WPA 1.5, 3.9, 2.7)."""
FREE_SHOT: Final = "free_shot"
"""The opponent has one free shot (WPA black ball 5.13)."""

# docs/format.md ``infringements`` codes and the WPA general rule each one breaks (WPA 6).
JUDGED: Final[Mapping[str, str]] = {
    "feet_off_floor": "WPA 6.4",
    "touched_ball": "WPA 6.6",
    "double_hit": "WPA 6.7",
    "push_stroke": "WPA 6.8",
    "balls_moving": "WPA 6.9",
}

HEAD_STRING: Final[Mapping[str, str]] = {
    # WPA 6.11, with the cue ball in hand behind the head string: the first ball contacted
    # behind the head string before the cue ball crossed it (first paragraph); the cue ball
    # neither crossing the head string nor contacting a ball in front of or on it (second
    # paragraph). A foul at eight ball (3.9) and 14.1 (4.9), not at nine ball (2.7).
    "behind_head_string_first": "WPA 6.11",
    "head_string_not_crossed": "WPA 6.11",
}


class Foul(msgspec.Struct, frozen=True, gc=False):
    """One foul the facts show: a stable ``code`` and the rule it breaks.

    Fouls and dues are made for every stroke: as msgspec structs (like ``Outcome``) they
    cost a tenth of a frozen dataclass to make (benchmarks/README.md, "Pool: the engines'
    facts read once")."""

    code: str
    rule: str


class Due(msgspec.Struct, frozen=True, gc=False):
    """The call the rules give for one stroke, in the terms of docs/format.md's pool ``call``."""

    fouls: tuple[Foul, ...] = ()
    visits: int = 1
    """Visits the incoming player is given (two after a World/WEPF standard foul)."""
    in_hand: str | None = None
    """Where the next stroke is played from by hand: ``anywhere``, ``baulk``, ``head`` or ``None``."""
    in_hand_optional: bool = False
    """The incoming player may choose the cue ball in hand or in position (black ball 5.1)."""
    loss_of_frame: bool = False
    loss_rule: str = ""

    @property
    def foul(self) -> bool:
        return bool(self.fouls)

    @property
    def codes(self) -> tuple[str, ...]:
        """The fouls' stable codes, most serious first (``Outcome.reasons``)."""
        return foul_codes(self.fouls)


def foul_codes(fouls: Sequence[Foul]) -> tuple[str, ...]:
    """The stable codes of ``fouls``, in their order: a stroke's ``Outcome.reasons``."""
    return tuple(f.code for f in fouls) if fouls else ()


# -- facts -------------------------------------------------------------------------------


def objects_potted(s: Stroke) -> list[str]:
    """The object balls of ``potted`` (the cue ball left out)."""
    potted = s.potted
    return [b for b in potted if b != CUE] if CUE in potted else list(potted)


def cue_scratched(s: Stroke) -> bool:
    """WPA 6.1: the cue ball was pocketed or left the table."""
    return CUE in s.potted or CUE in (s.off_table or [])


def objects_off_table(s: Stroke) -> list[str]:
    """WPA 6.5: object balls driven off the table (they do not count as pocketed)."""
    off = s.off_table
    return [b for b in off if b != CUE] if off else []


def rail_after_contact(c: Cushions | None) -> bool | None:
    """WPA 6.3: did any ball reach a rail (cushion) after the cue ball's first contact?

    ``objects`` counts object balls to a cushion (always after contact); ``after_contact``
    says the cue ball or an object ball did. ``None`` when the recorder kept neither.
    """
    if c is None:
        return None
    if c.objects is not None and c.objects > 0:
        return True
    if c.after_contact is not None:
        return c.after_contact
    if c.objects == 0:
        return None
    return None


def judged_fouls(s: Stroke, codes: Mapping[str, str]) -> list[Foul]:
    """The referee-judged infringements of a stroke that are fouls in this game (WPA 6)."""
    return [Foul(i.code, codes[i.code]) for i in s.infringements or [] if i.code in codes]


def pocket_of(s: Stroke, ball: str) -> str | None:
    """The pocket ``ball`` went into, when the recorder kept ``pockets``."""
    if s.pockets is None or len(s.pockets) != len(s.potted) or ball not in s.potted:
        return None
    return s.pockets[s.potted.index(ball)]


# -- straight-line paths (WE G(3)(b), O) -------------------------------------------------

Pos = tuple[float, float]


def _clear(cue: Pos, to: Pos, others: Sequence[Pos]) -> bool:
    """The cue ball's centre travels from ``cue`` to ``to`` without touching another ball."""
    dx, dy = to[0] - cue[0], to[1] - cue[1]
    length2 = dx * dx + dy * dy
    for ox, oy in others:
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((ox - cue[0]) * dx + (oy - cue[1]) * dy) / length2))
        px, py = cue[0] + t * dx - ox, cue[1] + t * dy - oy
        if px * px + py * py < (BALL_MM - TOLERANCE_MM) ** 2:
            return False
    return True


def can_hit(cue: Pos, target: Pos, others: Sequence[Pos], table: Pos, samples: int = 90) -> bool:
    """Can the cue ball hit any part of ``target`` by a straight line? (WE G(3)(b)(i), (iv):
    the contact must be reachable on the bed, inside the straight cushions.) The contact
    positions of the cue ball's centre, one ball diameter from the target's, are sampled
    over the half circle facing the cue ball."""
    base = math.atan2(cue[1] - target[1], cue[0] - target[0])
    r = BALL_MM / 2
    for k in range(samples + 1):
        a = base - math.pi / 2 + math.pi * k / samples
        to = (target[0] + BALL_MM * math.cos(a), target[1] + BALL_MM * math.sin(a))
        if not (r <= to[0] <= table[0] - r and r <= to[1] <= table[1] - r):
            continue
        if _clear(cue, to, others):
            return True
    return False


def fine_cuts(cue: Pos, target: Pos, others: Sequence[Pos]) -> bool:
    """Can the finest cut be played on both sides of ``target`` by a straight line? (WE O(1):
    the cushions are not considered, O(4); a touching ball is never snookered, O(3).)"""
    dx, dy = target[0] - cue[0], target[1] - cue[1]
    dist = math.hypot(dx, dy)
    if dist < BALL_MM + TOLERANCE_MM:
        return True
    px, py = -dy / dist * BALL_MM, dx / dist * BALL_MM
    left, right = (target[0] + px, target[1] + py), (target[0] - px, target[1] - py)
    return _clear(cue, left, others) and _clear(cue, right, others)


# -- the long string (WPA 1.4) -----------------------------------------------------------


def spot_order(balls: Iterable[str], order: Sequence[str]) -> list[str]:
    """Balls to be spotted, in the order the game's rule gives (e.g. World S(2)(e))."""

    def rank(b: str) -> tuple[int, int]:
        key = order.index(b) if b in order else len(order)
        return (key, int(b) if b.isdigit() else 0)

    return sorted(balls, key=rank)


def foot_spots(balls: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """``Outcome.respots`` of balls the rules spot: every one on the foot spot (WPA 1.4)."""
    return tuple((b, FOOT) for b in balls) if balls else ()


def check_respots(n: int, due: Sequence[str], recorded: Sequence[Respot] | None, rule: str) -> list[Finding]:
    """Compare the balls the rules spot with the referee's ``respots`` (WPA 1.4).

    Pool spots every ball on the foot spot (or behind it on the long string): a named spot
    other than ``foot`` is the wrong spot; coordinates are trusted. ``None``: not recorded.
    """
    if recorded is None:
        return []
    out: list[Finding] = []
    left = list(due)
    for r in recorded:
        if r.ball in left:
            left.remove(r.ball)
            if r.spot is not None and r.spot != FOOT:
                out.append(
                    Finding(
                        n=n,
                        kind=RESPOT_WRONG_SPOT,
                        rule=rule,
                        side=None,
                        points=0,
                        message=f"{r.ball} spotted on {r.spot!r}, the rules put it on the foot spot (long string)",
                    )
                )
        else:
            out.append(
                Finding(
                    n=n,
                    kind=RESPOT_IN_ERROR,
                    rule=rule,
                    side=None,
                    points=0,
                    message=f"{r.ball} was spotted but had to stay off the table",
                )
            )
    for b in left:
        out.append(
            Finding(
                n=n, kind=RESPOT_MISSING, rule=rule, side=None, points=0, message=f"{b} had to be spotted but was not"
            )
        )
    return out


# -- calls -------------------------------------------------------------------------------


def called_foul(call: Call | None) -> bool:
    return call is not None and call.foul


def compare_call(n: int, striker: str, due: Due, call: Call | None, penalty: str, rule: str) -> list[Finding]:
    """The recorded call against the due one: a foul missed or invented, the wrong penalty.

    ``penalty`` is the game's standard penalty (``TWO_VISITS``, ``BALL_IN_HAND``,
    ``FREE_SHOT``); ``rule`` cites an unsupported call; a wrong penalty cites the foul's own
    rule. Loss of frame is compared by :func:`compare_loss`.
    """
    if due.foul and not called_foul(call):
        f = due.fouls[0]
        return [
            Finding(
                n=n,
                kind=CONDONED_FOUL,
                rule=f.rule,
                side=striker,
                points=0,
                message=f"{describe(f.code)}: foul not called, condoned",
            )
        ]
    if not due.foul and called_foul(call):
        assert call is not None
        why = f" ({call.reason})" if call.reason else ""
        return [
            Finding(
                n=n,
                kind=UNSUPPORTED_FOUL,
                rule=rule,
                side=striker,
                points=0,
                message=f"foul called{why} but the facts show none",
            )
        ]
    if due.foul and call is not None and not due.loss_of_frame:
        return _compare_penalty(n, striker, due, call, penalty, rule)
    return []


def _compare_penalty(n: int, striker: str, due: Due, call: Call, penalty: str, rule: str) -> list[Finding]:
    wrong: list[str] = []
    if call.visits is not None and call.visits != due.visits:
        wrong.append(f"{call.visits} visit(s) awarded, the rules give {due.visits}")
    if call.ball_in_hand is not None and not due.in_hand_optional and call.ball_in_hand != (due.in_hand is not None):
        want = f"in hand ({due.in_hand})" if due.in_hand else "played from where it lies"
        wrong.append(f"cue ball {'in hand' if call.ball_in_hand else 'not in hand'}, the rules give {want}")
    if not wrong:
        return []
    return [
        Finding(
            n=n,
            kind=VISITS_ERROR,
            rule=due.fouls[0].rule,
            side=striker,
            points=0,
            message=f"{describe(due.fouls[0].code)}: " + "; ".join(wrong) + f" ({penalty.replace('_', ' ')})",
        )
    ]


def compare_loss(n: int, striker: str, due: Due, call: Call | None, rule: str) -> list[Finding]:
    """Loss of frame due but not called, or called against the facts (``frame_end_error``)."""
    called = call is not None and bool(call.loss_of_frame)
    if due.loss_of_frame and not called and (call is None or call.loss_of_frame is None):
        # No loss-of-frame call recorded: the frame_end record decides whether it was missed.
        return []
    if due.loss_of_frame == called:
        return []
    if due.loss_of_frame:
        return [
            Finding(
                n=n,
                kind=FRAME_END_ERROR,
                rule=due.loss_rule,
                side=striker,
                points=0,
                message="loss of frame: the rules end the frame here, the referee let play go on",
            )
        ]
    return [
        Finding(
            n=n,
            kind=FRAME_END_ERROR,
            rule=rule,
            side=striker,
            points=0,
            message="loss of frame called but the facts show no loss-of-frame foul",
        )
    ]


# Plain words for the foul codes, for messages.
_WORDS: Final[Mapping[str, str]] = {
    "in_off": "cue ball potted",
    "cue_off_table": "cue ball off the table",
    "ball_off_table": "object ball off the table",
    "no_contact": "cue ball hit no object ball",
    "wrong_ball_first": "first contact not a ball on",
    "no_rail": "no ball potted and no ball to a cushion after contact",
    "opponent_ball": "opponent's ball potted",
    "placement": "cue ball not placed where the rules require",
    "no_nomination": "shot played without nominating a colour",
    "unfair_break": "break not fair",
    "time": "shot not played within the time allowed",
    "out_of_turn": "played out of turn",
}


def describe(code: str) -> str:
    return _WORDS.get(code, code.replace("_", " "))


class Rack(Protocol):
    """What a game won by racks (eight-ball, nine-ball) keeps for its result."""

    frame: int
    breaker: str | None
    ledger: Ledger
    winner: str | None
    end_reason: str | None
    recorded: tuple[int, int] | None
    recorded_winner: str | None


def rack_score(winner: str | None) -> tuple[int, int]:
    """A rack scores 1-0 to its winner (0-0 while it is open): it has no points."""
    return (1, 0) if winner == "A" else (0, 1) if winner == "B" else (0, 0)


def rack_result(state: Rack) -> FrameResult:
    """The engine protocol's ``finish`` for a game won by racks: 1-0 to the winner, the
    visits per side (the visit in progress closed on a copy), no points and no breaks."""
    ledger = state.ledger.copy()
    ledger.close()
    return FrameResult(
        frame=state.frame,
        score=rack_score(state.winner),
        recorded=state.recorded,
        winner=state.winner,
        visits=(ledger.visits[0], ledger.visits[1]),
        recorded_winner=state.recorded_winner,
        end_reason=state.end_reason,
        breaker=state.breaker,
    )


RackState = TypeVar("RackState", bound="Copyable")


class Copyable(Protocol):
    def copy(self: RackState) -> RackState: ...


class Handlers(Generic[RackState]):
    """What a pool game does with each kind of record; a kind left out raises nothing.

    A plain class, made once per game: as a frozen dataclass of a generic class it failed at
    import in the compiled build (``cuelog/replay/compiled.py``)."""

    def __init__(
        self,
        *,
        stroke: Callable[[RackState, Stroke], tuple[Outcome | None, list[Finding]]],
        choice: Callable[[RackState, Choice], list[Finding]],
        event: Callable[[RackState, Event], list[Finding]],
        frame_end: Callable[[RackState, FrameEnd], list[Finding]],
        clock: Callable[[RackState, Clock], list[Finding]] | None = None,
    ) -> None:
        self.stroke = stroke
        self.choice = choice
        self.event = event
        self.frame_end = frame_end
        self.clock = clock

    def fold(self, st: RackState, record: FrameRecord) -> tuple[Outcome | None, list[Finding]]:
        """Fold one record into ``st`` in place: the due call of a stroke and the findings."""
        if isinstance(record, Stroke):
            return self.stroke(st, record)
        if isinstance(record, Choice):
            return None, self.choice(st, record)
        if isinstance(record, Event):
            return None, self.event(st, record)
        if isinstance(record, FrameEnd):
            return None, self.frame_end(st, record)
        if isinstance(record, Clock) and self.clock is not None:
            return None, self.clock(st, record)
        return None, []

    def apply(self, state: RackState, record: FrameRecord) -> tuple[RackState, Outcome | None, list[Finding]]:
        """The engine interface's pure fold: a copy of ``state`` with ``record`` folded in."""
        st = state.copy()
        outcome, findings = self.fold(st, record)
        return st, outcome, findings


def replay_rack(
    state: RackState,
    records: Sequence[FrameRecord],
    handlers: Handlers[RackState],
    finish: Callable[[RackState], FrameResult],
) -> FrameResult:
    """Fold a rack's records into ``state`` (a fresh state of the game's own engine) and
    return its result: the replay loop every pool game shares (docs/format.md section 7)."""
    findings: list[Finding] = []
    outcomes: list[Outcome] = []
    stroke, fold = handlers.stroke, handlers.fold
    for record in records:
        # Strokes, nearly every record, go straight to the game's stroke (what fold does).
        outcome, raised = (
            stroke(state, record) if type(record) is TypedStroke or type(record) is Stroke else fold(state, record)
        )
        if outcome is not None:
            outcomes.append(outcome)
        findings.extend(raised)
    result = finish(state)
    result.findings = sorted(findings, key=Finding.sort_key)
    result.outcomes = outcomes
    return result
