"""14.1 continuous (straight pool) under the WPA rules (seed 000 sections 4 and 6).

The one pool game scored in points: a point per legally pocketed called ball and one per
other ball pocketed on that shot (WPA 4.7); a standard foul costs one point (4.9), a
breaking foul two (4.10), the third consecutive foul one and fifteen more (4.11). The game
goes to the match's ``target``. Every point goes through the shared :class:`Ledger`, so a
scoreboard error is a ``score_mismatch`` once, on the stroke that made it, and a foul
called for the wrong number of points a ``penalty_value``.

In the :class:`Outcome`, ``scored`` is the points pocketed and ``penalty`` the points the
foul takes off the striker's own score (not given to the opponent, as in snooker).
Not modelled: where 4.8(b)-(d) put the cue ball and the fifteenth ball when they
interfere with the rack (no fact of cuelog/1 places them against the rack outline; the
balls in play are the same either way); 6.11's second paragraph.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from cuelog.replay.common import alternating_breaker, check_choice
from cuelog.replay.ledger import Ledger
from cuelog.replay.model import (
    CONDONED_FOUL,
    FRAME_END_ERROR,
    PENALTY_VALUE,
    UNSUPPORTED_FOUL,
    WRONG_STRIKER,
    Finding,
    FrameResult,
    Outcome,
)
from cuelog.replay.pool.common import (
    CUE,
    FOOT,
    JUDGED,
    Foul,
    called_foul,
    check_respots,
    cue_scratched,
    describe,
    judged_fouls,
    objects_off_table,
    objects_potted,
    pocket_of,
    rail_after_contact,
    replay_rack,
)
from cuelog.schemas.records import Choice, Event, Frame, FrameEnd, FrameRecord, Match, Stroke, other

Step: TypeAlias = tuple["State", Outcome | None, list[Finding]]

BALLS: Final = tuple(str(i) for i in range(1, 16))
EDITIONS: Final[dict[str, str]] = {"wpa": "WPA 14.1 continuous (seed 000 section 4)"}
editions: Final[dict[str, str]] = EDITIONS
"""One edition; the engine interface's name for it (cuelog/replay/engine.py)."""
STANDARD: Final = 1
"""A standard foul costs one point (WPA 4.9)."""
BREAKING: Final = 2
"""A breaking foul costs two points (WPA 4.3(b), 4.10)."""
SERIOUS: Final = 15
"""The third consecutive standard foul costs fifteen more (WPA 4.11)."""
BREAK_CHOICES: Final = frozenset({"accept", "play", "rerack_opponent"})
"""After a breaking foul: accept the table, or the breaker breaks again (WPA 4.3(b))."""


@dataclass(slots=True)
class State:
    """The game between records. ``apply`` copies it; nothing mutates an input."""

    match: Match
    frame: int
    table: set[str]
    breaker: str | None
    target: int | None
    striker: str | None = None
    ledger: Ledger = field(default_factory=Ledger)
    opening: bool = True
    """The next stroke is an opening break (WPA 4.3)."""
    break_fouler: str | None = None
    """The breaker after a breaking foul, while the opponent may ask for a re-break."""
    fouls: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    warned: frozenset[str] = frozenset()
    last_n: int = 0
    over: bool = False
    winner: str | None = None
    end_reason: str | None = None
    end_n: int = 0
    end_reported: bool = False
    recorded_winner: str | None = None
    """The winner the ``frame_end`` record gives (``None`` before it)."""

    def copy(self) -> State:
        c = State(self.match, self.frame, set(self.table), self.breaker, self.target)
        for name in _SCALARS:
            setattr(c, name, getattr(self, name))
        c.ledger = self.ledger.copy()
        c.fouls = dict(self.fouls)
        return c


_SCALARS: Final = (
    "striker", "opening", "break_fouler", "warned", "last_n", "over", "winner", "end_reason", "end_n", "end_reported",
    "recorded_winner",
)  # fmt: skip


