"""14.1 continuous (straight pool) under the WPA rules (seed 000 sections 4 and 6).

The one pool game scored in points: a point per legally pocketed called ball and one per
other ball pocketed on that shot (WPA 4.7); a standard foul costs one point (4.9), a
breaking foul two (4.10), the third consecutive foul one and fifteen more (4.11). The game
goes to the match's ``target``. Every point goes through the shared :class:`Ledger`, so a
scoreboard error is a ``score_mismatch`` once, on the stroke that made it, and a foul
called for the wrong number of points a ``penalty_value``.

In the :class:`Outcome`, ``scored`` is the points pocketed and ``penalty`` the points the
foul takes off the striker's own score (not given to the opponent, as in snooker). The
numbers of these rules are the :class:`Edition`'s parameters, so a ruleset file can change
them. The re-rack when the cue ball or the fifteenth ball is in the way (4.8) is in
:mod:`cuelog.replay.pool.rerack`.
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
    VISITS_ERROR,
    WRONG_STRIKER,
    Finding,
    FrameResult,
    Outcome,
)
from cuelog.replay.pool import rerack
from cuelog.replay.pool.common import (
    CUE,
    HEAD_STRING,
    JUDGED,
    Foul,
    Handlers,
    called_foul,
    check_respots,
    cue_scratched,
    describe,
    foot_spots,
    foul_codes,
    judged_fouls,
    objects_off_table,
    objects_potted,
    pocket_of,
    rail_after_contact,
    replay_rack,
)
from cuelog.replay.pool.straight_pool_editions import Edition
from cuelog.replay.pool.table import Table
from cuelog.schemas.records import Choice, Event, Frame, FrameEnd, FrameRecord, Match, Stroke, other

Step: TypeAlias = tuple["State", Outcome | None, list[Finding]]

BALLS: Final = tuple(str(i) for i in range(1, 16))


EDITIONS: Final[dict[str, Edition]] = {"wpa": Edition("wpa")}
editions: Final[dict[str, Edition]] = EDITIONS
"""The engine interface's name for the editions (cuelog/replay/engine.py)."""


def edition_of(rules: str) -> Edition:
    return EDITIONS[rules.split("/", 1)[1]]


FOULS: Final[dict[str, str]] = {**JUDGED, **HEAD_STRING}
"""The referee-judged infringements that are standard fouls at 14.1 (``infringements``)."""
BREAK_CHOICES: Final = frozenset({"accept", "play", "rerack_opponent"})
"""After a breaking foul: accept the table, or the breaker breaks again (WPA 4.3(b))."""


@dataclass(slots=True)
class State:
    """The game between records. ``apply`` copies it; nothing mutates an input."""

    match: Match
    frame: int
    ed: Edition
    table: set[str]
    breaker: str | None
    target: int | None
    striker: str | None = None
    ledger: Ledger = field(default_factory=Ledger)
    opening: bool = True
    """The next stroke is an opening break (WPA 4.3)."""
    in_hand: bool = True
    """The cue ball is in hand behind the head string for the next stroke (WPA 4.3(a), 6.1,
    6.11, 4.8(b),(d))."""
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
        c = State(self.match, self.frame, self.ed, set(self.table), self.breaker, self.target)
        for name in _SCALARS:
            setattr(c, name, getattr(self, name))
        c.ledger = self.ledger.copy()
        c.fouls = dict(self.fouls)
        return c


_SCALARS: Final = (
    "striker", "opening", "in_hand", "break_fouler", "warned", "last_n", "over", "winner", "end_reason", "end_n", "end_reported",
    "recorded_winner",
)  # fmt: skip


def new_frame(match: Match, frame: Frame, previous: FrameResult | None = None) -> State:
    """Fifteen balls racked, the breaker in hand behind the head string (WPA 4.2, 4.3(a))."""
    breaker = alternating_breaker(frame, previous)
    ed = edition_of(match.rules)
    target = match.target if match.target is not None else ed.target
    return State(match, frame.frame, ed, set(BALLS), breaker, target, striker=breaker)


def apply(state: State, record: FrameRecord) -> Step:
    """Fold one record into a copy of ``state``: ``(new state, due call or None, findings)``."""
    return _RECORDS.apply(state, record)


# -- strokes -----------------------------------------------------------------------------


