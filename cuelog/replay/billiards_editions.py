"""The parameters in which the billiards rule books differ (:class:`Edition`), each with its rule.

Kept apart from the engine (:mod:`cuelog.replay.billiards`, which holds the editions
themselves in ``EDITIONS``): the engine modules can be compiled ahead of time
(``benchmarks/compile_engines.py``), and a parameter declared with :func:`param` is a
``dataclasses.Field`` until the dataclass is made, which a compiled class cannot hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cuelog.replay.params import param, required

__all__ = ["Edition"]


@dataclass(frozen=True, slots=True)
class Edition:
    """What differs between the billiards rule books, as data."""

    name: str
    fouls: Mapping[str, str] = required(
        rule="S3 R15", meaning="Foul code -> citation; a code absent here is not a foul in this edition."
    )
    cite: Mapping[str, str] = required(rule="-", meaning="Concept -> citation (scoring, miss, spotting, ...).")
    miss_is_foul: bool = param(
        False, rule="1R 2.11(15)", meaning="Missing all object balls is a foul; no non-foul miss."
    )
    baulk_line: bool | None = param(
        False,
        rule="S3 R8",
        meaning="The baulk-line crossing rule: None absent from the edition; false applied when the match"
        " says baulk_line: true; true applied unless the match says false.",
    )
    crossing_on_line_counts: bool = param(
        False,
        rule="S3 R8(b)",
        meaning="Resting centrally on the line counts as a crossing (B24 S3 R8(b): it does not; 1R 2.13.1: it does).",
    )
    sequence_fallback_resets: bool = param(
        True,
        rule="S3 R9(b)(ii)",
        meaning="The Red put back on the Spot when Centre and Pyramid are occupied is not part of a"
        " sequence. The older text says nothing of it.",
    )
    concede_striker_only: bool = param(
        False, rule="older S4 R6", meaning="Only the striker may concede (B24 S4 R4: any player)."
    )
    wrong_ball_opening_void: bool = param(
        False,
        rule="older S3 R2",
        meaning="An opening stroke with the wrong white is void (B24 S3 R2(c): the striker's"
        " responsibility, so a foul, S3 R15(a)).",
    )
    touching_by_consent: bool = param(
        False,
        rule="1R 2.10",
        meaning='The touching-ball re-spot is made "with the consent of both players".',
    )
