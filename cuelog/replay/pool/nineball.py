"""Nine-ball under the WPA rules (seed 000 sections 2 and 6).

The same pure fold as every engine: ``new_frame`` racks the nine balls, ``apply`` folds one
record into a new state and gives the due call of a stroke, ``finish`` the rack's result.
What nine-ball shares with the other pool games (the standard fouls, the call comparison,
spotting) is in :mod:`cuelog.replay.pool.common`; this module states only WPA section 2:
lowest ball first, the break, the push out, the nine, three consecutive fouls.

As in eight-ball the rack has no points: ``score`` is 1-0 to its winner (docs/pool.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from cuelog.replay.common import alternating_breaker, check_choice
from cuelog.replay.ledger import Ledger
from cuelog.replay.model import FRAME_END_ERROR, PUSH_OUT_ERROR, WRONG_STRIKER, Detail, Finding, FrameResult, Outcome
from cuelog.replay.pool.common import (
    BALL_IN_HAND,
    CUE,
    JUDGED,
    Due,
    Foul,
    Handlers,
    called_foul,
    check_respots,
    compare_call,
    compare_loss,
    cue_scratched,
    foot_spots,
    judged_fouls,
    objects_off_table,
    objects_potted,
    rack_result,
    rack_score,
    rail_after_contact,
    replay_rack,
)
from cuelog.replay.pool.nineball_editions import Edition
from cuelog.replay.pool.table import Table
from cuelog.schemas.records import Choice, Event, Frame, FrameEnd, FrameRecord, Match, Stroke, other

Step: TypeAlias = tuple["State", Outcome | None, list[Finding]]

NINE: Final = "9"
BALLS: Final = tuple(str(i) for i in range(1, 10))


EDITIONS: Final[dict[str, Edition]] = {"wpa": Edition("wpa")}
editions: Final[dict[str, Edition]] = EDITIONS
"""The engine interface's name for the editions (cuelog/replay/engine.py)."""


def edition_of(rules: str) -> Edition:
    return EDITIONS[rules.split("/", 1)[1]]


THREE_POINT_BALLS: Final = 3
"""Balls that must cross the head string on a break pocketing nothing (WPA 2.3(c))."""
PUSH_CHOICES: Final = frozenset({"play", "return"})
"""After a push out the other player shoots (``play``) or hands it back (``return``), WPA 2.4."""


@dataclass(slots=True)
class State:
    """The rack between records. ``apply`` copies it; nothing mutates an input."""

    match: Match
    frame: int
    ed: Edition
    table: set[str]
    breaker: str | None
    striker: str | None = None
    ledger: Ledger = field(default_factory=Ledger)
    breaking: bool = True
    push_allowed: bool = False
    """The shot right after a break without a foul may be a push out (WPA 2.4)."""
    pusher: str | None = None
    """The side that just played a push out: the other side chooses who shoots (WPA 2.4)."""
    fouls: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    """Consecutive fouls of each side in this rack (WPA 6.14)."""
    warned: frozenset[str] = frozenset()
    """Sides warned that they are on two fouls (WPA 6.14)."""
    last_n: int = 0
    over: bool = False
    winner: str | None = None
    end_reason: str | None = None
    end_rule: str = "WPA 2.5"
    end_n: int = 0
    end_reported: bool = False
    recorded: tuple[int, int] | None = None
    recorded_winner: str | None = None
    """The winner the ``frame_end`` record gives (``None`` before it)."""

    def copy(self) -> State:
        c = State(self.match, self.frame, self.ed, set(self.table), self.breaker)
        for name in _SCALARS:
            setattr(c, name, getattr(self, name))
        c.ledger = self.ledger.copy()
        c.fouls = dict(self.fouls)
        return c

    def lowest(self) -> str | None:
        """The lowest-numbered ball on the table (WPA 2.2): the ball on."""
        table = self.table
        for ball in _LOW_TO_HIGH:
            if ball in table:
                return ball
        return min(table, key=int) if table else None


_LOW_TO_HIGH: Final = tuple(str(i) for i in range(1, 16))
"""Pool's numbered balls in order: a ball spotted that is not in the rack still counts."""


