"""Eight-ball racks from the player model: the facts of each stroke, the calls from the engine.

The generator reads the engine's state (the balls on the table, the groups, whose turn it
is) to decide what the striker attempts, draws what happened (a pot, a safety, a miss, a
foul, now and then the black at the wrong moment), and asks the engine for the due call,
which it writes as a correct referee would. At the error rate it writes an official's
mistake instead and records its truth: a foul not called, the wrong penalty (visits, ball
in hand), a loss of frame missed, a wrong group, a ball left unspotted or spotted in error,
a foul called on a legal shot.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import msgspec

from cuelog.replay.model import (
    CONDONED_FOUL,
    FRAME_END_ERROR,
    GROUP_ERROR,
    RESPOT_IN_ERROR,
    RESPOT_MISSING,
    UNSUPPORTED_FOUL,
    VISITS_ERROR,
    Outcome,
)
from cuelog.replay.pool.common import BALL_IN_HAND, TWO_VISITS
from cuelog.replay.pool.eightball import State, balls_on, black_of, edition_of, group_of, groups_of
from cuelog.replay.pool.eightball_editions import Edition
from cuelog.schemas.records import Call, Cushions, FrameEnd, Infringement, Match, Respot, Stroke, other
from cuelog.schemas.rulesets import Ruleset
from cuelog.simulate.clock import MatchClock, iso
from cuelog.simulate.players import Player, pot_chance, shot_seconds
from cuelog.simulate.scribe import Mistakes, Scribe, Truth

if TYPE_CHECKING:
    from cuelog.simulate.season import SeasonConfig

TIERS = (("pro", 0.25), ("amateur", 0.35), ("club", 0.4))
"""Share of each player tier in a season's roster."""
MISTAKES = Mistakes(penalties=(), spotted={}, wrong_spots=(), value={})
"""Pool has no points and one spot: its mistakes are the pool kinds below."""
KINDS = (CONDONED_FOUL, VISITS_ERROR, FRAME_END_ERROR, GROUP_ERROR, RESPOT_MISSING, RESPOT_IN_ERROR, UNSUPPORTED_FOUL)
POCKETS = ("TL", "TR", "ML", "MR", "BL", "BR")
MAX_STROKES = 400
"""A rack that runs this long is conceded by the striker (a stalemate the model never reaches)."""


def match_settings(config: SeasonConfig, rs: Ruleset, tier: str, rng: random.Random) -> tuple[int, dict[str, object]]:
    """Racks: best of five unless the season says otherwise."""
    return (config.best_of if config.best_of is not None else 5), {}


def play_frame(
    *,
    match: Match,
    frame_no: int,
    breaker: str,
    players: dict[str, Player],
    rng: random.Random,
    scribe: Scribe,
    clock: MatchClock,
) -> str:
    """Play one rack through the scribe's engine state; returns the winner."""
    ed = edition_of(match.rules)
    missed_loss = False
    while True:
        st: State = scribe.state
        if st.over:
            return _end(scribe, st, missed_loss=missed_loss)
        if scribe.n >= MAX_STROKES:
            side = st.striker or breaker
            scribe.event("concede", side=side)
            scribe.end(other(side), "concede")
            return other(side)
        if st.must_nominate is not None:
            # WE H(2)(b), H(3)(b): the player names a colour, one potted if there was one.
            groups = st.break_groups or groups_of(ed)
            scribe.event("nominate_group", side=st.must_nominate, group=rng.choice(groups))
            continue
        striker = st.striker or breaker
        player = players[striker]
        n = scribe.n + 1
        seconds = shot_seconds(rng, player, st.breaking)
        t = iso(clock.shot(min(seconds, 55.0)))
        facts = _break(ed, st, striker, player, rng, n) if st.breaking else _shot(ed, st, striker, player, rng, n)
        error = _write(scribe, msgspec.structs.replace(facts, t=t, frame=frame_no), ed, rng)
        missed_loss = missed_loss or error == FRAME_END_ERROR


# -- what the striker does ---------------------------------------------------------------


def _break(ed: Edition, st: State, striker: str, player: Player, rng: random.Random, n: int) -> Stroke:
    """A break: usually fair, some balls potted, now and then the black or a scratch."""
    balls = _balls(st)
    potted: list[str] = []
    if rng.random() < 0.6:
        potted = rng.sample([b for b in balls if b != black_of(ed)], rng.choice((1, 1, 2)))
    if rng.random() < 0.02:
        potted.append(black_of(ed))
    if rng.random() < 0.05 + (1 - player.discipline):
        potted.append("white")
    fair = rng.random() < 0.9
    cushions = rng.randint(4, 8) if fair else rng.randint(1, 3)
    positions = None
    if not ed.break_pots_or_cushions and not potted:
        # BB 5.5(b): balls at rest in the head half crossed the centre string.
        crossed = rng.randint(2, 4) if fair else 1
        positions = [(b, 600.0, 500.0) for b in balls[:crossed]]
    return Stroke(
        frame=0,
        n=n,
        striker=striker,
        first=[rng.choice(balls)],
        potted=potted,
        pockets=[rng.choice(POCKETS) for _ in potted],
        cushions=Cushions(objects=cushions, after_contact=True),
        placement="legal",
        positions=positions,
    )