def new_frame(match: Match, frame: Frame, previous: FrameResult | None = None) -> State:
    """Fifteen balls racked, the breaker in hand behind the head string (WPA 4.2, 4.3(a))."""
    breaker = alternating_breaker(frame, previous)
    return State(match, frame.frame, set(BALLS), breaker, match.target, striker=breaker)


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


# -- strokes -----------------------------------------------------------------------------


def _stroke(st: State, s: Stroke) -> tuple[Outcome | None, list[Finding]]:
    F: list[Finding] = []
    if st.over:
        return None, _played_on(st, s)
    if st.striker is not None and s.striker != st.striker:
        F.append(_finding(s.n, WRONG_STRIKER, "WPA 6.13", s.striker, 0, f"played by {s.striker}, {st.striker} was due"))
    st.last_n, st.break_fouler = s.n, None
    opening, st.opening = st.opening, False
    fouls = _fouls(s, opening=opening)
    called = called_foul(s.call)
    # Calls as made (WPA 6): a foul nobody called "is assumed not to have happened".
    continues = _called_ball_pocketed(s) and not called
    points = len(objects_potted(s)) if continues else 0
    penalty, serious = _penalty(st, s.striker, fouls)
    F.extend(_compare(st, s, fouls, penalty))
    spots = sorted(set(([] if continues else objects_potted(s)) + objects_off_table(s)), key=int)
    F.extend(check_respots(s.n, spots, s.respots, "WPA 4.6"))
    _move_balls(st, s)
    booked = points - (penalty if called and fouls else 0)
    mismatch = st.ledger.stroke(
        s.n, s.striker, booked, 0, s.score, explained=_explained(F), break_points=points, rule="WPA 4.7"
    )
    if mismatch is not None:
        F.append(mismatch)
    _next_turn(st, s, fouls, continues=continues, opening=opening, serious=serious)
    _check_target(st, s.n)
    due_points = points if not fouls else 0
    return _outcome(st, s, fouls, due_points, penalty, spots, credited=booked), F


def _fouls(s: Stroke, *, opening: bool) -> list[Foul]:
    """WPA 4.9's standard fouls (6.2 does not apply: any ball may be hit) and the breaking
    foul of 4.3(b), which takes the place of any standard foul on the break (4.10)."""
    fouls: list[Foul] = []
    if s.placement == "illegal":
        fouls.append(Foul("placement", "WPA 6.10"))
    if cue_scratched(s):
        fouls.append(Foul("in_off" if CUE in s.potted else "cue_off_table", "WPA 6.1"))
    if not s.first:
        fouls.append(Foul("no_contact", "WPA 6.3"))
    elif not objects_potted(s) and rail_after_contact(s.cushions) is False and not opening:
        fouls.append(Foul("no_rail", "WPA 6.3"))
    if objects_off_table(s):
        fouls.append(Foul("ball_off_table", "WPA 6.5"))
    fouls.extend(judged_fouls(s, JUDGED))
    if opening and not _called_ball_pocketed(s):
        objects = s.cushions.objects if s.cushions is not None else None
        if fouls or (objects is not None and objects < 2):
            return [Foul("breaking_foul", "WPA 4.3(b)")]
    return fouls


def _called_ball_pocketed(s: Stroke) -> bool:
    """WPA 4.5, 1.6: the called ball pocketed in the called pocket (a safety pockets nothing).
    An uncalled shot (``nominated`` absent) is taken as called (FORMAT 1.2)."""
    if s.nominated == "safety":
        return False
    if s.nominated is None:
        return bool(objects_potted(s))
    if s.nominated not in s.potted:
        return False
    pocket = pocket_of(s, s.nominated)
    return pocket is None or s.pocket_called is None or pocket == s.pocket_called