_SCALARS: Final = (
    "striker",
    "breaking",
    "push_allowed",
    "pusher",
    "warned",
    "last_n",
    "over",
    "winner",
    "end_reason",
    "end_rule",
    "end_n",
    "end_reported",
    "recorded",
    "recorded_winner",
)


def new_frame(match: Match, frame: Frame, previous: FrameResult | None = None) -> State:
    """The nine balls racked, the breaker in hand behind the head string (WPA 2.2, 2.3(a));
    the break alternates (WPA 2.1)."""
    breaker = alternating_breaker(frame, previous)
    return State(match, frame.frame, edition_of(match.rules), set(BALLS), breaker, striker=breaker)


# -- strokes -----------------------------------------------------------------------------


def apply(state: State, record: FrameRecord) -> Step:
    """Fold one record into a copy of ``state``: ``(new state, due call or None, findings)``."""
    return _RECORDS.apply(state, record)


def _stroke(st: State, s: Stroke) -> tuple[Outcome | None, list[Finding]]:
    F: list[Finding] = []
    if st.over:
        st.last_n = s.n
        return None, _played_on(st, s)
    if st.striker is not None and s.striker != st.striker:
        F.append(
            Finding(
                n=s.n,
                kind=WRONG_STRIKER,
                rule="WPA 6.13",
                side=s.striker,
                points=0,
                message=f"stroke played by {s.striker}, {st.striker} was due",
            )
        )
    st.last_n = s.n
    st.pusher = None
    if s.score is not None and len(s.score) == 2:
        st.recorded = (s.score[0], s.score[1])
    st.ledger.stroke(s.n, s.striker, 0, 0, None)
    lowest = st.lowest()
    push = bool(s.push_out)
    if push and not st.push_allowed:
        F.append(
            Finding(
                n=s.n,
                kind=PUSH_OUT_ERROR,
                rule="WPA 2.4",
                side=s.striker,
                points=0,
                message="push out allowed only on the shot after the break",
            )
        )
        push = False
    fouls = _fouls(st, s, lowest, push=push)
    breaking, st.breaking, st.push_allowed = st.breaking, False, False
    for b in objects_potted(s) + objects_off_table(s):
        st.table.discard(b)
    return _result(st, s, F, fouls, lowest=lowest, push=push, breaking=breaking), F


def _fouls(st: State, s: Stroke, lowest: str | None, *, push: bool) -> list[Foul]:
    """The standard fouls of WPA 2.7 (6.1-6.10, 6.12, 6.13, 6.15, 6.16) and the break's 2.3(b).
    A push out suspends 6.2 and 6.3 (WPA 2.4)."""
    fouls: list[Foul] = []
    if s.placement == "illegal":
        fouls.append(Foul("placement", "WPA 6.10"))
    if cue_scratched(s):
        fouls.append(Foul("in_off" if CUE in s.potted else "cue_off_table", "WPA 6.1"))
    if not push:
        if not s.first:
            fouls.append(Foul("no_contact", "WPA 6.2"))
        elif any(b != lowest for b in s.first):
            fouls.append(Foul("wrong_ball_first", "WPA 6.2"))
        elif st.breaking and not objects_potted(s):
            objects = s.cushions.objects if s.cushions is not None else None
            if objects is not None and objects < st.ed.break_rails:
                fouls.append(Foul("unfair_break", "WPA 2.3(b)"))
        elif not st.breaking and not objects_potted(s) and rail_after_contact(s.cushions) is False:
            fouls.append(Foul("no_rail", "WPA 6.3"))
    if objects_off_table(s):
        fouls.append(Foul("ball_off_table", "WPA 6.5"))
    fouls.extend(judged_fouls(s, JUDGED))
    return fouls


