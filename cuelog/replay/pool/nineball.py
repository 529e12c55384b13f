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
from cuelog.replay.model import FRAME_END_ERROR, PUSH_OUT_ERROR, WRONG_STRIKER, Finding, FrameResult, Outcome
from cuelog.replay.pool.common import (
    BALL_IN_HAND,
    CUE,
    FOOT,
    JUDGED,
    Due,
    Foul,
    called_foul,
    check_respots,
    compare_call,
    compare_loss,
    cue_scratched,
    judged_fouls,
    objects_off_table,
    objects_potted,
    rail_after_contact,
    replay_rack,
)
from cuelog.schemas.records import Choice, Event, Frame, FrameEnd, FrameRecord, Match, Stroke, other

Step: TypeAlias = tuple["State", Outcome | None, list[Finding]]

NINE: Final = "9"
BALLS: Final = tuple(str(i) for i in range(1, 10))
EDITIONS: Final[dict[str, str]] = {"wpa": "WPA nine ball (seed 000 section 2)"}
editions: Final[dict[str, str]] = EDITIONS
"""One edition; the engine interface's name for it (cuelog/replay/engine.py)."""
PUSH_CHOICES: Final = frozenset({"play", "return"})
"""After a push out the other player shoots (``play``) or hands it back (``return``), WPA 2.4."""


@dataclass(slots=True)
class State:
    """The rack between records. ``apply`` copies it; nothing mutates an input."""

    match: Match
    frame: int
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
        c = State(self.match, self.frame, set(self.table), self.breaker)
        for name in _SCALARS:
            setattr(c, name, getattr(self, name))
        c.ledger = self.ledger.copy()
        c.fouls = dict(self.fouls)
        return c

    def lowest(self) -> str | None:
        return min(self.table, key=int) if self.table else None


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
    return State(match, frame.frame, set(BALLS), breaker, striker=breaker)


# -- strokes -----------------------------------------------------------------------------


def apply(state: State, record: FrameRecord) -> Step:
    """Fold one record into a copy of ``state``: ``(new state, due call or None, findings)``."""
    st = state.copy()
    outcome, findings = _fold(st, record)
    return st, outcome, findings


def _fold(st: State, record: FrameRecord) -> tuple[Outcome | None, list[Finding]]:
    if isinstance(record, Stroke):
        return _stroke(st, record)
    if isinstance(record, Choice):
        return None, _choice(st, record)
    if isinstance(record, Event):
        return None, _event(st, record)
    if isinstance(record, FrameEnd):
        return None, _frame_end(st, record)
    return None, []


