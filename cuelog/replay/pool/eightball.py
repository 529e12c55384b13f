"""The eight-ball family: World Eight Ball 2015 (seed 003), WEPF (seed 004), WPA eight
ball and WPA black ball (seed 000 sections 3 and 5).

The engine is a pure fold like the snooker and billiards engines: ``new_frame`` gives the
rack at the break, ``apply(state, record)`` returns a new state, the due call of a stroke
(an :class:`Outcome`) and the findings of that record, ``finish`` the rack's result.

The four editions are :class:`Edition` records (each field names its rule) plus a few
hooks where the books are built differently: how a break is judged and what follows a
bad one, how groups are decided, what loses the frame, what the incoming player gets
after a foul. What the games share is in :mod:`cuelog.replay.pool.common`.

Pool frames have no points: the frame's ``score`` is the rack, 1-0 to its winner, and
the recorded scoreboard is shown as kept but not compared (``docs/pool.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from cuelog.replay.common import alternating_breaker, check_choice
from cuelog.replay.ledger import Ledger
from cuelog.replay.model import (
    FRAME_END_ERROR,
    GROUP_ERROR,
    INVALID_RECORD,
    TIME_FOUL_ERROR,
    TIME_FOUL_UNCALLED,
    WRONG_STRIKER,
    Finding,
    FrameResult,
    Outcome,
)
from cuelog.replay.pool.common import (
    BALL_IN_HAND,
    CUE,
    FREE_SHOT,
    HEAD_STRING,
    JUDGED,
    TABLE_MM,
    TWO_VISITS,
    Due,
    Foul,
    Handlers,
    called_foul,
    can_hit,
    check_respots,
    compare_call,
    compare_loss,
    cue_scratched,
    fine_cuts,
    foot_spots,
    judged_fouls,
    objects_off_table,
    objects_potted,
    pocket_of,
    rack_result,
    rack_score,
    rail_after_contact,
    replay_rack,
    spot_order,
)
from cuelog.replay.pool.eightball_editions import Edition
from cuelog.schemas.records import Choice, Clock, Event, Frame, FrameEnd, FrameRecord, Match, Stroke, other

Step: TypeAlias = tuple["State", Outcome | None, list[Finding]]

SOLIDS: Final = tuple(str(i) for i in range(1, 8))
STRIPES: Final = tuple(str(i) for i in range(9, 16))


def _cites(p: str, **rules: str) -> dict[str, str]:
    return {k: f"{p} {v}" for k, v in rules.items()}


_WE_CITES: Final = dict(
    break_="F(4)(a)",
    bad_break="F(4)(b)",
    black_break="F(5)",
    break_in_off="F(4)(c)(i)",
    no_contact="G(1)(a)",
    wrong_ball_first="G(1)(a)",
    no_rail="G(1)(b)",
    in_off="K(1)",
    cue_off_table="S(3)(a)",
    ball_off_table="S(1)",
    opponent_ball="K(3)",
    placement="K(2)",
    no_nomination="K(14)",
    penalty="K",
    loss_foul="M(1)",
    loss_early="M(2)",
    loss_last="M(3)",
    foul_snooker_black="P(5)",
    spot="S(2)(e)",
    groups="H",
    groups_break="H(2)",
    win="D(1)",
    time="I(4)",
    stalemate="W",
    turn="C(5)",
    out_of_turn="K(4)",
    end="C(7)",
)
_WE_FOULS: Final = dict(
    double_hit="K(15)",
    push_stroke="K(15)",
    balls_moving="K(7)",
    before_spotted="K(8)",
    coaching="K(12)",
    feet_off_floor="K(18)",
    touching_ball_moved="K(19)",
    touched_ball="K(21)",
    jump_shot="K(22)",
)
_WPA_CITES: Final = dict(
    break_="3.3(d)",
    bad_break="3.3(d)",
    black_break="3.3(e)",
    black_break_scratch="3.3(f)",
    break_in_off="3.3(h)",
    no_contact="6.2",
    wrong_ball_first="6.2",
    no_rail="6.3",
    in_off="6.1",
    cue_off_table="6.1",
    ball_off_table="6.5",
    opponent_ball="3.9",
    placement="6.10",
    no_nomination="3.6",
    penalty="3.9",
    loss_foul="3.8(a)",
    loss_early="3.8(b)",
    loss_last="3.8(b)",
    loss_pocket="3.8(c)",
    loss_off_table="3.8(d)",
    foul_snooker_black="3.8(b)",
    spot="3.7",
    groups="3.4",
    groups_break="3.3(c)",
    win="3.5",
    time="6.15",
    stalemate="3.11",
    turn="3.5",
    out_of_turn="6.13",
    end="1.11",
)
_BB_CITES: Final = dict(
    _WPA_CITES,
    break_="5.5(b)",
    bad_break="5.5(b)",
    black_break="5.5(c)",
    break_in_off="5.13",
    no_contact="6.3",
    opponent_ball="5.13.1",
    penalty="5.13",
    loss_foul="5.14(a)",
    loss_early="5.14(b)",
    loss_last="5.14(b)",
    spot="5.11",
    groups="5.6",
    groups_break="5.6",
    win="5.7",
    stalemate="5.12",
    turn="5.7",
)

EDITIONS: Final[dict[str, Edition]] = {
    "world-2015": Edition(
        "world-2015",
        fouls=_cites("WE", **_WE_FOULS),
        cite=_cites("WE", **_WE_CITES),
    ),
    "wepf": Edition(
        "wepf",
        prefix="EPF",
        fouls=_cites("EPF", **_WE_FOULS),
        cite=_cites("EPF", **_WE_CITES),
    ),
    "wpa": Edition(
        "wpa",
        prefix="WPA",
        numbered=True,
        penalty=BALL_IN_HAND,
        bad_break="options",
        black_on_break_rerack=False,
        call_shot=True,
        groups_by="called",
        opponent_ball_foul="never",
        rail_needs_ball_on=False,
        black_off_table_loses=True,
        black_uncalled_pocket_loses=True,
        spot_objects=False,
        scratch_in_hand="anywhere",
        snooker_relief=False,
        total_snooker_from_positions=False,
        foul_snooker=False,
        shot_clock_s=None,
        in_off_fair_break_one_visit=False,
        fouls={**JUDGED, **HEAD_STRING},
        cite=_cites("WPA", **_WPA_CITES),
    ),
    "blackball": Edition(
        "blackball",
        prefix="BB",
        penalty=FREE_SHOT,
        break_pots_or_cushions=False,
        bad_break="foul",
        groups_by="one_group",
        opponent_ball_foul="without_own",
        rail_needs_ball_on=False,
        black_with_last_loses=False,
        spot_next_group_first=True,
        total_snooker_from_positions=False,
        foul_snooker=False,
        shot_clock_s=None,
        in_off_fair_break_one_visit=False,
        fouls={**JUDGED, "jump_shot": "BB 5.13.3", "before_spotted": "BB 5.13.2", "touching_ball_moved": "BB 5.9"},
        cite=_cites("BB", **_BB_CITES),
    ),
}


editions: Final[dict[str, Edition]] = EDITIONS
"""The engine interface's name for the editions (cuelog/replay/engine.py)."""


