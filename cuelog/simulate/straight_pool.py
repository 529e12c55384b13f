"""14.1 continuous games from the player model; calls and scoreboard from the engine.

The generator reads the engine's state (balls on the table, fouls each side is on) to
decide the shot, draws what happened, and writes the engine's due call and the
scoreboard as a correct referee and marker would, with the warning on two fouls (WPA
6.14) and the choice after a breaking foul (4.3(b)). At the error rate it writes one
mistake with its truth: a foul not called, a foul called for the wrong points, a foul
called on a legal shot, a scoreboard slip, a ball not spotted or spotted in error, the
fifteenth ball or the cue ball placed on the wrong spot at a re-rack (WPA 4.8), the cue
ball given in hand or not against 4.9 (6.1, 6.11).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import msgspec

from cuelog.replay.model import (
    CONDONED_FOUL,
    PENALTY_VALUE,
    RESPOT_IN_ERROR,
    RESPOT_MISSING,
    RESPOT_WRONG_SPOT,
    SCORE_MISMATCH,
    UNSUPPORTED_FOUL,
    VISITS_ERROR,
    Outcome,
)
from cuelog.replay.pool.straight_pool import State
from cuelog.replay.pool.table import CENTER, HEAD, Table
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
    PENALTY_VALUE,
    UNSUPPORTED_FOUL,
    SCORE_MISMATCH,
    RESPOT_MISSING,
    RESPOT_IN_ERROR,
    RESPOT_WRONG_SPOT,
    VISITS_ERROR,
)
POCKETS = ("TL", "TR", "ML", "MR", "BL", "BR")
MAX_STROKES = 2000
_INDEX = {"A": 0, "B": 1}


TARGETS = {"pro": 100, "amateur": 60, "club": 40}
"""14.1 game targets by tier (WPA 4: "the required score")."""


def match_settings(config: SeasonConfig, rs: Ruleset, tier: str, rng: random.Random) -> tuple[int, dict[str, object]]:
    """One game to the tier's target unless the season says otherwise."""
    best_of = config.best_of if config.best_of is not None else 1
    return best_of, {"target": config.target if config.target is not None else TARGETS[tier]}


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
    """Play one game to the match's target through the scribe; returns the winner."""
    while True:
        st: State = scribe.state
        if st.over:
            winner = st.winner or "A"
            rec = FrameEnd(scribe.frame, winner, list(scribe.scoreboard), st.end_reason or "target")
            scribe.state, _, findings = scribe.oracle.apply(scribe.state, rec)
            scribe.records.append(rec)
            if scribe.check:
                scribe._expect(findings, None)
            return winner
        striker = st.striker or breaker
        if scribe.n >= MAX_STROKES:
            scribe.event("concede", side=striker)
            scribe.end(other(striker), "concede")
            return other(striker)
        if st.fouls[striker] >= 2 and striker not in st.warned:
            scribe.event("warning", side=striker, reason="three_fouls")  # WPA 6.14
            continue
        player = players[striker]
        t = iso(clock.shot(shot_seconds(rng, player, st.opening)))
        facts = _facts(st, striker, player, rng, scribe.n + 1)
        _write(scribe, msgspec.structs.replace(facts, t=t, frame=frame_no))
        after: State = scribe.state
        if after.break_fouler is not None:
            # WPA 4.3(b): accept the table or have the breaker break again.
            scribe.choice(other(after.break_fouler), rng.choice(("accept", "rerack_opponent")))


def _facts(st: State, striker: str, player: Player, rng: random.Random, n: int) -> Stroke:
    balls = sorted(st.table, key=int)
    if st.opening:
        ok = rng.random() < 0.92
        return Stroke(frame=0, n=n, striker=striker, first=[rng.choice(balls)], potted=[], placement="legal",
                      cushions=Cushions(objects=rng.randint(2, 5) if ok else 1, after_contact=True))  # fmt: skip
    target = rng.choice(balls)
    pocket = rng.choice(POCKETS)
    potted, rail, first = [target], True, [target]
    infringements = None
    fouls = (1.0 - player.discipline) * 5
    roll = rng.random()
    if st.in_hand and rng.random() < 0.15:
        # WPA 6.11: from the kitchen, the cue ball short of the head string.
        potted, infringements = [], [Infringement("head_string_not_crossed")]
    elif roll < fouls * 0.4:
        potted = ["white"]
    elif roll < fouls * 0.7:
        potted, rail = [], False
    elif roll < fouls:
        potted, infringements = [], [Infringement("double_hit")]
    elif rng.random() < 0.05:
        return Stroke(frame=0, n=n, striker=striker, first=first, potted=[], nominated="safety",
                      cushions=Cushions(after_contact=True))  # fmt: skip
    elif rng.random() > pot_chance(player, rng.uniform(0.0, 0.5)):
        potted = []
    elif len(balls) > 2 and rng.random() < 0.08:
        potted = [target, next(b for b in balls if b != target)]
    pockets = [pocket if b == target else rng.choice(POCKETS) for b in potted]
    placement = "legal" if st.in_hand else None
    positions = _rest(rng, balls, potted) if len(balls) == 2 else None
    return Stroke(frame=0, n=n, striker=striker, first=first, potted=potted, pockets=pockets, nominated=target,
                  pocket_called=pocket, cushions=Cushions(after_contact=rail), infringements=infringements,
                  placement=placement, positions=positions)  # fmt: skip