def _result(
    st: State, s: Stroke, F: list[Finding], fouls: list[Foul], *, lowest: str | None, push: bool, breaking: bool
) -> Outcome:
    side = s.striker
    warned = side in st.warned or not st.ed.warning_required
    third = bool(fouls) and st.fouls[side] >= st.ed.serious_fouls - 1 and warned
    due = Due(fouls=tuple(fouls), in_hand="anywhere" if fouls else None, loss_of_frame=third, loss_rule="WPA 6.14")
    # A push out declared is a recorded fact (WPA 2.4) the reports count: ``True`` where it
    # stood, ``False`` where the rules refused it (a push_out_error, judged as a normal shot).
    declared: Detail = (("push_out", push),) if s.push_out else ()
    if third:
        lost = compare_loss(s.n, side, due, s.call, "WPA 2.8")
        st.end_reported = bool(lost)
        F.extend(lost)
        _end(st, other(side), "loss_of_frame", s.n, "WPA 6.14")
        return _outcome(st, s, due, (), lowest, breaking=breaking, push=push, detail=declared)
    F.extend(compare_call(s.n, side, due, s.call, BALL_IN_HAND, "WPA 2.7"))
    F.extend(compare_loss(s.n, side, due, s.call, "WPA 2.8"))
    nine = NINE in s.potted
    if nine and not fouls and not push:
        _end(st, side, "pot", s.n, "WPA 2.5")  # a legal 9 wins on any shot, the break included
        return _outcome(st, s, due, (), lowest, breaking=breaking, push=push, detail=declared)
    spots = (NINE,) if NINE in s.potted or NINE in (s.off_table or []) else ()
    F.extend(check_respots(s.n, list(spots), s.respots, "WPA 2.6"))
    for r in s.respots or []:
        if r.ball != CUE:
            st.table.add(r.ball)
    _next_turn(st, s, fouls, push=push, breaking=breaking)
    dry = breaking and not fouls and _dry_break(st, s)
    detail = ((("dry_break", True),) if dry else ()) + declared  # sorted by name (Detail)
    return _outcome(st, s, due, spots, lowest, breaking=breaking, push=push, detail=detail)


def _dry_break(st: State, s: Stroke) -> bool:
    """WPA 2.3(c), only under the optional Three Point Break Rule: "if no ball is pocketed,
    three balls must cross the head string, or the break is considered 'dry break'". Read
    from the break's rest positions (a ball at rest behind the head string crossed it);
    unknown, so not judged, without them (ruling N7). A dry break is no foul: the turn
    passes as after any break that pockets nothing (2.5), the push out stays open (2.4)."""
    if not st.ed.three_point_break or objects_potted(s) or s.positions is None:
        return False
    table = Table.of(st.match.table_mm)
    crossed = sum(1 for b, x, y in s.positions if b != CUE and table.behind_head_string((x, y)))
    return crossed < THREE_POINT_BALLS


def _next_turn(st: State, s: Stroke, fouls: list[Foul], *, push: bool, breaking: bool) -> None:
    """WPA 2.5: a legal pot continues; otherwise the turn passes. The table follows the call
    as made (WPA 6); a foul called counts toward 6.14, a legal shot resets the count."""
    side = s.striker
    called = called_foul(s.call)
    if called:
        st.fouls[side] += 1
    else:
        st.fouls[side] = 0
        st.warned = st.warned - {side}
    st.push_allowed = breaking and not called and st.ed.push_out  # WPA 2.4: the shot after a foul-free break
    if push and not called:
        st.pusher, st.striker = side, other(side)  # WPA 2.4: the other player chooses
        st.ledger.end_visit()
        return
    if not called and objects_potted(s):
        st.striker = side
        return
    st.ledger.end_visit()
    st.striker = other(side)


def _outcome(
    st: State,
    s: Stroke,
    due: Due,
    spots: Sequence[str],
    lowest: str | None,
    *,
    breaking: bool,
    push: bool,
    detail: Detail = (),
) -> Outcome:
    """The due call; ``ball_on`` is the lowest ball, or ``break`` on a break shot. The balls
    of a push out score nothing (WPA 2.4); those of one refused count as any shot's."""
    balls = 0 if due.foul or push else len(objects_potted(s))
    # Positional, in Outcome's field order, each field named beside it: the hot loop, where
    # msgspec reads keyword arguments name by name (about 1 us a stroke against 0.15 us).
    return Outcome(
        s.n,  # n
        s.striker,  # striker
        balls,  # scored
        0,  # penalty
        due.foul,  # foul
        due.codes,  # reasons
        "break" if breaking else lowest,  # ball_on
        False,  # miss
        False,  # free_ball
        foot_spots(spots),  # respots
        st.over or st.striker != s.striker,  # turn_ends
        None if st.over else st.striker,  # next_striker
        rack_score(st.winner),  # score
        None,  # break_id
        st.ledger.visit_id,  # visit_id
        st.over,  # frame_over
        st.winner,  # winner
        0,  # credited
        detail,  # detail
        1 if due.foul else 0,  # visits
        due.in_hand,  # in_hand
        due.loss_of_frame,  # loss_of_frame
    )