def _stroke(st: State, s: Stroke) -> tuple[Outcome | None, list[Finding]]:
    F: list[Finding] = []
    if st.over:
        return None, _played_on(st, s)
    if st.striker is not None and s.striker != st.striker:
        F.append(
            Finding(
                n=s.n,
                kind=WRONG_STRIKER,
                rule="WPA 6.13",
                side=s.striker,
                points=0,
                message=f"played by {s.striker}, {st.striker} was due",
            )
        )
    st.last_n, st.break_fouler = s.n, None
    opening, st.opening = st.opening, False
    fouls = _fouls(st.ed, s, opening=opening)
    called = called_foul(s.call)
    # Calls as made (WPA 6): a foul nobody called "is assumed not to have happened".
    continues = _called_ball_pocketed(s) and not called
    points = len(objects_potted(s)) if continues else 0
    penalty, serious = _penalty(st, s.striker, fouls)
    # WPA 4.11: after the serious foul the offender breaks, from in hand behind the head string (4.3(a)).
    in_hand = serious or _in_hand_after(fouls)
    F.extend(_compare(st, s, fouls, penalty, in_hand=in_hand))
    to_spot = ([] if continues else objects_potted(s)) + objects_off_table(s)
    spots = sorted(set(to_spot), key=int) if to_spot else []
    rr = _rerack(st, s) if continues else None
    respots = s.respots
    if rr is not None:
        placed, respots = rerack.compare(s.n, rr, s.respots)
        F.extend(placed)
        in_hand = rr.in_hand
    F.extend(check_respots(s.n, spots, respots, "WPA 4.6"))
    _move_balls(st, s)
    booked = points - (penalty if called and fouls else 0)
    mismatch = st.ledger.stroke(
        s.n, s.striker, booked, 0, s.score, explained=_explained(F), break_points=points, rule="WPA 4.7"
    )
    if mismatch is not None:
        F.append(mismatch)
    _next_turn(st, s, fouls, continues=continues, opening=opening, serious=serious, rerack=rr is not None)
    st.in_hand = st.opening or (in_hand and (called or rr is not None))
    _check_target(st, s.n)
    due_points = points if not fouls else 0
    placed_due = rr.placed if rr is not None else ()
    return _outcome(st, s, fouls, due_points, penalty, spots, placed_due, credited=booked, in_hand=in_hand), F


def _rerack(st: State, s: Stroke) -> rerack.Rerack | None:
    """WPA 4.4: the fourteenth ball of the rack legally pocketed: the re-rack, with where 4.8
    puts the fifteenth ball (``None`` when it went down too) and the cue ball."""
    pots = objects_potted(s)
    if len(st.table) > len(pots) + 1:
        return None  # more than one ball stays on the table whatever went down (most strokes)
    left = st.table - set(pots)
    if len(left) > 1:
        return None
    return rerack.due(Table.of(st.match.table_mm), next(iter(left), None), s.positions)


# The fouls after which the incoming player has the cue ball in hand behind the head
# string (WPA 4.9: 6.1, and "a foul under the second paragraph of 6.11").
_TO_HEAD: Final = frozenset({"in_off", "cue_off_table", "head_string_not_crossed"})


def _in_hand_after(fouls: list[Foul]) -> bool:
    return any(f.code in _TO_HEAD for f in fouls)


def _fouls(ed: Edition, s: Stroke, *, opening: bool) -> list[Foul]:
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
    fouls.extend(judged_fouls(s, FOULS))
    if opening and not _called_ball_pocketed(s):
        objects = s.cushions.objects if s.cushions is not None else None
        if fouls or (objects is not None and objects < ed.break_rails):
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
    """Points the foul costs: a breaking foul's, a standard foul's, and the serious foul's
    additional penalty on the third consecutive standard foul after the warning (WPA
    4.9-4.11, 6.14)."""
    ed = st.ed
    if not fouls:
        return 0, False
    if fouls[0].code == "breaking_foul":
        return ed.breaking_foul, False
    warned = side in st.warned or not ed.warning_required
    third = st.fouls[side] >= ed.serious_fouls - 1 and warned
    return (ed.standard_foul + ed.serious_penalty, True) if third else (ed.standard_foul, False)


def _compare(st: State, s: Stroke, fouls: list[Foul], penalty: int, *, in_hand: bool) -> list[Finding]:
    """The recorded call against the due one: missed, invented, the wrong points, the cue
    ball in hand or not (WPA 4.9: in position except after 6.1 and 6.11's second paragraph)."""
    call = s.call
    if fouls and not called_foul(call):
        msg = f"{describe(fouls[0].code)}: foul not called (worth {penalty}), condoned"
        return [Finding(n=s.n, kind=CONDONED_FOUL, rule=fouls[0].rule, side=s.striker, points=penalty, message=msg)]
    if not fouls and called_foul(call):
        return [
            Finding(
                n=s.n,
                kind=UNSUPPORTED_FOUL,
                rule="WPA 4.9",
                side=s.striker,
                points=0,
                message="foul called but the facts show none",
            )
        ]
    if not fouls or call is None:
        return []
    if call.points is not None and call.points != penalty:
        msg = f"{describe(fouls[0].code)}: {call.points} point(s) taken off, the rules take {penalty}"
        return [
            Finding(
                n=s.n,
                kind=PENALTY_VALUE,
                rule=fouls[0].rule,
                side=s.striker,
                points=abs(call.points - penalty),
                message=msg,
            )
        ]
    if fouls[0].code == "breaking_foul":
        return []  # 4.3(b): the non-breaker's choice decides where the cue ball is played from
    if call.ball_in_hand is not None and call.ball_in_hand != in_hand:
        want = "in hand behind the head string" if in_hand else "where it lies"
        msg = f"{describe(fouls[0].code)}: cue ball {'in hand' if call.ball_in_hand else 'in position'}, the rules give it {want}"
        return [Finding(n=s.n, kind=VISITS_ERROR, rule="WPA 4.9", side=s.striker, points=0, message=msg)]
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