def _penalty(st: State, side: str, fouls: list[Foul]) -> tuple[int, bool]:
    """Points the foul costs: 2 for a breaking foul, 1 for a standard foul, 16 for the third
    consecutive standard foul after the warning (WPA 4.9-4.11, 6.14)."""
    if not fouls:
        return 0, False
    if fouls[0].code == "breaking_foul":
        return BREAKING, False
    third = st.fouls[side] >= 2 and side in st.warned
    return (STANDARD + SERIOUS, True) if third else (STANDARD, False)


def _compare(st: State, s: Stroke, fouls: list[Foul], penalty: int) -> list[Finding]:
    """The recorded call against the due one: missed, invented, or the wrong points."""
    call = s.call
    if fouls and not called_foul(call):
        msg = f"{describe(fouls[0].code)}: foul not called (worth {penalty}), condoned"
        return [_finding(s.n, CONDONED_FOUL, fouls[0].rule, s.striker, penalty, msg)]
    if not fouls and called_foul(call):
        return [_finding(s.n, UNSUPPORTED_FOUL, "WPA 4.9", s.striker, 0, "foul called but the facts show none")]
    if fouls and call is not None and call.points is not None and call.points != penalty:
        msg = f"{describe(fouls[0].code)}: {call.points} point(s) taken off, the rules take {penalty}"
        return [_finding(s.n, PENALTY_VALUE, fouls[0].rule, s.striker, abs(call.points - penalty), msg)]
    return []


def _explained(findings: list[Finding]) -> bool:
    return any(f.kind in (PENALTY_VALUE, CONDONED_FOUL, UNSUPPORTED_FOUL) for f in findings)


def _move_balls(st: State, s: Stroke) -> None:
    """Pocketed and jumped balls leave the table; the referee's respots come back (the table
    follows the referee)."""
    for b in objects_potted(s) + objects_off_table(s):
        st.table.discard(b)
    for r in s.respots or []:
        if r.ball != CUE:
            st.table.add(r.ball)


def _next_turn(st: State, s: Stroke, fouls: list[Foul], *, continues: bool, opening: bool, serious: bool) -> None:
    """WPA 4.4: a legal called pot continues, the fourteenth re-racks; 4.9: a foul passes the
    turn; 4.11: after the third foul the offender breaks a new rack. Calls as made (WPA 6)."""
    side = s.striker
    called = called_foul(s.call)
    if called and fouls and fouls[0].code != "breaking_foul":
        st.fouls[side] += 1
    elif not called:
        st.fouls[side], st.warned = 0, st.warned - {side}
    if serious and called:
        st.fouls[side], st.warned = 0, st.warned - {side}
        st.table, st.opening, st.striker = set(BALLS), True, side
        st.ledger.end_visit()
        return
    if opening and called and fouls:
        st.break_fouler = side  # WPA 4.3(b): the opponent accepts or has him break again
    if continues:
        if len(st.table) <= 1:
            # WPA 4.4: fourteen pocketed, re-racked, the shooter continues; 4.8(a): the
            # fifteenth pocketed with the fourteenth, all fifteen re-racked.
            st.table = set(BALLS)
        st.striker = side
        return
    st.ledger.end_visit()
    st.striker = other(side)


def _check_target(st: State, n: int) -> None:
    """The first to the match's target wins (WPA 4)."""
    if st.target is None or st.over:
        return
    for i, side in enumerate(("A", "B")):
        if st.ledger.official[i] >= st.target:
            st.over, st.winner, st.end_reason, st.end_n = True, side, "target", n
            st.ledger.close()


def _outcome(
    st: State, s: Stroke, fouls: list[Foul], points: int, penalty: int, spots: Sequence[str], *, credited: int
) -> Outcome:
    return Outcome(
        n=s.n,
        striker=s.striker,
        scored=points,
        penalty=penalty,
        foul=bool(fouls),
        reasons=tuple(f.code for f in fouls),
        respots=tuple((b, FOOT) for b in spots),
        turn_ends=st.over or st.striker != s.striker,
        next_striker=None if st.over else st.striker,
        score=st.ledger.score(),
        visit_id=st.ledger.visit_id,
        frame_over=st.over,
        winner=st.winner,
        credited=credited,
        in_hand="head" if cue_scratched(s) else None,
    )