def _end(st: State, winner: str | None, reason: str, n: int, rule: str) -> None:
    st.over, st.winner, st.end_reason, st.end_n, st.end_rule = True, winner, reason, n, rule
    st.ledger.close()


def _played_on(st: State, s: Stroke) -> list[Finding]:
    if st.end_reported:
        return []
    st.end_reported = True
    why = (st.end_reason or "").replace("_", " ")
    return [
        Finding(
            n=st.end_n,
            kind=FRAME_END_ERROR,
            rule=st.end_rule,
            side=st.winner,
            points=0,
            message=f"the rules end the rack at stroke {st.end_n} ({why}, to {st.winner}), but play went on (stroke {s.n})",
        )
    ]


# -- other records -----------------------------------------------------------------------


def _choice(st: State, c: Choice) -> list[Finding]:
    """After a push out the other player chooses who shoots (WPA 2.4)."""
    entitled = other(st.pusher) if st.pusher is not None else None
    bad = check_choice(c, entitled, PUSH_CHOICES, "WPA 2.4")
    if bad is not None:
        return [bad]
    assert st.pusher is not None
    st.striker = st.pusher if c.option == "return" else c.side
    st.pusher = None
    return []


def _event(st: State, e: Event) -> list[Finding]:
    if e.kind == "warning" and e.side is not None and st.fouls[e.side] >= st.ed.serious_fouls - 1:
        st.warned = st.warned | {e.side}  # WPA 6.14: warned on two fouls
    elif e.kind == "rerack":
        # WPA 2.9: a stalemate; the original breaker breaks again.
        st.table, st.breaking, st.striker = set(BALLS), True, st.breaker
        st.fouls, st.warned, st.push_allowed, st.pusher = {"A": 0, "B": 0}, frozenset(), False, None
        st.ledger.end_visit()
    elif e.kind == "spot_correction" and e.ball is not None:
        # The referee puts the table right (WPA 1.4); the error was reported on its stroke.
        if e.remove:
            st.table.discard(e.ball)
        else:
            st.table.add(e.ball)
    elif e.kind == "concede" and e.side is not None and not st.over:
        _end(st, other(e.side), "concede", e.after, "WPA 1.11")
    elif e.kind == "award" and e.side is not None and not st.over:
        _end(st, e.side, "award", e.after, "WPA 6.17")
    return []


def _frame_end(st: State, fe: FrameEnd) -> list[Finding]:
    st.recorded_winner = fe.winner
    if fe.score is not None and len(fe.score) == 2:
        st.recorded = (fe.score[0], fe.score[1])
    if not st.over:
        if fe.reason in ("concede", "award") and fe.winner is not None:
            _end(st, fe.winner, fe.reason, st.last_n, "WPA 1.11")
            return []
        st.end_reported = True
        why = fe.reason or "no reason"
        return [
            Finding(
                n=st.last_n,
                kind=FRAME_END_ERROR,
                rule="WPA 2.5",
                side=fe.winner,
                points=0,
                message=f"rack recorded as ended ({why}), still in play",
            )
        ]
    if fe.winner is None or fe.winner == st.winner or st.end_reported:
        return []
    st.end_reported = True
    why = (st.end_reason or "").replace("_", " ")
    return [
        Finding(
            n=st.end_n,
            kind=FRAME_END_ERROR,
            rule=st.end_rule,
            side=fe.winner,
            points=0,
            message=f"rack recorded to {fe.winner}, the rules give {st.winner} ({why})",
        )
    ]


_RECORDS: Final = Handlers(stroke=_stroke, choice=_choice, event=_event, frame_end=_frame_end)
"""What the game does with each kind of record (the fold every pool engine shares)."""


def replay_frame(
    match: Match, frame: Frame, records: Sequence[FrameRecord], previous: FrameResult | None
) -> FrameResult:
    """Replay one rack and return its result (docs/format.md section 7)."""
    return replay_rack(new_frame(match, frame, previous), records, _RECORDS, finish)


def finish(state: State) -> FrameResult:
    """The rack's result: 1-0 to its winner, visits per side."""
    return rack_result(state)