def _stroke(st: State, s: Stroke) -> tuple[Outcome | None, list[Finding]]:
    F: list[Finding] = []
    if st.over:
        st.last_n = s.n
        return None, _played_on(st, s)
    if st.striker is not None and s.striker != st.striker:
        F.append(
            _finding(s.n, WRONG_STRIKER, "WPA 6.13", s.striker, f"stroke played by {s.striker}, {st.striker} was due")
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
            _finding(s.n, PUSH_OUT_ERROR, "WPA 2.4", s.striker, "push out allowed only on the shot after the break")
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
            if objects is not None and objects < 4:
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
    third = bool(fouls) and st.fouls[side] >= 2 and side in st.warned
    due = Due(fouls=tuple(fouls), in_hand="anywhere" if fouls else None, loss_of_frame=third, loss_rule="WPA 6.14")
    if third:
        lost = compare_loss(s.n, side, due, s.call, "WPA 2.8")
        st.end_reported = bool(lost)
        F.extend(lost)
        _end(st, other(side), "loss_of_frame", s.n, "WPA 6.14")
        return _outcome(st, s, due, (), lowest, breaking=breaking)
    F.extend(compare_call(s.n, side, due, s.call, BALL_IN_HAND, "WPA 2.7"))
    F.extend(compare_loss(s.n, side, due, s.call, "WPA 2.8"))
    nine = NINE in s.potted
    if nine and not fouls and not push:
        _end(st, side, "pot", s.n, "WPA 2.5")  # a legal 9 wins on any shot, the break included
        return _outcome(st, s, due, (), lowest, breaking=breaking)
    spots = (NINE,) if NINE in s.potted or NINE in (s.off_table or []) else ()
    F.extend(check_respots(s.n, list(spots), s.respots, "WPA 2.6"))
    for r in s.respots or []:
        if r.ball != CUE:
            st.table.add(r.ball)
    _next_turn(st, s, fouls, push=push, breaking=breaking)
    return _outcome(st, s, due, spots, lowest, breaking=breaking)


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
    st.push_allowed = breaking and not called  # WPA 2.4: the shot after a break without a foul
    if push and not called:
        st.pusher, st.striker = side, other(side)  # WPA 2.4: the other player chooses
        st.ledger.end_visit()
        return
    if not called and objects_potted(s):
        st.striker = side
        return
    st.ledger.end_visit()
    st.striker = other(side)


def _outcome(st: State, s: Stroke, due: Due, spots: Sequence[str], lowest: str | None, *, breaking: bool) -> Outcome:
    """The due call; ``ball_on`` is the lowest ball, or ``break`` on a break shot."""
    balls = 0 if due.foul or s.push_out else len(objects_potted(s))
    return Outcome(
        n=s.n,
        striker=s.striker,
        scored=balls,
        penalty=0,
        foul=due.foul,
        reasons=tuple(f.code for f in due.fouls),
        ball_on="break" if breaking else lowest,
        respots=tuple((b, FOOT) for b in spots),
        turn_ends=st.over or st.striker != s.striker,
        next_striker=None if st.over else st.striker,
        score=_rack_score(st),
        visit_id=st.ledger.visit_id,
        frame_over=st.over,
        winner=st.winner,
        visits=1 if due.foul else 0,
        in_hand=due.in_hand,
        loss_of_frame=due.loss_of_frame,
    )


def _rack_score(st: State) -> tuple[int, int]:
    return (1, 0) if st.winner == "A" else (0, 1) if st.winner == "B" else (0, 0)


def _end(st: State, winner: str | None, reason: str, n: int, rule: str) -> None:
    st.over, st.winner, st.end_reason, st.end_n, st.end_rule = True, winner, reason, n, rule
    st.ledger.close()


def _finding(n: int, kind: str, rule: str, side: str | None, message: str) -> Finding:
    return Finding(n=n, kind=kind, rule=rule, side=side, points=0, message=message)


def _played_on(st: State, s: Stroke) -> list[Finding]:
    if st.end_reported:
        return []
    st.end_reported = True
    why = (st.end_reason or "").replace("_", " ")
    return [
        _finding(
            st.end_n,
            FRAME_END_ERROR,
            st.end_rule,
            st.winner,
            f"the rules end the rack at stroke {st.end_n} ({why}, to {st.winner}), but play went on (stroke {s.n})",
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
    if e.kind == "warning" and e.side is not None and st.fouls[e.side] >= 2:
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
            _finding(st.last_n, FRAME_END_ERROR, "WPA 2.5", fe.winner, f"rack recorded as ended ({why}), still in play")
        ]
    if fe.winner is None or fe.winner == st.winner or st.end_reported:
        return []
    st.end_reported = True
    why = (st.end_reason or "").replace("_", " ")
    return [
        _finding(
            st.end_n,
            FRAME_END_ERROR,
            st.end_rule,
            fe.winner,
            f"rack recorded to {fe.winner}, the rules give {st.winner} ({why})",
        )
    ]


def replay_frame(
    match: Match, frame: Frame, records: Sequence[FrameRecord], previous: FrameResult | None
) -> FrameResult:
    """Replay one rack and return its result (docs/format.md section 7)."""
    return replay_rack(new_frame(match, frame, previous), records, _fold, finish)


def finish(state: State) -> FrameResult:
    """The rack's result: 1-0 to its winner, visits per side."""
    ledger = state.ledger.copy()
    ledger.close()
    return FrameResult(
        frame=state.frame,
        score=_rack_score(state),
        recorded=state.recorded,
        winner=state.winner,
        visits=(ledger.visits[0], ledger.visits[1]),
        recorded_winner=state.recorded_winner,
        end_reason=state.end_reason,
        breaker=state.breaker,
    )
