"""Snooker frames from the player model: the facts of each stroke.

The generator keeps a small table of its own (reds left, colours on the table, whether
the striker is on a colour) because a player chooses a shot *before* it is played;
everything the rules decide (points, fouls, penalty values, re-spots, FOUL AND A MISS,
who plays next, when the frame is over) comes from the engine through the scribe.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from cuelog.replay.model import FRAME_END_ERROR
from cuelog.schemas.records import Cushions, Infringement, Match, Stroke, other
from cuelog.schemas.rulesets import Ruleset
from cuelog.simulate.clock import MatchClock, iso
from cuelog.simulate.players import Player, next_difficulty, pot_chance, shot_seconds
from cuelog.simulate.scribe import Mistakes, Scribe

if TYPE_CHECKING:
    from cuelog.simulate.season import SeasonConfig

COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
VALUE = {"red": 1, "yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}
# A colour spotted by mistake goes on its own spot; a wrong spot is another colour's.
MISTAKES = Mistakes(
    penalties=(4, 5, 6, 7),
    spotted={c: c for c in COLOURS},
    wrong_spots=COLOURS,
    value=VALUE,
)
# How a professional chooses the colour after a red: the black when the cue ball allows.
COLOUR_WEIGHTS = {"black": 55, "pink": 22, "blue": 14, "brown": 4, "green": 3, "yellow": 2}
_INDEX = {"A": 0, "B": 1}
Fix = tuple[tuple[str, ...], tuple[str, ...]]
# Share of each tier in a season's roster.
TIERS = (("pro", 0.75), ("amateur", 0.25))


def match_settings(config: SeasonConfig, rs: Ruleset, tier: str, rng: random.Random) -> tuple[int, dict[str, object]]:
    """Best of 7 with 15 reds unless the season says otherwise; a ``reds`` of 0 draws a
    short frame for the match."""
    extra: dict[str, object] = {}
    best_of = config.best_of if config.best_of is not None else 7
    reds = config.reds
    if reds is None and rs.edition == "six-reds-2024":
        reds = 6  # S3 R19: written in the match so that the table model and the engine agree
    if reds == 0:
        reds = rng.choice((3, 6, 6, 10, 15))
    if reds is not None and (reds != 15 or rs.edition == "six-reds-2024"):
        extra["reds"] = reds
    return best_of, extra


@dataclass(frozen=True, slots=True)
class Table:
    """What the striker sees: reds left, colours on the table, on a colour or not."""

    reds: int
    colours: tuple[str, ...]
    colour_on: bool = False

    def target(self) -> str:
        """``red``, ``colour`` (any colour, after a red) or the colour next in sequence."""
        if self.colour_on:
            return "colour"
        if self.reds > 0:
            return "red"
        return self.colours[0] if self.colours else "black"

    def points_left(self) -> int:
        """An upper bound of the points still on the table (8 a red with its black)."""
        return 8 * self.reds + sum(VALUE[c] for c in self.colours) + (7 if self.colour_on else 0)

    def after(self, gone: list[str], spotted: list[str]) -> Table:
        """The table once ``gone`` left it and ``spotted`` were placed on it."""
        reds = self.reds - gone.count("red") + spotted.count("red")
        colours = {c for c in self.colours if c not in gone} | {c for c in spotted if c in COLOURS}
        return Table(reds, tuple(sorted(colours, key=VALUE.__getitem__)), self.colour_on)


@dataclass(slots=True)
class Situation:
    """What the striker faces: how hard the shot is, a snooker, a free ball, in hand."""

    difficulty: float = 0.5
    snookered: bool = False
    free_ball: bool = False
    in_hand: bool = False


def _choose_colour(rng: random.Random, table: Table, player: Player) -> str:
    on = list(table.colours)
    if player.tier == "pro":
        weights = [COLOUR_WEIGHTS[c] for c in on]
    else:
        # Weaker players take the easier, lower colours more often.
        weights = [COLOUR_WEIGHTS[c] * (1 if c in ("black", "pink") else 2) + 6 for c in on]
    return rng.choices(on, weights)[0]


def _wrong_ball(rng: random.Random, table: Table, on: str) -> list[str]:
    """What a striker who fails to hit the ball on hits instead (or nothing at all)."""
    choices = [c for c in table.colours if c != on]
    if on != "red" and table.reds > 0:
        choices.append("red")
    if not choices or rng.random() < 0.35:
        return []
    return [rng.choice(choices)]


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
    """Play one frame through the scribe; returns the winner."""
    reds = match.reds if match.reds is not None else 15
    table = Table(reds, COLOURS)
    striker = breaker
    sit = Situation(difficulty=1.0, in_hand=True)
    visit_side: str | None = None
    replays = 0
    break_off = True
    while True:
        player = players[striker]
        if striker != visit_side:
            visit_side = striker
            ended = _concede_or_claim(rng, scribe, table, striker, sit)
            if ended is not None:
                return ended
        on = table.target()
        nominated: str | None = None
        potted: list[str] = []
        cushions: Cushions | None = None
        taking_free_ball = False
        snookered_after = False
        potted_on = False
        hard = sit.difficulty > 0.5 or sit.snookered
        target = _choose_colour(rng, table, player) if on == "colour" else on
        if on == "colour":
            nominated = target  # the colour is declared (S2 R12)
        if break_off:
            break_off = False
            first = ["red"]
            cushions = Cushions(objects=2, after_contact=True, cue_first=False)
            next_sit = Situation(difficulty=0.5 + 0.45 * player.safety * rng.random())
        elif sit.snookered:
            if rng.random() < 0.3 + 0.5 * player.escape:
                first = [target]
                cushions = Cushions(objects=1, after_contact=True, cue_first=True)
                next_sit = Situation(difficulty=rng.uniform(0.25, 0.95))
            else:
                first = _wrong_ball(rng, table, target)
                next_sit = Situation(difficulty=rng.uniform(0.2, 0.8))
                # The incoming player may be snookered in turn: FREE BALL (S3 R12).
                snookered_after = rng.random() < 0.25 and len(table.colours) + table.reds > 2
        else:
            if sit.free_ball:
                balls = [c for c in table.colours if c != on]
                if balls:
                    target = rng.choice(balls)
                    nominated = target
                    taking_free_ball = True
            p = pot_chance(player, sit.difficulty)
            attempt = p >= (0.62 if player.tier == "pro" else 0.4) or rng.random() < 0.12
            first = [target]
            if attempt:
                if rng.random() < p:
                    potted = [target]
                    potted_on = True
                    if target == "red" and table.reds >= 2 and rng.random() < 0.015:
                        potted = ["red", "red"]
                    if rng.random() < 0.004:
                        potted.append("white")  # in-off after the pot
                    next_sit = Situation(difficulty=next_difficulty(rng, player))
                else:
                    if rng.random() < 0.03:
                        potted = ["white"]
                    next_sit = Situation(difficulty=rng.uniform(0.1, 0.7))
            else:
                cushions = Cushions(objects=1, after_contact=True, cue_first=False)
                if rng.random() < 0.06 + 0.22 * player.safety:
                    next_sit = Situation(difficulty=1.0, snookered=True)
                else:
                    next_sit = Situation(difficulty=0.5 + 0.45 * player.safety * rng.random())
        infringements = None
        if not potted_on and rng.random() < (1.0 - player.discipline) * 0.25:
            infringements = [Infringement(rng.choice(("push_stroke", "double_hit", "touched_ball")))]
        t = clock.shot(shot_seconds(rng, player, hard))
        facts = Stroke(
            frame=frame_no,
            n=scribe.n + 1,
            striker=striker,
            first=first,
            potted=potted,
            t=iso(t),
            nominated=nominated,
            cushions=cushions,
            placement="legal" if sit.in_hand else None,
            infringements=infringements,
        )
        before = table
        # On the last black a tie re-spots it (S3 R4(b)): no respot error can be told apart there.
        last_black = table.reds == 0 and table.colours == ("black",)
        written = scribe.stroke(
            facts, free_ball=snookered_after, taking_free_ball=taking_free_ball, allow_errors=not last_black
        )
        out, rec = written.outcome, written.record
        table = table.after(rec.potted, [r.ball for r in rec.respots or []])
        if out.frame_over:
            winner = out.winner or other(striker)
            fouled = rec.call is not None and rec.call.foul
            reason = "foul" if fouled else "pot" if "black" in rec.potted else "award"
            scribe.end(winner, reason)
            return winner
        if written.missing or written.extra:
            # The referee notices before the next stroke and corrects the table (S3 R7(b),(c)).
            table = _fix(scribe, table, (written.missing, written.extra))
        if (not table.colours and table.reds == 0) or out.next_striker is None:
            # Scores tied on the last black, by its pot or by a foul (the engine then names
            # nobody to play): it is re-spotted, the player to play drawn by lot, in hand
            # (S3 R4(a),(b)).
            striker = rng.choice(("A", "B"))
            scribe.event("respot_black", side=striker)
            table = Table(0, ("black",))
            sit = Situation(difficulty=0.6, in_hand=True)
            visit_side = None
            continue
        fouled = rec.call is not None and rec.call.foul
        if out.next_striker == striker and not out.turn_ends:
            on_red = before.target() == "red"
            colour_on = on_red and not fouled and ("red" in rec.potted or (taking_free_ball and potted_on))
            table = replace(table, colour_on=colour_on)
            sit = next_sit
            continue
        table = replace(table, colour_on=False)
        incoming = out.next_striker or other(striker)
        miss_called = fouled and rec.call is not None and rec.call.miss
        if miss_called and replays < 2 and rng.random() < 0.8:
            # FOUL AND A MISS: the incoming player has the balls replaced and the
            # offender plays again from the original position (S3 R14(b)).
            replays += 1
            clock.wait(rng.uniform(20, 50))
            scribe.choice(incoming, "replace_return")
            table = before
            sit = Situation(difficulty=sit.difficulty, snookered=sit.snookered, in_hand=sit.in_hand)
            continue
        replays = 0
        free_ball = bool(fouled and rec.call is not None and rec.call.free_ball)
        sit = next_sit
        if free_ball:
            sit = Situation(difficulty=rng.uniform(0.2, 0.6), free_ball=True)
        sit.in_hand = "white" in rec.potted
        striker = incoming


def _concede_or_claim(rng: random.Random, scribe: Scribe, table: Table, striker: str, sit: Situation) -> str | None:
    """At the start of a visit: concede when needing snookers (S4 R2), claim with the black
    alone left and more than seven ahead (S2 R1(b)). Returns the winner if the frame ends."""
    i = _INDEX[striker]
    lead = scribe.official[i] - scribe.official[1 - i]
    if -lead > table.points_left() and rng.random() < 0.75:
        scribe.event("concede", side=striker)
        scribe.end(other(striker), "concede")
        return other(striker)
    if table.reds == 0 and table.colours == ("black",) and lead > 7 and rng.random() < 0.6:
        scribe.event("claim", side=striker)
        scribe.end(striker, "claim")
        return striker
    if table.reds == 0 and len(table.colours) > 1 and lead > 7 and scribe.roll(FRAME_END_ERROR, 5.0):
        # An invalid claim: more than the black is left (S2 R1(b)); the referee accepts it.
        scribe.inject(FRAME_END_ERROR, f"claim with {', '.join(table.colours)} on the table")
        scribe.event("claim", expect=FRAME_END_ERROR, side=striker)
        scribe.end(striker, "claim")
        return striker
    return None


def _fix(scribe: Scribe, table: Table, fix: Fix) -> Table:
    missing, extra = fix
    for ball in missing:
        scribe.event("spot_correction", ball=ball, spot=ball)  # S3 R7(c)(i)
    for ball in extra:
        scribe.event("spot_correction", ball=ball, remove=True)  # S3 R7(b)
    return table.after(list(extra), list(missing))


__all__ = ["COLOURS", "MISTAKES", "VALUE", "Table", "play_frame"]
