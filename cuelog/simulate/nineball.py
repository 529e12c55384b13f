"""Nine-ball racks from the player model; the calls from the engine (WPA section 2).

The generator reads the engine's state (the balls on the table, the lowest ball, whether a
push out is open, the fouls each side is on) to decide what the striker attempts, draws
what happened, and writes the engine's due call, the warning on two fouls (WPA 6.14), the
choice after a push out (2.4). At the error rate it writes an official's mistake instead,
with its truth: a foul not called, no ball in hand, a loss of rack missed, the 9 not
spotted or another ball spotted, a foul called on a legal shot, a push out allowed late.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import msgspec

from cuelog.replay.model import (
    CONDONED_FOUL,
    FRAME_END_ERROR,
    PUSH_OUT_ERROR,
    RESPOT_IN_ERROR,
    RESPOT_MISSING,
    UNSUPPORTED_FOUL,
    VISITS_ERROR,
    Outcome,
)
from cuelog.replay.pool.nineball import NINE, State
from cuelog.schemas.records import Call, Cushions, FrameEnd, Infringement, Match, Respot, Stroke, other
from cuelog.schemas.rulesets import Ruleset
from cuelog.simulate.clock import MatchClock, iso
from cuelog.simulate.players import Player, pot_chance, shot_seconds
from cuelog.simulate.scribe import Mistakes, Scribe, Truth

if TYPE_CHECKING:
    from cuelog.simulate.season import SeasonConfig

TIERS = (("pro", 0.5), ("amateur", 0.3), ("club", 0.2))
"""Share of each player tier in a season's roster."""
MISTAKES = Mistakes(penalties=(), spotted={}, wrong_spots=(), value={})
KINDS = (
    CONDONED_FOUL,
    VISITS_ERROR,
    FRAME_END_ERROR,
    RESPOT_MISSING,
    RESPOT_IN_ERROR,
    UNSUPPORTED_FOUL,
    PUSH_OUT_ERROR,
)
MAX_STROKES = 300


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
    """Play one rack through the scribe's engine state; returns the winner as recorded."""
    missed_loss = False
    while True:
        st: State = scribe.state
        if st.over:
            return _end(scribe, st, missed_loss=missed_loss)
        striker = st.striker or breaker
        if scribe.n >= MAX_STROKES:
            scribe.event("concede", side=striker)
            scribe.end(other(striker), "concede")
            return other(striker)
        if st.fouls[striker] >= 2 and striker not in st.warned:
            scribe.event("warning", side=striker, reason="three_fouls")  # WPA 6.14
            continue
        player = players[striker]
        n = scribe.n + 1
        t = iso(clock.shot(shot_seconds(rng, player, st.breaking)))
        facts = _facts(st, striker, player, rng, n)
        error = _write(scribe, msgspec.structs.replace(facts, t=t, frame=frame_no))
        missed_loss = missed_loss or error == FRAME_END_ERROR
        if error == RESPOT_MISSING and not scribe.state.over:
            # The referee notices before the next shot and spots the 9 (WPA 1.4).
            scribe.event("spot_correction", ball=NINE, spot="foot")
        after: State = scribe.state
        if after.pusher is not None and not after.over:
            # WPA 2.4: the other player shoots or hands the shot back.
            scribe.choice(other(after.pusher), rng.choice(("play", "return")))


def _facts(st: State, striker: str, player: Player, rng: random.Random, n: int) -> Stroke:
    balls = sorted(st.table, key=int)
    lowest = balls[0]
    if st.breaking:
        potted = rng.sample(balls, rng.choice((0, 1, 1, 2))) if rng.random() < 0.02 else []
        if not potted and rng.random() < 0.5:
            potted = rng.sample([b for b in balls if b != NINE], rng.choice((1, 2)))
        if rng.random() < 0.04:
            potted.append("white")
        cushions = rng.randint(4, 8) if rng.random() < 0.92 else rng.randint(1, 3)
        return Stroke(frame=0, n=n, striker=striker, first=["1"], potted=potted,
                      cushions=Cushions(objects=cushions, after_contact=True), placement="legal")  # fmt: skip
    if st.push_allowed and rng.random() < 0.3:
        return Stroke(frame=0, n=n, striker=striker, first=[rng.choice(balls)], potted=[],
                      cushions=Cushions(after_contact=rng.random() < 0.5), push_out=True)  # fmt: skip
    first, potted, rail = [lowest], [lowest], True
    infringements = None
    off: list[str] = []
    fouls = (1.0 - player.discipline) * 6
    roll = rng.random()
    if roll < fouls * 0.3:
        potted = [lowest, "white"]
    elif roll < fouls * 0.5 and len(balls) > 1:
        first, potted = [balls[-1]], []
    elif roll < fouls * 0.65:
        potted, rail = [], False
    elif roll < fouls * 0.75:
        first, potted = [], []
    elif roll < fouls * 0.8 and len(balls) > 1:
        potted, off = [], [balls[1]]
    elif roll < fouls:
        potted, infringements = [], [Infringement("double_hit")]
    elif NINE in balls and lowest != NINE and rng.random() < 0.04:
        potted = [NINE]  # a combination on the 9
    elif rng.random() > pot_chance(player, rng.uniform(0.1, 0.7)):
        potted = []
    return Stroke(frame=0, n=n, striker=striker, first=first, potted=potted, off_table=off or None,
                  cushions=Cushions(after_contact=rail), infringements=infringements)  # fmt: skip


