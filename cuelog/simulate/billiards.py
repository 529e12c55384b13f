"""English billiards games from the player model: the facts of each stroke.

The generator's own table says only which balls are on the table and whether the striker
is in hand; the engine decides points, fouls, the red's spot and when the game is won.
A player in a break mixes pots, in-offs and cannons and, like a professional, plays a
cannon before the hazards limit and a hazard before the cannons limit (S3 R10, R11) so
that a correct log never breaks them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cuelog.replay.model import LIMIT_EXCEEDED
from cuelog.schemas.records import Cushions, Infringement, Match, Stroke, other
from cuelog.schemas.rulesets import Ruleset
from cuelog.simulate.clock import MatchClock, iso
from cuelog.simulate.players import Player, shot_seconds
from cuelog.simulate.scribe import Mistakes, Scribe

if TYPE_CHECKING:
    from cuelog.simulate.season import SeasonConfig

MISTAKES = Mistakes(
    penalties=(1, 3, 4),
    spotted={"white": "pyramid", "yellow": "pyramid"},
    # The red's spots are a chain (S3 R9(a)); a ball placed on the middle of the
    # Baulk-line is off the chain whatever the table.
    wrong_spots=("baulk_middle",),
    value={"red": 3, "white": 2, "yellow": 2},
)
DEFAULT_CUE_BALLS = {"A": "white", "B": "yellow"}
_INDEX = {"A": 0, "B": 1}
# Hazards and cannons a player makes in a row before changing the type of stroke: the
# limits are fifteen hazards and seventy-five cannons (S3 R10, R11).
HAZARD_LIMIT = 15
CANNON_MARGIN = 60
# Share of each tier in a season's roster, and each tier's game target.
TIERS = (("pro", 0.4), ("amateur", 0.3), ("club", 0.3))
TARGETS = {"pro": 400, "amateur": 150, "club": 100}


def match_settings(config: SeasonConfig, rs: Ruleset, tier: str, rng: random.Random) -> tuple[int, dict[str, object]]:
    """One game to the tier's target unless the season says otherwise."""
    best_of = config.best_of if config.best_of is not None else 1
    return best_of, {"target": config.target if config.target is not None else TARGETS[tier]}


def scoring_chance(player: Player) -> float:
    """Chance a stroke in a break scores. A visit of k scoring strokes averages about 2.7
    points a stroke, so the average per visit is 2.7 p / (1 - p): club players (p near
    0.6) make 2-6 points a visit, professionals (p near 0.93) 30 and more."""
    return {"pro": 0.925, "amateur": 0.8, "club": 0.6}[player.tier] + (player.pot - 0.9) * 0.5


@dataclass(slots=True)
class Layout:
    """Balls on the table (the red and the cue balls) and whether the striker is in hand."""

    on: set[str]
    in_hand: bool = True


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
    cue = dict(match.cue_balls or DEFAULT_CUE_BALLS)
    # The opponent's ball is not on the table at the start (S3 R2(b)).
    layout = Layout(on={"red", cue[breaker]}, in_hand=True)
    striker = breaker
    hazards = cannons = 0
    first_visit = {breaker}
    while True:
        player = players[striker]
        mine, theirs = cue[striker], cue[other(striker)]
        if striker not in first_visit:
            first_visit.add(striker)
            layout.on.add(mine)
            layout.in_hand = True
        if mine not in layout.on:
            layout.on.add(mine)
            layout.in_hand = True
        n = scribe.n + 1
        objects = [b for b in ("red", theirs) if b in layout.on]
        p = scoring_chance(player)
        first: list[str]
        then: list[str] = []
        potted: list[str] = []
        infringements = None
        cushions = Cushions(objects=1, after_contact=True, cue_first=False)
        want_cannon = hazards >= HAZARD_LIMIT
        want_hazard = cannons >= CANNON_MARGIN
        force = None
        if want_cannon and scribe.roll(LIMIT_EXCEEDED, 10.0):
            # A sixteenth hazard the referee lets pass (S3 R11(b)).
            want_cannon, force = False, LIMIT_EXCEEDED
        if force is not None or (rng.random() < p and (theirs in layout.on or not want_cannon)):
            kinds = ["pot_red", "in_off_red"]
            weights = [5, 4]
            if theirs in layout.on:
                kinds += ["cannon", "pot_white", "in_off_white", "cannon_pot_red"]
                weights += [6, 1, 1, 1]
            if want_cannon and theirs in layout.on:
                kinds, weights = ["cannon"], [1]
            elif want_hazard or force is not None:
                kinds, weights = ["pot_red"], [1]
            kind = rng.choices(kinds, weights)[0]
            if kind == "pot_red":
                first, potted = ["red"], ["red"]
            elif kind == "in_off_red":
                first, potted = ["red"], [mine]
            elif kind == "cannon":
                a = rng.choice(objects)
                first, then = [a], [b for b in objects if b != a]
            elif kind == "pot_white":
                first, potted = [theirs], [theirs]
            elif kind == "in_off_white":
                first, potted = [theirs], [mine]
            else:
                first, then, potted = [theirs], ["red"], ["red"]
        else:
            first = [rng.choice(objects)]
            if not layout.in_hand and rng.random() < (1.0 - player.discipline) * 2:
                first = []  # missed both object balls: a foul (S3 R15(o))
        if rng.random() < (1.0 - player.discipline) * 0.2 and force is None:
            infringements = [Infringement(rng.choice(("push_stroke", "double_hit")))]
        facts = Stroke(
            frame=frame_no,
            n=n,
            striker=striker,
            first=first,
            potted=potted,
            then=then,
            cushions=cushions,
            placement="legal" if layout.in_hand else None,
            infringements=infringements,
            t=iso(clock.shot(shot_seconds(rng, player, layout.in_hand))),
        )
        written = scribe.stroke(facts, force=force, cue=mine)
        rec, out = written.record, written.outcome
        fouled = rec.call is not None and rec.call.foul
        for b in rec.potted:
            layout.on.discard(b)
        for r in rec.respots or []:
            layout.on.add(r.ball)
        layout.in_hand = mine in rec.potted
        if out.frame_over:
            winner = out.winner or ("A" if scribe.scoreboard[0] >= scribe.scoreboard[1] else "B")
            scribe.end(winner, "target")
            return winner
        for ball in written.missing:
            # The referee notices before the next stroke and spots the ball (S3 R9(h)).
            scribe.event("spot_correction", ball=ball, spot="spot")
            layout.on.add(ball)
        for ball in written.extra:
            scribe.event("spot_correction", ball=ball, remove=True)
            layout.on.discard(ball)
        hazard = bool(rec.potted) and not fouled
        cannon = bool(rec.then) and not fouled
        if cannon:
            hazards = 0
            cannons = cannons + 1 if not hazard else 0
        elif hazard:
            hazards += 1
            cannons = 0
        if out.next_striker == striker and not out.turn_ends:
            continue
        hazards = cannons = 0
        incoming = out.next_striker or other(striker)
        if fouled and rng.random() < 0.3:
            # The incoming player takes the balls spotted and plays from hand (S3 R16(c)(ii)).
            clock.wait(rng.uniform(10, 30))
            scribe.choice(incoming, "spot_play")
            layout.on |= {"red", mine}
            layout.in_hand = True
            striker = incoming
            layout.on.add(cue[striker])
            first_visit.add(striker)
            continue
        striker = incoming
        layout.in_hand = cue[striker] not in layout.on


__all__ = ["MISTAKES", "play_frame"]
