"""The rules of WPA nine-ball a ruleset may change (:class:`Edition`), each with its rule.

The engine, :mod:`cuelog.replay.pool.nineball`, holds the editions (``EDITIONS``); the class is
here for the compiled build, for the reason :mod:`cuelog.replay.billiards_editions` gives.
"""

from __future__ import annotations

from dataclasses import dataclass

from cuelog.replay.params import param

__all__ = ["Edition"]


@dataclass(frozen=True, slots=True)
class Edition:
    """The rules of WPA nine-ball (seed 000 section 2) a ruleset file may change, each with
    its rule."""

    name: str
    break_rails: int = param(
        4,
        rule="WPA 2.3(b)",
        meaning="With no ball pocketed on the break, at least this many object balls must be driven to one or more rails, or the break is a foul.",
    )
    three_point_break: bool = param(
        False,
        rule="WPA 2.3(c)",
        meaning="The optional Three Point Break Rule: with no ball pocketed on the break, three object balls must cross the head string, or the break is considered a dry break (read from the break's rest positions; docs/rulings.md N7).",
    )
    push_out: bool = param(
        True,
        rule="WPA 2.4",
        meaning="The shot after a break without a foul may be declared a push out: 6.2 and 6.3 suspended, the other player chooses who shoots next.",
    )
    serious_fouls: int = param(
        3,
        rule="WPA 6.14, 2.8",
        meaning="Consecutive fouls in one rack that lose it.",
    )
    warning_required: bool = param(
        True,
        rule="WPA 6.14",
        meaning="The last of those fouls loses the rack only when the shooter was warned, on coming to the table, that he was on one foul fewer; without the warning it counts as one fewer.",
    )