def _due_call(due: Outcome) -> Call | None:
    if due.loss_of_frame:
        return Call(foul=True, ball_in_hand=True, loss_of_frame=True, reason=due.reasons[0] if due.reasons else None)
    if due.foul:
        return Call(foul=True, ball_in_hand=True, reason=due.reasons[0] if due.reasons else None)
    return None


def _pick(scribe: Scribe, facts: Stroke, due: Outcome) -> str | None:
    st: State = scribe.state
    if due.loss_of_frame:
        return FRAME_END_ERROR if scribe.roll(FRAME_END_ERROR, 10.0) else None
    kinds: list[str] = []
    if due.foul:
        kinds += [CONDONED_FOUL, VISITS_ERROR]
    elif not due.frame_over and not st.breaking and not facts.push_out:
        kinds.append(UNSUPPORTED_FOUL)
        if not st.push_allowed and not facts.potted:
            kinds.append(PUSH_OUT_ERROR)
        if any(b not in ("white", NINE) for b in facts.potted):
            kinds.append(RESPOT_IN_ERROR)
    if due.respots:
        kinds.append(RESPOT_MISSING)
    if scribe.kinds is not None:
        kinds = [k for k in kinds if k in scribe.kinds]
    if kinds and scribe.rate > 0 and scribe.rng.random() < scribe.rate:
        return scribe.rng.choice(kinds)
    return None


def _write(scribe: Scribe, facts: Stroke) -> str | None:
    """Write one stroke with the due calls, or with one injected error; returns its kind."""
    due = scribe.oracle.due(scribe.state, facts)
    call = _due_call(due)
    respots = [Respot(b, s) for b, s in due.respots] if (facts.potted or facts.off_table or due.respots) else None
    error = _pick(scribe, facts, due)
    detail = ""
    if error == CONDONED_FOUL:
        call, detail = None, f"foul ({', '.join(due.reasons)}) not called"
    elif error == VISITS_ERROR:
        call, detail = Call(foul=True, ball_in_hand=False), "cue ball not given in hand"
    elif error == FRAME_END_ERROR:
        call, detail = Call(foul=True, ball_in_hand=True), "third foul after the warning: rack not ended"
    elif error == UNSUPPORTED_FOUL:
        call, detail = Call(foul=True, ball_in_hand=True), "foul called on a legal shot"
    elif error == PUSH_OUT_ERROR:
        facts, detail = msgspec.structs.replace(facts, push_out=True), "push out allowed after the second shot"
    elif error == RESPOT_MISSING:
        respots, detail = [], "9 not spotted"
    elif error == RESPOT_IN_ERROR:
        ball = next(b for b in facts.potted if b not in ("white", NINE))
        respots, detail = [*(respots or []), Respot(ball, "foot")], f"{ball} spotted"
    record = msgspec.structs.replace(facts, call=call, respots=respots)
    scribe.state, _, findings = scribe.oracle.apply(scribe.state, record)
    scribe.records.append(record)
    scribe.n = facts.n
    if error is not None:
        scribe.truth.append(Truth(scribe.match_id, scribe.frame, facts.n, error, detail))
    if scribe.check:
        scribe._expect(findings, None if error == FRAME_END_ERROR else error)
    return error


def _end(scribe: Scribe, st: State, *, missed_loss: bool) -> str:
    """The rack's end as recorded; a missed loss of rack is recorded to the offender."""
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
