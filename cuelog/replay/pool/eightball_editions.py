"""The parameters in which the eight-ball rule books differ (:class:`Edition`), each with its rule.

The engine, :mod:`cuelog.replay.pool.eightball`, holds the editions (``EDITIONS``); the class is
here for the compiled build, for the reason :mod:`cuelog.replay.billiards_editions` gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from cuelog.replay.params import param
from cuelog.replay.pool.common import TWO_VISITS

__all__ = ["Edition"]


@dataclass(frozen=True, slots=True)
class Edition:
    """The parameters in which the eight-ball editions differ. Defaults: World 2015."""

    name: str
    prefix: str = "WE"
    """How the rules of the edition are cited: ``WE F(4)(a)``, ``EPF S``, ``WPA 3.3(e)``, ``BB 5.13``."""
    numbered: bool = param(
        False,
        rule="WPA 3.2; WE B(2)",
        meaning="Balls numbered 1-15, groups solids and stripes (WPA 3.2); else red, yellow, black (WE B(2)).",
    )
    penalty: str = param(
        TWO_VISITS,
        rule="WE K; WPA 3.9; BB 5.13",
        meaning="After a standard foul: two visits (WE K), ball in hand anywhere (WPA 3.9), one free shot (BB 5.13).",
    )
    break_pots_or_cushions: bool = param(
        True,
        rule="WE F(4)(a); WPA 3.3(d); BB 5.5(b)",
        meaning="A fair break pots a ball or drives four object balls to a cushion (WE F(4)(a), WPA 3.3(d)); black ball instead: a ball pocketed or two object balls across the centre string (BB 5.5(b)).",
    )
    bad_break: str = param(
        "rerack_opponent",
        rule="WE F(4)(b); WPA 3.3(d); BB 5.5(b)",
        meaning="After a bad break: two visits and the opponent re-breaks (WE F(4)(b)); the incoming player's options (``options``, WPA 3.3(d)); a standard foul (``foul``, BB 5.5(b), 5.13).",
    )
    black_on_break_rerack: bool = param(
        True,
        rule="WE F(5); BB 5.5(c); WPA 3.3(e)",
        meaning="The black potted on the break: re-rack, same breaker (WE F(5), BB 5.5(c)); WPA 3.3(e),(f): options.",
    )
    call_shot: bool = param(
        False,
        rule="WPA 3.6",
        meaning="Every shot but the break is called, ball and pocket (WPA 3.6, 1.6).",
    )
    groups_by: str = param(
        "nomination",
        rule="WE H; WPA 3.4; BB 5.6",
        meaning="Groups: the single colour potted or the player's nomination (WE H); the called ball legally pocketed (``called``, WPA 3.4); pots of one group only on a normal shot (``one_group``, BB 5.6).",
    )
    opponent_ball_foul: str = param(
        "always",
        rule="WE K(3); BB 5.13.1",
        meaning="Potting an opponent's ball: a foul (WE K(3)); ``without_own`` (BB 5.13.1); ``never`` (WPA).",
    )
    rail_needs_ball_on: bool = param(
        True,
        rule="WE G(1)(b); WPA 6.3",
        meaning="A legal shot pots a ball on or sends a ball to a cushion (WE G(1)(b)); WPA 6.3: any pot will do.",
    )
    black_with_last_loses: bool = param(
        True,
        rule="WE M(3); WPA 3.6; BB 5.14(b)",
        meaning="The black and the last own ball(s) in one shot lose (WE M(3); WPA 3.6, 3.8(b)); BB 5.14(b) does not.",
    )
    black_off_table_loses: bool = param(
        False,
        rule="WPA 3.8(d); WE S",
        meaning="The black driven off the table loses (WPA 3.8(d)); else it is spotted after the foul (WE S).",
    )
    black_uncalled_pocket_loses: bool = param(
        False,
        rule="WPA 3.8(c)",
        meaning="The black in a pocket other than the called one loses (WPA 3.8(c)).",
    )
    spot_objects: bool = param(
        True,
        rule="WE S(3)(b); BB 5.11; WPA 3.7",
        meaning="Object balls off the table are spotted (WE S(3)(b), BB 5.11); WPA 3.7: they stay off.",
    )
    spot_next_group_first: bool = param(
        False,
        rule="BB 5.11; WE S(2)(e)",
        meaning="Spotting order: black, the next shooter's group, the rest (BB 5.11); else black, reds, yellows (WE S(2)(e)).",
    )
    scratch_in_hand: str = param(
        "baulk",
        rule="WE K(1); WPA 3.9",
        meaning="Where the cue ball is played from after an in-off: Baulk (WE K(1), S(3)(a)), anywhere (WPA 3.9).",
    )
    snooker_relief: bool = param(
        True,
        rule="WE G(3)(b); BB 5.10",
        meaning="A ruled snooker waives the pot-or-cushion requirement (WE G(3)(b), BB 5.10); WPA: none.",
    )
    total_snooker_from_positions: bool = param(
        True,
        rule="WE G(3)(b)(i)",
        meaning="A Total Snooker is also read from the rest positions where they are given (WE G(3)(b)(i)).",
    )
    foul_snooker: bool = param(
        True,
        rule="WE P",
        meaning="After a foul the referee may rule a Foul Snooker: a nominated ball is on (WE P).",
    )
    shot_clock_s: float | None = param(
        60.0,
        rule="WE I(1); WPA 6.15",
        meaning="The time allowed for a shot (WE I(1)); ``None``: only a clock reading's ``limit_s`` (WPA 6.15).",
    )
    in_off_fair_break_one_visit: bool = param(
        True,
        rule="WE F(4)(c)(i)",
        meaning="The cue ball potted on a fair break passes the turn, one visit (WE F(4)(c)(i)).",
    )
    fouls: Mapping[str, str] = field(default_factory=dict)
    """docs/format.md ``infringements`` codes that are fouls in this edition, and their rules."""
    cite: Mapping[str, str] = field(default_factory=dict)
    """Where each concept is in the rule book."""