def _shot(ed: Edition, st: State, striker: str, player: Player, rng: random.Random, n: int) -> Stroke:
    on = sorted(balls_on(st, striker, None) or _free_shot_targets(ed, st, striker))
    target = rng.choice(on)
    first, potted, rail = [target], [target], True
    off_table: list[str] = []
    infringements: list[Infringement] | None = None
    roll = rng.random()
    fouls = (1.0 - player.discipline) * 6
    if roll < fouls * 0.3:
        potted = [target, "white"]
    elif roll < fouls * 0.5:
        others = [b for b in _balls(st) if b not in on]
        first, potted = ([rng.choice(others)] if others else []), []
    elif roll < fouls * 0.65:
        potted, rail = [], False
    elif roll < fouls * 0.75:
        first, potted = [], []
    elif roll < fouls * 0.8:
        others = [b for b in _balls(st) if b != target and b != black_of(ed)]
        potted, off_table = [], others[:1]
    elif roll < fouls * 0.85 and target != black_of(ed) and black_of(ed) in _balls(st):
        potted = [black_of(ed)]  # the black potted at the wrong moment: loss of frame
    elif roll < fouls:
        potted, infringements = [], [Infringement("double_hit")]
    elif rng.random() > pot_chance(player, rng.uniform(0.0, 0.6)):
        potted = []  # a miss or a safety
    pockets = [rng.choice(POCKETS) for _ in potted]
    called: dict[str, object] = {}
    if ed.call_shot and first:
        called = {"nominated": target, "pocket_called": pockets[0] if potted and potted[0] == target else "TL"}
        if target in potted:
            pockets[potted.index(target)] = str(called["pocket_called"])
    return Stroke(
        frame=0,
        n=n,
        striker=striker,
        first=first,
        potted=potted,
        pockets=pockets,
        off_table=off_table or None,
        cushions=Cushions(after_contact=rail),
        infringements=infringements,
        **called,  # type: ignore[arg-type]
    )


def _free_shot_targets(ed: Edition, st: State, striker: str) -> set[str]:
    """On a free shot (BB 5.1) any ball may be hit; the player still plays at his own."""
    mine = st.groups.get(striker)
    own = {b for b in _balls(st) if mine is None or group_of(ed, b) == mine} - {black_of(ed)}
    return own or {black_of(ed)}


def _balls(st: State) -> list[str]:
    return sorted(b for b, k in st.table.items() for _ in range(k))


# -- writing the calls -------------------------------------------------------------------


def _due_call(ed: Edition, due: Outcome) -> Call | None:
    """The call a correct referee makes (docs/format.md's pool ``call``)."""
    if not due.foul and not due.loss_of_frame:
        return None
    if due.loss_of_frame:
        return Call(foul=True, loss_of_frame=True, reason=due.reasons[0] if due.reasons else None)
    visits = due.visits if ed.penalty == TWO_VISITS else None
    # "head" (WPA 3.3(g),(h)) and the free shot's cue ball in position are the player's option.
    in_hand = True if due.in_hand in ("anywhere", "baulk") else None
    return Call(foul=True, visits=visits, ball_in_hand=in_hand, reason=due.reasons[0] if due.reasons else None)


