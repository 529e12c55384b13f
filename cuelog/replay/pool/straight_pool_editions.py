"""The numbers of WPA 14.1 a ruleset may change (:class:`Edition`), each with its rule.

The engine, :mod:`cuelog.replay.pool.straight_pool`, holds the editions (``EDITIONS``); the class is
here for the compiled build, for the reason :mod:`cuelog.replay.billiards_editions` gives.
"""

from __future__ import annotations

from dataclasses import dataclass

from cuelog.replay.params import param

__all__ = ["Edition"]


@dataclass(frozen=True, slots=True)
class Edition:
    """The numbers of WPA 14.1 (seed 000 section 4), each with its rule."""

    name: str
    standard_foul: int = param(
        1,
        rule="WPA 4.9",
        meaning="Points a standard foul takes off the offender's score.",
    )
    breaking_foul: int = param(
        2,
        rule="WPA 4.3(b), 4.10",
        meaning="Points a breaking foul takes off the breaker's score; it does not count toward the three fouls (4.11).",
    )
    break_rails: int = param(
        2,
        rule="WPA 4.3(b)",
        meaning="With no called ball pocketed on the opening break, this many object balls (and the cue ball) must each be driven to a rail, or the shot is a breaking foul.",
    )
    serious_fouls: int = param(
        3,
        rule="WPA 4.11, 6.14",
        meaning="Consecutive standard fouls that make a serious foul: the additional penalty, the fifteen balls re-racked and the offender breaking under the opening break rules.",
    )
    serious_penalty: int = param(
        15,
        rule="WPA 4.11",
        meaning="Points the serious foul takes off in addition to the standard foul's own.",
    )
    warning_required: bool = param(
        True,
        rule="WPA 6.14",
        meaning="The serious foul needs the warning that the shooter is on one foul fewer when he comes to the table; without it the foul counts as one fewer.",
    )
    target: int | None = param(
        None,
        rule="WPA 4",
        meaning="The required score for a match record without a target; none: the match's target only.",
    )
