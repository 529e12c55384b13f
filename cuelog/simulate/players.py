"""Players: names and skill levels, and the chance of success a skill gives.

A skill is a few numbers in 0..1; the frame generators turn them into stroke facts. The
tiers are calibrated so that the season resembles the game (see ``tests/sim``): snooker
professionals win most frames in one or two visits of 30-80, billiards club players
average 2-6 points a visit and professionals 30 or more.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

FIRST = (
    "Alan",
    "Barry",
    "Ceri",
    "Dai",
    "Eddie",
    "Fergal",
    "Gary",
    "Hossein",
    "Ian",
    "Jimmy",
    "Kyren",
    "Liang",
    "Mark",
    "Neil",
    "Oliver",
    "Pang",
    "Reanne",
    "Shaun",
    "Tony",
    "Umar",
    "Vicky",
    "Wu",
    "Xiao",
    "Yan",
    "Zak",
    "Ali",
    "Ben",
    "Chris",
    "Dean",
    "Elliot",
    "Fan",
    "Graeme",
)
LAST = (
    "Ashworth",
    "Bingham",
    "Carter",
    "Davis",
    "Evans",
    "Foulds",
    "Gilbert",
    "Higgins",
    "Irwin",
    "Jones",
    "Kumar",
    "Lisowski",
    "Murphy",
    "Noppon",
    "O'Brien",
    "Perry",
    "Robertson",
    "Stevens",
    "Taylor",
    "Un-Nooh",
    "Vahedi",
    "Walden",
    "Xu",
    "Yuan",
    "Zhou",
    "Allen",
    "Brecel",
    "Cope",
)


@dataclass(frozen=True, slots=True)
class Player:
    """A player and their skills, each in 0..1.

    ``pot``: success on an easy pot; ``position``: how well the cue ball is left for the
    next shot; ``safety``: how hard the safeties are to answer; ``escape``: hitting the
    ball on when snookered; ``discipline``: how rarely they foul; ``pace``: mean seconds
    per shot.
    """

    name: str
    tier: str
    pot: float
    position: float
    safety: float
    escape: float
    discipline: float
    pace: float


# Tier -> (pot, position, safety, escape, discipline, pace) centres; players vary around them.
TIERS: dict[str, tuple[float, float, float, float, float, float]] = {
    "pro": (0.955, 0.80, 0.78, 0.80, 0.992, 22.0),
    "amateur": (0.90, 0.64, 0.55, 0.62, 0.975, 26.0),
    "club": (0.80, 0.42, 0.35, 0.45, 0.95, 30.0),
}


def make_player(rng: random.Random, tier: str, used: set[str]) -> Player:
    """A player of ``tier`` with a fresh name and skills scattered around the tier centre."""
    while True:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name not in used:
            used.add(name)
            break
        if len(used) >= len(FIRST) * len(LAST):  # pragma: no cover - more players than names
            name = f"{name} {len(used)}"
            used.add(name)
            break
    pot, position, safety, escape, discipline, pace = TIERS[tier]

    def jitter(v: float, spread: float) -> float:
        return min(0.995, max(0.05, v + rng.uniform(-spread, spread)))

    return Player(
        name=name,
        tier=tier,
        pot=jitter(pot, 0.012 if tier == "pro" else 0.04),
        position=jitter(position, 0.05),
        safety=jitter(safety, 0.08),
        escape=jitter(escape, 0.08),
        discipline=jitter(discipline, 0.004 if tier == "pro" else 0.015),
        pace=max(8.0, pace + rng.uniform(-5.0, 5.0)),
    )


def pot_chance(player: Player, difficulty: float) -> float:
    """Chance of potting a ball of ``difficulty`` (0 easy .. 1 near impossible).

    The miss rate grows exponentially with difficulty: a professional misses one easy
    pot in twenty-odd but half of the long ones.
    """
    return max(0.0, 1.0 - (1.0 - player.pot) * math.exp(3.2 * difficulty))


def next_difficulty(rng: random.Random, player: Player) -> float:
    """Difficulty of the next shot after a pot: good positional players leave easy ones."""
    mean = 0.05 + 0.5 * (1.0 - player.position)
    return min(1.0, rng.expovariate(1.0 / mean))


def shot_seconds(rng: random.Random, player: Player, hard: bool) -> float:
    """Seconds the striker takes over a shot (the shot clock's reading)."""
    base = player.pace * (1.4 if hard else 0.8)
    return round(max(3.0, rng.lognormvariate(math.log(base), 0.35)), 3)