def _next_turn(
    st: State, s: Stroke, fouls: list[Foul], *, continues: bool, opening: bool, serious: bool, rerack: bool
) -> None:
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
        if rerack:
            # WPA 4.4: fourteen pocketed, re-racked, the shooter continues; 4.8: the fifteenth
            # ball re-racked with them, spotted, or left where it lies.
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
    st: State,
    s: Stroke,
    fouls: list[Foul],
    points: int,
    penalty: int,
    spots: Sequence[str],
    placed: Sequence[tuple[str, str]],
    *,
    credited: int,
    in_hand: bool,
) -> Outcome:
    # Positional, in Outcome's field order, each field named beside it: the hot loop, where
    # msgspec reads keyword arguments name by name (about 1 us a stroke against 0.15 us).
    return Outcome(
        s.n,  # n
        s.striker,  # striker
        points,  # scored
        penalty,  # penalty
        bool(fouls),  # foul
        foul_codes(fouls),  # reasons
        None,  # ball_on
        False,  # miss
        False,  # free_ball
        foot_spots(spots) + tuple(placed),  # respots
        st.over or st.striker != s.striker,  # turn_ends
        None if st.over else st.striker,  # next_striker
        st.ledger.score(),  # score
        None,  # break_id
        st.ledger.visit_id,  # visit_id
        st.over,  # frame_over
        st.winner,  # winner
        credited,  # credited
        (),  # detail
        0,  # visits
        "head" if in_hand or cue_scratched(s) else None,  # in_hand
        False,  # loss_of_frame
    )


def _played_on(st: State, s: Stroke) -> list[Finding]:
    if st.end_reported:
        return []
    st.end_reported = True
    msg = f"{st.winner} reached {st.target} at stroke {st.end_n}, but play went on (stroke {s.n})"
    return [Finding(n=st.end_n, kind=FRAME_END_ERROR, rule="WPA 4", side=st.winner, points=0, message=msg)]


# -- other records -----------------------------------------------------------------------


def _choice(st: State, c: Choice) -> list[Finding]:
    """After a breaking foul: accept the table, or have the breaker break again (WPA 4.3(b))."""
    entitled = other(st.break_fouler) if st.break_fouler is not None else None
    bad = check_choice(c, entitled, BREAK_CHOICES, "WPA 4.3(b)")
    if bad is not None:
        return [bad]
    assert st.break_fouler is not None
    if c.option == "rerack_opponent":
        st.table, st.opening, st.striker, st.in_hand = set(BALLS), True, st.break_fouler, True
    st.break_fouler = None
    return []


def _event(st: State, e: Event) -> list[Finding]:
    if e.kind == "warning" and e.side is not None and st.fouls[e.side] >= st.ed.serious_fouls - 1:
        st.warned = st.warned | {e.side}  # WPA 6.14
    elif e.kind == "rerack":
        st.table, st.opening, st.in_hand = set(BALLS), True, True  # WPA 4.12: a new opening break after the lag
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
        return [*F, Finding(n=st.last_n, kind=FRAME_END_ERROR, rule="WPA 4", side=fe.winner, points=0, message=msg)]
    if fe.winner is not None and fe.winner != st.winner and not st.end_reported:
        st.end_reported = True
        msg = f"game recorded to {fe.winner}, the rules give it to {st.winner} ({st.end_reason})"
        F.append(Finding(n=st.end_n, kind=FRAME_END_ERROR, rule="WPA 4", side=fe.winner, points=0, message=msg))
    return F


_RECORDS: Final = Handlers(stroke=_stroke, choice=_choice, event=_event, frame_end=_frame_end)
"""What the game does with each kind of record (the fold every pool engine shares)."""


def replay_frame(
    match: Match, frame: Frame, records: Sequence[FrameRecord], previous: FrameResult | None
) -> FrameResult:
    """Replay one game and return its result (docs/format.md section 7)."""
    return replay_rack(new_frame(match, frame, previous), records, _RECORDS, finish)


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