def _rest(rng: random.Random, balls: list[str], potted: list[str]) -> list[tuple[str, float, float]]:
    """Rest positions of the balls left, on the strokes that may pocket the fourteenth ball:
    now and then in the rack area, so that the re-rack rules (WPA 4.8) come into play."""
    table = Table.of(None)
    fx, fy = table.spot("foot")
    out: list[tuple[str, float, float]] = []
    for b in ("white", *balls):
        if b in potted:
            continue
        if rng.random() < 0.35:
            out.append((b, fx + rng.uniform(-50.0, 50.0), fy + rng.uniform(40.0, 150.0)))
        else:
            out.append((b, rng.uniform(40.0, table.width - 40.0), rng.uniform(40.0, fy - 150.0)))
    return out


def _write(scribe: Scribe, facts: Stroke) -> None:
    """Write one stroke: the due call, the respots and the scoreboard, or one mistake."""
    st: State = scribe.state
    before = st.ledger.score()
    due = scribe.oracle.due(st, facts)
    call = None
    if due.foul:
        in_hand = None if st.opening else due.in_hand == "head"
        call = Call(foul=True, points=due.penalty, reason=due.reasons[0], ball_in_hand=in_hand)
    error = _pick(scribe, due, facts)
    detail = ""
    adjust = 0
    if error == CONDONED_FOUL:
        call, detail = None, f"{due.penalty}-point foul ({due.reasons[0]}) not called"
    elif error == PENALTY_VALUE:
        assert call is not None
        wrong = 2 if due.penalty == 1 else 1
        call, adjust, detail = msgspec.structs.replace(call, points=wrong), due.penalty - wrong, f"{wrong} taken off"
    elif error == VISITS_ERROR:
        assert call is not None and call.ball_in_hand is not None
        call, detail = msgspec.structs.replace(call, ball_in_hand=not call.ball_in_hand), "cue ball in hand wrong"
    elif error == UNSUPPORTED_FOUL:
        call, adjust, detail = Call(foul=True, points=1), -1, "foul called on a legal shot"
    made = scribe.oracle.due(st, msgspec.structs.replace(facts, call=call))
    respots = [Respot(b, s) for b, s in made.respots] if (facts.potted or made.respots) else None
    if error == RESPOT_MISSING:
        respots, detail = [], "balls not spotted"
    elif error == RESPOT_IN_ERROR:
        ball = next(b for b in facts.potted if b != "white")
        respots, detail = [*(respots or []), Respot(ball, "foot")], f"{ball} spotted"
    elif error == RESPOT_WRONG_SPOT:
        # WPA 4.8(c),(d): the head spot and the center spot swapped.
        swap = {HEAD: CENTER, CENTER: HEAD}
        respots = [Respot(r.ball, swap.get(r.spot or "", r.spot)) for r in respots or []]
        detail = "re-rack placement on the wrong spot"
    elif error == SCORE_MISMATCH:
        adjust, detail = scribe.rng.choice((-1, 1, 2)), "scoreboard slip"
    i = _INDEX[facts.striker]
    moved = [made.score[0] - before[0], made.score[1] - before[1]]
    moved[i] += adjust
    scribe.scoreboard[0] += moved[0]
    scribe.scoreboard[1] += moved[1]
    record = msgspec.structs.replace(facts, call=call, respots=respots, score=list(scribe.scoreboard))
    scribe.state, _, findings = scribe.oracle.apply(st, record)
    scribe.records.append(record)
    scribe.n = facts.n
    if error is not None:
        scribe.truth.append(Truth(scribe.match_id, scribe.frame, facts.n, error, detail))
    if scribe.check:
        scribe._expect(findings, error)


def _pick(scribe: Scribe, due: Outcome, facts: Stroke) -> str | None:
    st: State = scribe.state
    kinds: list[str] = []
    if due.foul:
        kinds += [CONDONED_FOUL, PENALTY_VALUE]
        if not st.opening:
            kinds.append(VISITS_ERROR)
    elif not st.opening and not due.frame_over:
        kinds.append(UNSUPPORTED_FOUL)
        if due.scored > 0:
            kinds += [SCORE_MISMATCH, RESPOT_IN_ERROR]
    if due.respots and not due.foul:
        kinds.append(RESPOT_MISSING)
    if any(spot in (HEAD, CENTER) for _, spot in due.respots):
        kinds.append(RESPOT_WRONG_SPOT)
    if due.frame_over:
        kinds = [k for k in kinds if k in (SCORE_MISMATCH,)]
    if scribe.kinds is not None:
        kinds = [k for k in kinds if k in scribe.kinds]
    if kinds and scribe.rate > 0 and scribe.rng.random() < scribe.rate:
        return scribe.rng.choice(kinds)
    return None


__all__ = ["KINDS", "MISTAKES", "play_frame"]