def edition_of(rules: str) -> Edition:
    return EDITIONS[rules.split("/", 1)[1]]


# -- balls and groups --------------------------------------------------------------------


def black_of(ed: Edition) -> str:
    return "8" if ed.numbered else "black"


def groups_of(ed: Edition) -> tuple[str, str]:
    return ("solids", "stripes") if ed.numbered else ("red", "yellow")


_NUMBERED_GROUPS: Final = {**dict.fromkeys(SOLIDS, "solids"), **dict.fromkeys(STRIPES, "stripes")}
_COLOURED_GROUPS: Final = {"red": "red", "yellow": "yellow"}


def groups_by_ball(ed: Edition) -> Mapping[str, str]:
    """Each object ball's group (the black, and the cue ball, have none). A lookup: every
    stroke asks it of every ball on the table, several times."""
    return _NUMBERED_GROUPS if ed.numbered else _COLOURED_GROUPS


def _members(groups: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    return {g: tuple(b for b, of in groups.items() if of == g) for g in dict.fromkeys(groups.values())}


_NUMBERED_MEMBERS: Final = _members(_NUMBERED_GROUPS)
_COLOURED_MEMBERS: Final = _members(_COLOURED_GROUPS)


def members_by_group(ed: Edition) -> Mapping[str, tuple[str, ...]]:
    """Each group's balls: :func:`groups_by_ball` the other way round."""
    return _NUMBERED_MEMBERS if ed.numbered else _COLOURED_MEMBERS


def group_of(ed: Edition, ball: str) -> str | None:
    """The group a ball belongs to (``None`` for the black)."""
    return groups_by_ball(ed).get(ball)


def full_rack(ed: Edition) -> dict[str, int]:
    """The fifteen object balls (WE B(2), WPA 3.2, BB 5.2)."""
    if ed.numbered:
        return {str(i): 1 for i in range(1, 16)}
    return {"red": 7, "yellow": 7, "black": 1}


# -- the state ---------------------------------------------------------------------------


@dataclass(slots=True)
class State:
    """The rack between records. ``apply`` copies it; nothing mutates an input."""

    match: Match
    frame: int
    ed: Edition
    table: dict[str, int]
    """Object balls on the table, by name, and how many (reds and yellows are alike)."""
    breaker: str | None
    striker: str | None = None
    """The side due to play the next stroke (``None``: the breaker, unknown before the first)."""
    ledger: Ledger = field(default_factory=Ledger)
    groups: dict[str, str] = field(default_factory=dict)
    """Side -> its group once decided (WE H(1)(c), WPA 3.4, BB 5.6); empty: the table is open."""
    breaking: bool = True
    """The next stroke is a break shot (WE F(3), WPA 3.3, BB 5.5)."""
    break_groups: tuple[str, ...] = ()
    """Groups potted on the break (WE H(2)(c))."""
    must_nominate: str | None = None
    """The side obliged to nominate a colour before its next shot (WE H(2)(b), H(3)(b))."""
    tentative: str | None = None
    """The side on a colour it nominated without potting it on the break (WE H(2)(c)(ii))."""
    visits_left: int = 1
    """Visits left in the striker's turn, this one included (WE C(6))."""
    free_shot: bool = False
    """The next stroke is a free shot (BB 5.1, 5.13)."""
    after_foul: bool = False
    """The next stroke is the incoming player's first after a foul (WE P)."""
    foul_snooker: bool = False
    """The referee ruled a Foul Snooker for the next stroke (WE P(3))."""
    snookered: bool = False
    """The referee ruled a Total Snooker (WE G(3)(b)) or declared a snooker (BB 5.10)."""
    choice: tuple[str, frozenset[str], str] | None = None
    """An open choice: (side entitled, options, what it answers)."""
    time_fouls: frozenset[int] = frozenset()
    """``after`` of every time foul recorded (WE I(4))."""
    clock: dict[int, float] = field(default_factory=dict)
    last_n: int = 0
    over: bool = False
    winner: str | None = None
    end_reason: str | None = None
    end_n: int = 0
    end_reported: bool = False
    end_rule: str = ""
    """The rule that ended the frame (a win on the black, a loss-of-frame foul)."""
    recorded: tuple[int, int] | None = None
    recorded_winner: str | None = None
    """The winner the ``frame_end`` record gives (``None`` before it)."""
    rest: tuple[tuple[str, float, float], ...] | None = None
    """Rest positions after the last stroke, when recorded and nothing was spotted since."""

    def copy(self) -> State:
        c = State(self.match, self.frame, self.ed, dict(self.table), self.breaker)
        for name in _SCALARS:
            setattr(c, name, getattr(self, name))
        c.ledger = self.ledger.copy()
        c.groups = dict(self.groups)
        c.clock = dict(self.clock)
        return c

    def cite(self, concept: str) -> str:
        return self.ed.cite[concept]

    def on_table(self, ball: str) -> bool:
        return self.table.get(ball, 0) > 0

    def left(self, group: str) -> int:
        table = self.table
        return sum(table.get(b, 0) for b in members_by_group(self.ed)[group])


_SCALARS: Final = (
    "striker",
    "breaking",
    "break_groups",
    "must_nominate",
    "tentative",
    "visits_left",
    "free_shot",
    "after_foul",
    "foul_snooker",
    "snookered",
    "choice",
    "time_fouls",
    "last_n",
    "over",
    "winner",
    "end_reason",
    "end_n",
    "end_reported",
    "end_rule",
    "recorded",
    "rest",
    "recorded_winner",
)


def new_frame(match: Match, frame: Frame, previous: FrameResult | None = None) -> State:
    """The rack at the break: fifteen balls, the breaker in hand behind the line (WE F,
    WPA 3.3(a), BB 5.5(a)). Breaks alternate (WE F(2), WPA 3.1, BB 5.3)."""
    ed = edition_of(match.rules)
    table = full_rack(ed)
    if frame.positions:
        table = {}
        for b, _, _ in frame.positions:
            if b != CUE:
                table[b] = table.get(b, 0) + 1
    breaker = alternating_breaker(frame, previous)
    return State(match, frame.frame, ed, table, breaker, striker=breaker)


def _rerack(st: State, breaker: str) -> None:
    """Re-rack and break again (WE F(4)(b),(5), W; WPA 3.3(d),(e), 3.11; BB 5.5(c), 5.12)."""
    st.table = full_rack(st.ed)
    st.breaker = st.striker = breaker
    st.breaking = True
    st.groups = {}
    st.break_groups = ()
    st.must_nominate = st.tentative = None
    st.free_shot = st.after_foul = st.foul_snooker = st.snookered = False
    st.choice = None
    st.ledger.end_visit()


# -- the ball on -------------------------------------------------------------------------


def balls_on(st: State, side: str, nominated: str | None) -> frozenset[str] | None:
    """The balls ``side`` may hit first (WE C(3), G(1)(a); WPA 6.2, 3.4; BB 5.1).

    ``None``: any ball (a free shot suspends 6.2, BB 5.1). Open table: any ball of either
    group, never the black (WE H(1)(a), WPA 3.4). A group cleared: the black.
    """
    if st.free_shot:
        return None
    black = black_of(st.ed)
    group = st.groups.get(side)
    if group is None:
        on = {b for b, k in st.table.items() if k > 0 and b != black}
    else:
        table = st.table
        on = {b for b in members_by_group(st.ed)[group] if table.get(b, 0) > 0}
        if not on:
            on = {black}
    if st.foul_snooker and nominated is not None and st.on_table(nominated):
        # WE P(4)(a)(ii): the nominated ball becomes one of the player's colour.
        on.add(nominated)
    return frozenset(on)


def _describe_on(st: State, side: str) -> str:
    group = st.groups.get(side)
    if st.free_shot:
        return "any"
    if group is None:
        return "open"
    return group if st.left(group) else black_of(st.ed)


# -- records -----------------------------------------------------------------------------


def apply(state: State, record: FrameRecord) -> Step:
    """Fold one record into a copy of ``state``: ``(new state, due call or None, findings)``."""
    return _RECORDS.apply(state, record)


def _stroke(st: State, s: Stroke) -> tuple[Outcome | None, list[Finding]]:
    F: list[Finding] = []
    if st.over:
        st.last_n = s.n
        return None, _played_on(st, s)
    F.extend(_check_striker(st, s))
    st.last_n = s.n
    if s.score is not None and len(s.score) == 2:
        st.recorded = (s.score[0], s.score[1])
    if st.choice is not None:
        _take_choice(st, st.choice[0], "play")
    if not _balls_there(st, s, F):
        return None, F
    st.ledger.stroke(s.n, s.striker, 0, 0, None)
    outcome = _break(st, s, F) if st.breaking else _shot(st, s, F)
    # Positions after a spotting or a re-rack are not the recorded ones.
    moved = bool(s.respots) or st.breaking
    st.rest = None if s.positions is None or moved else tuple((b, x, y) for b, x, y in s.positions)
    return outcome, F


def _check_striker(st: State, s: Stroke) -> list[Finding]:
    """Playing out of turn (WE K(4), WPA 6.13): reported; the table follows the stroke played."""
    due = st.striker
    if due is None or s.striker == due:
        return []
    return [
        Finding(
            n=s.n,
            kind=WRONG_STRIKER,
            rule=st.cite("out_of_turn"),
            side=s.striker,
            points=0,
            message=f"stroke played by {s.striker}, but {due} was due to play",
        )
    ]


def _balls_there(st: State, s: Stroke, F: list[Finding]) -> bool:
    """Every ball potted or forced off must be on the table (else the record is invalid)."""
    gone = objects_potted(s) + objects_off_table(s)
    if not gone:
        return True  # most strokes: nothing to check, and no copy of the table to count on
    table = dict(st.table)
    for b in gone:
        if table.get(b, 0) <= 0:
            F.append(
                Finding(
                    n=s.n,
                    kind=INVALID_RECORD,
                    rule="FORMAT 4",
                    side=s.striker,
                    points=0,
                    message=f"{b} potted or off the table but it was not on the table",
                )
            )
            return False
        table[b] -= 1
    return True


def _remove(st: State, s: Stroke) -> None:
    """The balls potted or forced off leave the table (the table follows the stroke)."""
    for b in objects_potted(s) + objects_off_table(s):
        st.table[b] -= 1


def _played_on(st: State, s: Stroke) -> list[Finding]:
    """A stroke after the rules ended the frame: reported once, on the stroke that ended it."""
    if st.end_reported:
        return []
    st.end_reported = True
    return [
        Finding(
            n=st.end_n,
            kind=FRAME_END_ERROR,
            rule=st.end_rule or st.cite("win"),
            side=st.winner,
            points=0,
            message=f"the rules end the frame at stroke {st.end_n} ({(st.end_reason or '').replace('_', ' ')}, "
            f"to {st.winner}), "
            f"but play went on (stroke {s.n})",
        )
    ]


# -- the break ---------------------------------------------------------------------------


def _fair_break(st: State, s: Stroke) -> bool | None:
    """Fair break: WE F(4)(a) / WPA 3.3(d): a ball potted or four to a cushion; BB 5.5(b):
    a ball pocketed or two object balls across the centre string, judged from the rest
    positions (a ball at rest in the head half has crossed it; docs/rulings.md)."""
    if objects_potted(s):
        return True
    if st.ed.break_pots_or_cushions:
        c = s.cushions
        if c is None or c.objects is None:
            return None
        return c.objects >= 4
    if s.positions is None:
        return None
    length = (st.match.table_mm or TABLE_MM)[1]
    crossed = sum(1 for b, _, y in s.positions if b != CUE and y < length / 2)
    return crossed >= 2


def _break(st: State, s: Stroke, F: list[Finding]) -> Outcome:
    black = black_of(st.ed)
    st.breaking = False
    _remove(st, s)
    if black in s.potted and st.ed.black_on_break_rerack:
        return _black_on_break_rerack(st, s, F)
    if (black in s.potted or black in (s.off_table or [])) and not st.ed.black_on_break_rerack:
        return _wpa_black_on_break(st, s, F)
    fair = _fair_break(st, s)
    if fair is False and st.ed.bad_break == "rerack_opponent":
        return _bad_break_rerack(st, s, F)
    if fair is False and st.ed.bad_break == "options":
        return _wpa_bad_break(st, s, F)
    fouls = _break_fouls(st, s)
    if fair is False:
        fouls.insert(0, Foul("unfair_break", st.cite("bad_break")))
    return _after_break(st, s, F, fouls)


def _break_fouls(st: State, s: Stroke) -> list[Foul]:
    fouls: list[Foul] = []
    if s.placement == "illegal":
        fouls.append(Foul("placement", st.cite("placement")))
    if CUE in s.potted:
        fouls.append(Foul("in_off", st.cite("break_in_off")))
    elif CUE in (s.off_table or []):
        fouls.append(Foul("cue_off_table", st.cite("break_in_off")))
    if objects_off_table(s):
        fouls.append(Foul("ball_off_table", st.cite("ball_off_table")))
    fouls.extend(judged_fouls(s, st.ed.fouls))
    return fouls


def _black_on_break_rerack(st: State, s: Stroke, F: list[Finding]) -> Outcome:
    """WE F(5), BB 5.5(c): re-rack, the same player breaks; all else on the shot is ignored."""
    due = Due()
    F.extend(compare_call(s.n, s.striker, due, s.call, st.ed.penalty, st.cite("black_break")))
    F.extend(check_respots(s.n, [], s.respots, st.cite("black_break")))
    _rerack(st, s.striker)
    return _outcome(st, s, due, [], ball_on="break")


def _wpa_black_on_break(st: State, s: Stroke, F: list[Finding]) -> Outcome:
    """WPA 3.3(e)-(g): the 8 is spotted (or the balls re-racked); a scratch or a ball off
    the table is a foul and the choice passes to the opponent."""
    fouls = _break_fouls(st, s)
    black = black_of(st.ed)
    st.table[black] = 1  # re-spotted unless a re-break is chosen (WPA 3.7)
    if fouls:
        if fouls[0].code in ("in_off", "cue_off_table") and black in s.potted:
            fouls[0] = Foul(fouls[0].code, st.cite("black_break_scratch"))  # WPA 3.3(f)
        due = Due(fouls=tuple(fouls), in_hand="head")
        side, options = other(s.striker), frozenset({"accept", "rerack", "play"})
    else:
        due = Due()
        side, options = s.striker, frozenset({"accept", "rerack", "play"})
    F.extend(compare_call(s.n, s.striker, due, s.call, st.ed.penalty, st.cite("black_break")))
    F.extend(check_respots(s.n, [black], s.respots, st.cite("black_break")))
    st.striker = side
    st.choice = (side, options, "black_break_scratch" if fouls else "black_break")
    if fouls:
        st.ledger.end_visit()
    return _outcome(st, s, due, [black], ball_on="break")


def _bad_break_rerack(st: State, s: Stroke, F: list[Finding]) -> Outcome:
    """WE F(4)(b): not a Fair Break: two visits, re-rack, the opponent breaks. The re-break
    is the first shot of the first of those two visits (docs/rulings.md)."""
    due = Due(fouls=(Foul("unfair_break", st.cite("bad_break")),), visits=2)
    F.extend(compare_call(s.n, s.striker, due, s.call, st.ed.penalty, st.cite("bad_break")))
    F.extend(check_respots(s.n, [], s.respots, st.cite("bad_break")))
    if not called_foul(s.call):
        # Condoned (WPA 6): play goes on from the position, the turn passes.
        _next_turn(st, s, due, continues=False)
        return _outcome(st, s, due, [], ball_on="break")
    _rerack(st, other(s.striker))
    st.visits_left = 2
    return _outcome(st, s, due, [], ball_on="break")


def _wpa_bad_break(st: State, s: Stroke, F: list[Finding]) -> Outcome:
    """WPA 3.3(d): an illegal break is not a foul; the incoming player accepts the table,
    re-racks and breaks, or has the offender break again."""
    fouls = _break_fouls(st, s)
    due = Due(fouls=tuple(fouls), in_hand="head" if fouls else None, in_hand_optional=True)
    F.extend(compare_call(s.n, s.striker, due, s.call, st.ed.penalty, st.cite("bad_break")))
    F.extend(check_respots(s.n, [], s.respots, st.cite("spot")))
    incoming = other(s.striker)
    st.striker = incoming
    st.choice = (incoming, frozenset({"accept", "rerack", "rerack_opponent", "play"}), "bad_break")
    st.ledger.end_visit()
    return _outcome(st, s, due, [], ball_on="break")


def _after_break(st: State, s: Stroke, F: list[Finding], fouls: list[Foul]) -> Outcome:
    """A break that stands: the breaker continues after a pot (WE C(5), WPA 3.3(c), BB 5.7);
    colours potted on it oblige a nomination (WE H(2)(b))."""
    due = _foul_due(st, s, fouls)
    if fouls and fouls[0].code in ("in_off", "cue_off_table") and st.ed.in_off_fair_break_one_visit:
        due = Due(fouls=due.fouls, visits=1, in_hand="baulk")  # WE F(4)(c)(i): the turn passes
    if due.foul and st.ed.bad_break == "options":
        # WPA 3.3(g),(h): accept the table or take the cue ball in hand behind the head string.
        due = Due(fouls=due.fouls, in_hand="head", in_hand_optional=True)
    F.extend(compare_call(s.n, s.striker, due, s.call, st.ed.penalty, st.cite("penalty")))
    spots = _due_spots(st, s, s.striker if due.foul else other(s.striker))
    F.extend(check_respots(s.n, spots, s.respots, st.cite("spot")))
    _put_back(st, s)
    pots = objects_potted(s)
    if not called_foul(s.call) and pots and st.ed.groups_by == "nomination":
        st.break_groups = tuple(sorted({g for b in pots if (g := group_of(st.ed, b)) is not None}))
        st.must_nominate = s.striker if st.break_groups else None
    if st.ed.bad_break == "options" and due.foul:
        st.choice = (other(s.striker), frozenset({"accept", "baulk", "play"}), "break_in_off")
    _next_turn(st, s, due, continues=bool(pots) and not called_foul(s.call))
    return _outcome(st, s, due, spots, ball_on="break", balls=len(pots))


# -- shots after the break ---------------------------------------------------------------


def _shot(st: State, s: Stroke, F: list[Finding]) -> Outcome:
    side = s.striker
    if st.after_foul and st.ed.total_snooker_from_positions and not st.foul_snooker:
        st.foul_snooker = _snookered(st, side)  # WE P(1): read from the rest positions
    on = balls_on(st, side, s.nominated)
    ball_on = _describe_on(st, side)
    pots = objects_potted(s)  # read once: most of the steps below ask it
    fouls = _shot_fouls(st, s, on, pots)
    _remove(st, s)
    unnominated = st.must_nominate == side
    st.must_nominate = None
    due = _foul_due(st, s, fouls)
    black = _black_result(st, s, fouls, pots)
    if black is not None and black[0] == "loss":
        code = Foul("loss_of_frame", black[1])
        due = Due(
            fouls=(*due.fouls, code), visits=due.visits, in_hand=due.in_hand, loss_of_frame=True, loss_rule=black[1]
        )
        lost = compare_loss(s.n, side, due, s.call, st.cite("penalty"))
        st.end_reported = bool(lost)
        F.extend(lost)
    else:
        F.extend(compare_call(s.n, side, due, s.call, st.ed.penalty, st.cite("penalty")))
        F.extend(compare_loss(s.n, side, due, s.call, st.cite("penalty")))
    balls = _balls_on_potted(pots, on)
    if black is not None:
        _end(st, side if black[0] == "win" else other(side), black[0], s.n)
        st.end_rule = black[1]
        return _outcome(st, s, due, [], ball_on=ball_on, balls=balls + (1 if black[0] == "win" else 0))
    spots = _due_spots(st, s, other(side) if due.foul else side)
    F.extend(check_respots(s.n, spots, s.respots, st.cite("spot")))
    _put_back(st, s)
    # The table follows the calls as made: a foul nobody called is condoned (WPA 6).
    called = called_foul(s.call)
    continues = not called and _legal_pot(st, s, on, pots)
    if not called and not unnominated:
        _decide_groups(st, s, continues, pots)  # WE H(1)(d): an unnominated shot decides nothing
    if st.tentative == side and not continues:
        st.groups, st.tentative = {}, None  # WE H(2)(c)(ii): the nominated colour was not potted
    _next_turn(st, s, due, continues=continues)
    return _outcome(st, s, due, spots, ball_on=ball_on, balls=balls)


def _shot_fouls(st: State, s: Stroke, on: frozenset[str] | None, pots: list[str]) -> list[Foul]:
    """The standard fouls the facts show (WE K, G; WPA 3.9, 6.x; BB 5.13), most serious first.
    ``pots``: the object balls potted (:func:`objects_potted`)."""
    c = st.cite
    fouls: list[Foul] = []
    if s.placement == "illegal":
        fouls.append(Foul("placement", c("placement")))
    if CUE in s.potted:
        fouls.append(Foul("in_off", c("in_off")))
    elif CUE in (s.off_table or []):
        fouls.append(Foul("cue_off_table", c("cue_off_table")))
    if not s.first:
        fouls.append(Foul("no_contact", c("no_contact")))
    elif on is not None and not on.issuperset(s.first):
        fouls.append(Foul("wrong_ball_first", c("wrong_ball_first")))
    elif _no_rail(st, s, on, pots):
        fouls.append(Foul("no_rail", c("no_rail")))
    if _opponent_ball(st, s, pots):
        fouls.append(Foul("opponent_ball", c("opponent_ball")))
    if objects_off_table(s):
        fouls.append(Foul("ball_off_table", c("ball_off_table")))
    if st.must_nominate == s.striker:
        fouls.append(Foul("no_nomination", c("no_nomination")))
    fouls.extend(judged_fouls(s, st.ed.fouls))
    return fouls


def _no_rail(st: State, s: Stroke, on: frozenset[str] | None, pots: list[str]) -> bool:
    """WE G(1)(b): pot a ball on or send a ball to a cushion; WPA 6.3: any pot or a rail.
    Waived out of a Total Snooker (WE G(3)(b)) or a declared snooker (BB 5.10)."""
    if st.snookered and st.ed.snooker_relief:
        return False
    if st.ed.total_snooker_from_positions and _total_snooker(st, s.striker, on):
        return False
    if st.ed.rail_needs_ball_on:
        if any(on is None or b in on for b in pots):
            return False
    elif pots:
        return False
    return rail_after_contact(s.cushions) is False


def _total_snooker(st: State, side: str, on: frozenset[str] | None) -> bool:
    """WE G(3)(b)(i): no straight line to any part of any ball on, from the rest positions
    of the last stroke (straight cushions count, (iv)). Unknown positions: not snookered."""
    if st.rest is None or on is None:
        return False
    cue = [(x, y) for b, x, y in st.rest if b == CUE]
    targets = [(x, y) for b, x, y in st.rest if b in on]
    if len(cue) != 1 or not targets:
        return False
    table = st.match.table_mm or TABLE_MM
    dims = (float(table[0]), float(table[1]))
    for t in targets:
        others = [(x, y) for b, x, y in st.rest if b != CUE and (x, y) != t]
        if can_hit(cue[0], t, others, dims):
            return False
    return True


def _snookered(st: State, side: str) -> bool:
    """WE O, P(1): snookered when no ball of the player's own is open to the finest cut on
    both sides; own balls do not obstruct (O(2)). Unknown positions or groups: not snookered."""
    mine = st.groups.get(side)
    if st.rest is None or mine is None:
        return False
    own = {b for b in st.table if group_of(st.ed, b) == mine} or {black_of(st.ed)}
    cue = [(x, y) for b, x, y in st.rest if b == CUE]
    targets = [(x, y) for b, x, y in st.rest if b in own]
    if len(cue) != 1 or not targets:
        return False
    others = [(x, y) for b, x, y in st.rest if b != CUE and b not in own]
    return not any(fine_cuts(cue[0], t, others) for t in targets)


def _opponent_ball(st: State, s: Stroke, pots: list[str]) -> bool:
    """Potting the opponent's ball: WE K(3) (not the ball nominated after a Foul Snooker),
    BB 5.13.1 (only without a ball of one's own); not a foul in WPA eight ball."""
    mine = st.groups.get(s.striker)
    rule = st.ed.opponent_ball_foul
    if mine is None or rule == "never" or st.free_shot:
        return False
    theirs = [b for b in pots if group_of(st.ed, b) not in (mine, None)]
    if st.foul_snooker and s.nominated in theirs:
        theirs.remove(s.nominated)
    if not theirs:
        return False
    if rule == "without_own":
        return not any(group_of(st.ed, b) == mine for b in pots)
    return True


def _black_result(st: State, s: Stroke, fouls: list[Foul], pots: list[str]) -> tuple[str, str] | None:
    """Does the black end the frame? ``("win", rule)``, ``("loss", rule)`` or ``None``."""
    black = black_of(st.ed)
    ed, c = st.ed, st.cite
    if black in (s.off_table or []) and ed.black_off_table_loses:
        return ("loss", c("loss_off_table"))  # WPA 3.8(d)
    if black not in s.potted:
        return None
    if fouls:
        return ("loss", c("loss_foul"))  # WE M(1), WPA 3.8(a), BB 5.14(a)
    mine = st.groups.get(s.striker)
    if mine is not None and _own_left_before(st, pots, mine) == 0:
        # On the black (WE D(1), WPA 3.5, BB 5.7), or Foul Snookered on it (WE P(6)).
        pocket = pocket_of(s, black)
        if ed.black_uncalled_pocket_loses and pocket is not None and s.pocket_called not in (None, pocket):
            return ("loss", c("loss_pocket"))  # WPA 3.8(c)
        return ("win", c("win"))
    if st.foul_snooker and s.nominated == black:
        return ("loss", c("foul_snooker_black"))  # WE P(5)
    if mine is not None and st.left(mine) == 0:
        if not ed.black_with_last_loses:
            return ("win", c("loss_last"))  # BB 5.14(b): no own ball is left on the table
        return ("loss", c("loss_last"))  # WE M(3), WPA 3.6
    return ("loss", c("loss_early"))  # WE M(2), WPA 3.8(b), BB 5.14(b); the open table too


def _balls_on_potted(pots: list[str], on: frozenset[str] | None) -> int:
    """Balls on potted by the stroke (the black is counted by the caller when it wins)."""
    return sum(1 for b in pots if (on is None or b in on) and b not in ("black", "8"))


def _own_left_before(st: State, pots: list[str], group: str) -> int:
    return st.left(group) + sum(1 for b in pots if group_of(st.ed, b) == group)


def _legal_pot(st: State, s: Stroke, on: frozenset[str] | None, pots: list[str]) -> bool:
    """The visit goes on (WE C(5): a ball on potted; WPA 3.5: the called ball; BB 5.7)."""
    if st.ed.call_shot and s.nominated is not None:
        if s.nominated == "safety" or s.nominated not in pots:
            return False  # WPA 3.6: on a safety play passes; an uncalled pot does not continue
        pocket = pocket_of(s, s.nominated)
        return pocket is None or s.pocket_called is None or pocket == s.pocket_called
    return any(on is None or b in on for b in pots)


def _decide_groups(st: State, s: Stroke, legal: bool, potted: list[str]) -> None:
    """Groups, never on a foul (WE H(1)(b)): WE H(3) a single colour potted; WPA 3.4 the
    called ball legally pocketed; BB 5.6 one group only on a normal shot."""
    side = s.striker
    pots = [g for b in potted if (g := group_of(st.ed, b)) is not None]
    if st.tentative == side:
        if legal and st.groups.get(side) in pots:
            st.tentative = None  # WE H(2)(c)(ii): the nominated colour potted on the next shot
        return
    if st.groups or not pots:
        return
    by = st.ed.groups_by
    if by == "called" and s.nominated is not None and s.nominated != "safety":
        g = group_of(st.ed, s.nominated)
        if legal and g is not None:
            _assign(st, side, g)
        return
    kinds = sorted(set(pots))
    if len(kinds) == 1 and not (by == "one_group" and st.free_shot):
        _assign(st, side, kinds[0])
    elif by == "nomination":
        st.must_nominate = side  # WE H(3)(b)


def _assign(st: State, side: str, group: str) -> None:
    a, b = groups_of(st.ed)
    st.groups = {side: group, other(side): b if group == a else a}


# -- penalties and the turn --------------------------------------------------------------


def _foul_due(st: State, s: Stroke, fouls: list[Foul]) -> Due:
    """What the incoming player gets after a standard foul, by edition (WE K, WPA 3.9, BB 5.13)."""
    if not fouls:
        return Due()
    ed = st.ed
    hand = ed.scratch_in_hand if cue_scratched(s) else None
    if ed.penalty == TWO_VISITS:
        return Due(fouls=tuple(fouls), visits=2, in_hand=hand)
    if ed.penalty == BALL_IN_HAND:
        return Due(fouls=tuple(fouls), in_hand="anywhere")
    # BB 5.1: on the free shot the cue ball is played in position or in hand in baulk.
    return Due(fouls=tuple(fouls), in_hand=hand, in_hand_optional=hand is None)


def _next_turn(st: State, s: Stroke, due: Due, *, continues: bool) -> None:
    """Who plays next (WE C(5),(6); WPA 3.5; BB 5.7, 5.13). The table follows the calls as
    made: a foul nobody called is condoned (WPA 6) and play goes on as if none happened."""
    called = s.call is not None and s.call.foul
    st.free_shot = st.foul_snooker = st.snookered = False
    st.after_foul = False
    if called:
        visits = s.call.visits if s.call is not None and s.call.visits is not None else due.visits
        st.striker, st.visits_left = other(s.striker), max(visits, 1)
        st.free_shot = st.ed.penalty == FREE_SHOT
        st.after_foul = True
        st.must_nominate = None
        st.ledger.end_visit()
        return
    if continues:
        st.striker = s.striker
        return
    st.ledger.end_visit()
    if st.visits_left > 1:
        st.striker, st.visits_left = s.striker, st.visits_left - 1  # WE X(5)(b): "Second Visit"
    else:
        st.striker, st.visits_left = other(s.striker), 1


def _due_spots(st: State, s: Stroke, next_shooter: str) -> list[str]:
    """Object balls the rules spot after the stroke (WE S(3)(b), BB 5.11; WPA 3.7: none)."""
    off = objects_off_table(s)
    if not off:
        return []
    black = black_of(st.ed)
    if not st.ed.spot_objects:
        return [b for b in off if b == black and st.breaking]
    if st.ed.spot_next_group_first:
        g = st.groups.get(next_shooter) or groups_of(st.ed)[0]
        order = [black, *[b for b in full_rack(st.ed) if group_of(st.ed, b) == g]]
        return spot_order(off, order + [b for b in full_rack(st.ed) if b not in order])
    return spot_order(off, [black, *full_rack(st.ed)])


def _put_back(st: State, s: Stroke) -> None:
    """The table follows the referee: recorded respots go back on the table."""
    for r in s.respots or []:
        if r.ball != CUE:
            st.table[r.ball] = st.table.get(r.ball, 0) + 1


def _outcome(st: State, s: Stroke, due: Due, spots: Sequence[str], *, ball_on: str, balls: int = 0) -> Outcome:
    """The due call; ``scored`` is the balls the striker legally potted (pool has no points)."""
    # Positional, in Outcome's field order, each field named beside it: the hot loop, where
    # msgspec reads keyword arguments name by name (about 1 us a stroke against 0.15 us).
    return Outcome(
        s.n,  # n
        s.striker,  # striker
        0 if due.foul else balls,  # scored
        0,  # penalty
        due.foul,  # foul
        due.codes,  # reasons
        ball_on,  # ball_on
        False,  # miss
        False,  # free_ball
        foot_spots(spots),  # respots
        st.striker != s.striker or st.over,  # turn_ends
        None if st.over else st.striker,  # next_striker
        rack_score(st.winner),  # score
        None,  # break_id
        st.ledger.visit_id,  # visit_id
        st.over,  # frame_over
        st.winner,  # winner
        0,  # credited
        (),  # detail
        due.visits if due.foul else 0,  # visits
        due.in_hand,  # in_hand
        due.loss_of_frame,  # loss_of_frame
    )


def _end(st: State, winner: str | None, reason: str, n: int) -> None:
    st.over, st.winner, st.end_n = True, winner, n
    st.end_reason = "loss_of_frame" if reason == "loss" else ("pot" if reason == "win" else reason)
    st.ledger.close()


# -- choices and events ------------------------------------------------------------------


def _choice(st: State, c: Choice) -> list[Finding]:
    entitled, options = (st.choice[0], st.choice[1]) if st.choice is not None else (None, frozenset[str]())
    if st.choice is None and st.after_foul and st.ed.penalty != BALL_IN_HAND:
        # After a foul: play from where the cue ball lies or from Baulk (WE P(3), I(4); BB 5.1).
        entitled, options = st.striker, frozenset({"play", "baulk"})
    rule = st.cite(st.choice[2]) if st.choice is not None else st.cite("penalty")
    bad = check_choice(c, entitled, options, rule)
    if bad is not None:
        return [bad]
    if st.choice is not None:
        _take_choice(st, c.side, c.option)
    return []


def _take_choice(st: State, side: str, option: str) -> None:
    """Carry out the incoming player's option (WPA 3.3(d)-(h))."""
    st.choice = None
    if option == "rerack":
        # WPA 3.3(d)(2): the incoming player re-racks and breaks; 3.3(e)(2): the breaker
        # re-breaks; 3.3(f)(2): the opponent re-breaks (docs/rulings.md).
        _rerack(st, side)
    elif option == "rerack_opponent":
        _rerack(st, other(side))  # WPA 3.3(d)(3)
    else:
        st.striker = side  # accept the table (3.3(d)(1), (e)(1), (f)(1)) or in hand (3.3(g),(h))


def _event(st: State, e: Event) -> list[Finding]:
    kind = e.kind
    if kind == "nominate_group":
        return _nominate(st, e)
    if kind == "referee_call" and e.call in ("total_snooker", "snookered"):
        st.snookered = True  # WE G(3)(b)(iii), BB 5.10
    elif kind == "referee_call" and e.call == "foul_snooker" and st.ed.foul_snooker:
        st.foul_snooker = True  # WE P(3)
    elif kind in ("foul", "time_foul") and e.side is not None and not st.over:
        if kind == "time_foul":
            st.time_fouls = st.time_fouls | {e.after}
        _event_foul(st, e.side)
    elif kind == "rerack":
        _rerack(st, st.breaker or st.striker or "A")  # WE W, WPA 3.11, BB 5.12: same breaker
    elif kind == "concede" and e.side is not None and not st.over:
        _end(st, other(e.side), "concede", e.after)
    elif kind == "award" and e.side is not None and not st.over:
        _end(st, e.side, "award", e.after)
    return []


def _event_foul(st: State, side: str) -> None:
    """A foul with no stroke (WE K(10), I(4); WPA 6.6): the standard penalty, the turn passes."""
    st.ledger.end_visit()
    st.striker = other(side)
    st.visits_left = 2 if st.ed.penalty == TWO_VISITS else 1
    st.free_shot = st.ed.penalty == FREE_SHOT
    st.after_foul = True
    st.must_nominate = None


def _nominate(st: State, e: Event) -> list[Finding]:
    """A colour nominated (WE H(2)(b), H(3)(b)) or a group recorded (WPA 3.4, BB 5.6)."""
    side, group = e.side, e.group
    valid = groups_of(st.ed)
    if side is None or group not in valid:
        return [_group_error(st, e, f"group {group!r} is not one of {list(valid)}")]
    if st.must_nominate == side:
        st.must_nominate = None
        _assign(st, side, group)
        if st.break_groups and group not in st.break_groups:
            st.tentative = side  # WE H(2)(c)(ii)
        st.break_groups = ()
        return []
    if st.groups.get(side) == group:
        return []
    why = f"{side} is on {st.groups.get(side)}" if st.groups else "the table is open and no nomination is due"
    _assign(st, side, group)  # the table follows what was played
    return [_group_error(st, e, f"{side} recorded on {group}, but {why}")]


def _group_error(st: State, e: Event, message: str) -> Finding:
    return Finding(n=e.after, kind=GROUP_ERROR, rule=st.cite("groups"), side=e.side, points=0, message=message)


def _clock(st: State, c: Clock) -> list[Finding]:
    """The shot clock (WE I(1),(4): sixty seconds; WPA 6.15 where a clock is used)."""
    limit = st.ed.shot_clock_s if st.ed.shot_clock_s is not None else c.limit_s
    if limit is None or c.elapsed_s is None:
        return []
    called = (c.n - 1) in st.time_fouls
    if c.elapsed_s > limit + 1e-9 and not called:
        return [
            Finding(
                n=c.n,
                kind=TIME_FOUL_UNCALLED,
                rule=st.cite("time"),
                side=None,
                points=0,
                message=f"shot played after {c.elapsed_s:.1f} s, the limit is {limit:.0f} s: time foul not called",
            )
        ]
    if called and c.elapsed_s <= limit:
        return [
            Finding(
                n=c.n,
                kind=TIME_FOUL_ERROR,
                rule=st.cite("time"),
                side=None,
                points=0,
                message=f"time foul called but the clock shows {c.elapsed_s:.1f} s of {limit:.0f}",
            )
        ]
    return []


# -- the frame's end ---------------------------------------------------------------------


def _frame_end(st: State, fe: FrameEnd) -> list[Finding]:
    st.recorded_winner = fe.winner
    if fe.score is not None and len(fe.score) == 2:
        st.recorded = (fe.score[0], fe.score[1])
    if not st.over:
        if fe.reason in ("concede", "award") and fe.winner is not None:
            _end(st, fe.winner, fe.reason, st.last_n)  # the event is not in the log: trust it
            return []
        st.end_reported = True
        return [
            Finding(
                n=st.last_n,
                kind=FRAME_END_ERROR,
                rule=st.cite("win"),
                side=fe.winner,
                points=0,
                message=f"frame recorded as ended ({fe.reason or 'no reason'}) but the rules have it still in play",
            )
        ]
    if fe.winner is None or fe.winner == st.winner or st.end_reported:
        return []
    st.end_reported = True
    rule = st.end_rule or st.cite("win")
    return [
        Finding(
            n=st.end_n,
            kind=FRAME_END_ERROR,
            rule=rule,
            side=fe.winner,
            points=0,
            message=f"frame recorded to {fe.winner} but the rules give it to {st.winner} "
            f"({(st.end_reason or '').replace('_', ' ')})",
        )
    ]


_RECORDS: Final = Handlers(stroke=_stroke, choice=_choice, event=_event, frame_end=_frame_end, clock=_clock)
"""What the game does with each kind of record (the fold every pool engine shares)."""


def replay_frame(
    match: Match, frame: Frame, records: Sequence[FrameRecord], previous: FrameResult | None
) -> FrameResult:
    """Replay one rack and return its result (docs/format.md section 7)."""
    return replay_rack(new_frame(match, frame, previous), records, _RECORDS, finish)


def finish(state: State) -> FrameResult:
    """The rack's result: 1-0 to its winner; visits per side; no points, no breaks."""
    return rack_result(state)