def _finding(n: int, kind: str, rule: str, side: str | None, points: int, message: str) -> Finding:
    return Finding(n=n, kind=kind, rule=rule, side=side, points=points, message=message)


def _played_on(st: State, s: Stroke) -> list[Finding]:
    if st.end_reported:
        return []
    st.end_reported = True
    msg = f"{st.winner} reached {st.target} at stroke {st.end_n}, but play went on (stroke {s.n})"
    return [_finding(st.end_n, FRAME_END_ERROR, "WPA 4", st.winner, 0, msg)]


# -- other records -----------------------------------------------------------------------


def _choice(st: State, c: Choice) -> list[Finding]:
    """After a breaking foul: accept the table, or have the breaker break again (WPA 4.3(b))."""
    entitled = other(st.break_fouler) if st.break_fouler is not None else None
    bad = check_choice(c, entitled, BREAK_CHOICES, "WPA 4.3(b)")
    if bad is not None:
        return [bad]
    assert st.break_fouler is not None
    if c.option == "rerack_opponent":
        st.table, st.opening, st.striker = set(BALLS), True, st.break_fouler
    st.break_fouler = None
    return []


def _event(st: State, e: Event) -> list[Finding]:
    if e.kind == "warning" and e.side is not None and st.fouls[e.side] >= 2:
        st.warned = st.warned | {e.side}  # WPA 6.14
    elif e.kind == "rerack":
        st.table, st.opening = set(BALLS), True  # WPA 4.12: a new opening break after the lag
        st.striker = e.side or st.striker
    elif e.kind == "spot_correction" and e.ball is not None:
        if e.remove:
            st.table.discard(e.ball)
        else:
            st.table.add(e.ball)
    elif e.kind == "concede" and e.side is not None and not st.over:
        st.over, st.winner, st.end_reason, st.end_n = True, other(e.side), "concede", e.after
    return []


def _frame_end(st: State, fe: FrameEnd) -> list[Finding]:
    st.recorded_winner = fe.winner
    F: list[Finding] = []
    mismatch = st.ledger.check(st.last_n, None, fe.score, rule="WPA 4.7")
    if mismatch is not None:
        F.append(mismatch)
    if not st.over:
        if fe.reason in ("concede", "award") and fe.winner is not None:
            st.over, st.winner, st.end_reason, st.end_n = True, fe.winner, fe.reason, st.last_n
            return F
        st.end_reported = True
        msg = f"game recorded as ended ({fe.reason or 'no reason'}) before either side reached {st.target}"
        return [*F, _finding(st.last_n, FRAME_END_ERROR, "WPA 4", fe.winner, 0, msg)]
    if fe.winner is not None and fe.winner != st.winner and not st.end_reported:
        st.end_reported = True
        msg = f"game recorded to {fe.winner}, the rules give it to {st.winner} ({st.end_reason})"
        F.append(_finding(st.end_n, FRAME_END_ERROR, "WPA 4", fe.winner, 0, msg))
    return F


def replay_frame(
    match: Match, frame: Frame, records: Sequence[FrameRecord], previous: FrameResult | None
) -> FrameResult:
    """Replay one game and return its result (docs/format.md section 7)."""
    return replay_rack(new_frame(match, frame, previous), records, _fold, finish)


def finish(state: State) -> FrameResult:
    """The game's result: the points, the runs (``breaks``: balls in one inning), visits."""
    ledger = state.ledger.copy()
    ledger.close()
    recorded = ledger.recorded
    return FrameResult(
        frame=state.frame,
        score=ledger.score(),
        recorded=(recorded[0], recorded[1]) if recorded is not None else None,
        winner=state.winner,
        breaks=list(ledger.breaks),
        visits=(ledger.visits[0], ledger.visits[1]),
        recorded_winner=state.recorded_winner,
        end_reason=state.end_reason,
        breaker=state.breaker,
    )