def _write(scribe: Scribe, facts: Stroke, ed: Edition, rng: random.Random) -> str | None:
    """Write one stroke with the due calls, or with one injected error; returns its kind."""
    due = scribe.oracle.due(scribe.state, facts)
    call = _due_call(ed, due)
    respots: list[Respot] | None = [Respot(b, s) for b, s in due.respots]
    if not respots and not facts.potted and not facts.off_table:
        respots = None
    error = _pick_error(scribe, facts, due, ed)
    detail = ""
    if error == CONDONED_FOUL:
        call, detail = None, f"foul ({', '.join(due.reasons)}) not called"
    elif error == VISITS_ERROR:
        call, detail = _wrong_penalty(ed, due, call)
    elif error == FRAME_END_ERROR:
        call, detail = Call(foul=due.foul), "loss of frame not called; rack recorded to the offender"
    elif error == UNSUPPORTED_FOUL:
        call, detail = Call(foul=True, visits=2 if ed.penalty == TWO_VISITS else None), "foul called on a legal shot"
    elif error == RESPOT_MISSING:
        ball = rng.choice([r.ball for r in respots or [] if r.ball != black_of(ed)])
        respots, detail = [r for r in respots or [] if r.ball != ball], f"{ball} not spotted"
    elif error == RESPOT_IN_ERROR:
        ball = next(b for b in facts.potted if b not in ("white", black_of(ed)))
        respots, detail = [*(respots or []), Respot(ball, "foot")], f"{ball} spotted in error"
    record = msgspec.structs.replace(facts, call=call, respots=respots)
    scribe.state, _, findings = scribe.oracle.apply(scribe.state, record)
    scribe.records.append(record)
    scribe.n = facts.n
    expect = error if error not in (FRAME_END_ERROR, GROUP_ERROR) else None
    if error is not None and error != GROUP_ERROR:
        scribe.truth.append(Truth(scribe.match_id, scribe.frame, facts.n, error, detail))
    if scribe.check:
        scribe._expect(findings, expect)
    if error == GROUP_ERROR:
        _wrong_group(scribe, ed, facts)
    return error


def _pick_error(scribe: Scribe, facts: Stroke, due: Outcome, ed: Edition) -> str | None:
    """One of the mistakes this stroke offers, at the error rate; the rare chances (a loss
    of frame, a group being decided) are taken more often, as ``Scribe.roll`` does."""
    st: State = scribe.state
    if due.loss_of_frame:
        return FRAME_END_ERROR if scribe.roll(FRAME_END_ERROR, 10.0) else None
    deciding = not due.foul and not st.breaking and not st.groups and any(group_of(ed, b) for b in facts.potted)
    if deciding and not due.frame_over and scribe.roll(GROUP_ERROR, 5.0):
        return GROUP_ERROR
    kinds: list[str] = []
    if due.foul:
        kinds += [CONDONED_FOUL, VISITS_ERROR] if _penalty_can_be_wrong(ed, due) else [CONDONED_FOUL]
    elif not due.frame_over and not st.breaking:
        kinds.append(UNSUPPORTED_FOUL)
        if any(b not in ("white", black_of(ed)) for b in facts.potted):
            kinds.append(RESPOT_IN_ERROR)
    if any(b != black_of(ed) for b, _ in due.respots) and not due.frame_over:
        kinds.append(RESPOT_MISSING)  # the black left off would leave the rack unwinnable
    if scribe.kinds is not None:
        kinds = [k for k in kinds if k in scribe.kinds]
    if kinds and scribe.rate > 0 and scribe.rng.random() < scribe.rate:
        return scribe.rng.choice(kinds)
    return None


def _penalty_can_be_wrong(ed: Edition, due: Outcome) -> bool:
    if ed.penalty == TWO_VISITS:
        return True
    if ed.penalty == BALL_IN_HAND:
        return due.in_hand == "anywhere"
    return due.in_hand == "baulk"


def _wrong_penalty(ed: Edition, due: Outcome, call: Call | None) -> tuple[Call | None, str]:
    assert call is not None
    if ed.penalty == TWO_VISITS:
        wrong = 1 if due.visits == 2 else 2
        return msgspec.structs.replace(call, visits=wrong), f"{wrong} visit(s) awarded, {due.visits} due"
    return msgspec.structs.replace(call, ball_in_hand=False), "cue ball not given in hand"


def _wrong_group(scribe: Scribe, ed: Edition, facts: Stroke) -> None:
    """A group recorded against the rules after the stroke that decided (or not) the groups."""
    st: State = scribe.state
    side = facts.striker
    right = st.groups.get(side)
    if right is None and st.must_nominate == side:
        return  # a nomination is due: the player's own choice, not an official's error
    a, b = groups_of(ed)
    wrong = (b if right == a else a) if right is not None else a
    scribe.event("nominate_group", expect=GROUP_ERROR, side=side, group=wrong)
    scribe.truth.append(Truth(scribe.match_id, scribe.frame, facts.n, GROUP_ERROR, f"{side} recorded on {wrong}"))


def _end(scribe: Scribe, st: State, *, missed_loss: bool) -> str:
    """The rack's end as recorded; a missed loss of frame is recorded to the offender."""
    winner = st.winner or "A"
    reason = st.end_reason or "pot"
    if missed_loss:
        winner, reason = other(winner), "pot"
    rec = FrameEnd(scribe.frame, winner, None, reason)
    scribe.state, _, findings = scribe.oracle.apply(scribe.state, rec)
    scribe.records.append(rec)
    if scribe.check:
        scribe._expect(findings, FRAME_END_ERROR if missed_loss else None)
    return winner


__all__ = ["KINDS", "MISTAKES", "play_frame"]
