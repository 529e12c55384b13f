"""The parameters in which the snooker editions differ (:class:`Edition`), each with its rule.

Kept apart from the engine (:mod:`cuelog.replay.snooker`, which holds the editions
themselves in ``EDITIONS``): the engine modules can be compiled ahead of time
(``benchmarks/compile_engines.py``), and a parameter declared with :func:`param` is a
``dataclasses.Field`` until the dataclass is made, which a compiled class cannot hold.
"""

from __future__ import annotations

from dataclasses import dataclass

from cuelog.replay.params import param

__all__ = ["Edition"]


@dataclass(frozen=True, slots=True)
class Edition:
    """The parameters in which the snooker editions differ. The defaults are WPBSA 2024."""

    name: str
    reds: int = param(
        15, rule="S3 R21(c)", meaning="Reds at the start of a frame unless the match or frame says otherwise."
    )
    pen: str = param(
        "S3 R11", rule="S3 R11", meaning="Where the penalty values are (the older edition numbers them S3 R12)."
    )
    free_ball: str = param(
        "S3 R12", rule="S3 R12", meaning="Where the free-ball rule is (the older edition numbers it S3 R10)."
    )
    minimum: int = param(4, rule="S3 R11", meaning='The minimum penalty ("four penalty points unless higher").')
    miss_rule: bool = param(True, rule="S3 R14", meaning="FOUL AND A MISS exists (not in the shootout, SO 19(i)).")
    miss_award: bool = param(True, rule="S3 R14(d)(ii)", meaning="A further failure after the Warning loses the frame.")
    warn_after: int = param(
        2, rule="S3 R14(d)", meaning="Failures from the original position after which the Warning is given."
    )
    miss_waived_behind: int | None = param(
        None,
        rule="S3 R14(a)",
        meaning="FOUL AND A MISS is not called when the offender was more than this many points"
        " behind before the stroke (a rule change under study; no edition has it).",
    )
    miss_cap: int | None = param(
        None,
        rule="S3 R19(a)",
        meaning="Most consecutive FOUL AND A MISS calls from the original position (six reds: 5).",
    )
    miss_black_only: bool = param(
        True,
        rule="S3 R14",
        meaning="FOUL AND A MISS may be called with only the Black left (not in the older edition).",
    )
    play_again: bool = param(
        True, rule="S3 R10(h)(ii)", meaning="The non-offender may ask the offender to play again (not SO 15)."
    )
    in_hand_after_foul: bool = param(
        False, rule="SO 15", meaning="After every foul the incoming player has the cue-ball in hand anywhere."
    )
    replace_after_event_foul: bool = param(
        True,
        rule="S3 R10(i)",
        meaning="Replacing all balls after a foul before the stroke (not in the older edition).",
    )
    award_non_striker: bool = param(
        True,
        rule="S2 R1(c)",
        meaning="Black only and the non-striker more than seven ahead: the frame is theirs.",
    )
    respot_black_on_tie: bool = param(
        True,
        rule="S3 R4(b)",
        meaning="A tie on the last Black is played off with a re-spotted Black (not SO 13).",
    )
    concede_striker_only: bool = param(
        False, rule="older S4 R5(a)", meaning="Only the striker may concede (older edition)."
    )
    no_cushion_foul: bool = param(
        False, rule="SO 17", meaning="Every stroke must send a ball to a cushion or a pocket."
    )
    time_foul: bool = param(False, rule="SO 16", meaning="Shot-clock time fouls.")
    shot_clock_s: float | None = param(
        None,
        rule="SO 2(i)",
        meaning="The shot-clock limit before the last five minutes (15 s in the shootout); none: the"
        " limit each clock record carries. A record whose limit is 10 s or less is in the last five"
        " minutes (SO 2(ii)).",
    )
    shot_clock_late_s: float | None = param(
        None,
        rule="SO 2(ii)",
        meaning="The shot-clock limit in the last five minutes (10 s in the shootout); none: the"
        " limit each clock record carries.",
    )
    out_of_turn_foul: bool = param(
        False,
        rule="older S3 R12(a)(iv)",
        meaning="Playing out of turn is a foul worth the ball on (2024: four-handed only).",
    )
    snooker_behind_nominated: bool = param(
        False,
        rule="S3 R19(d)",
        meaning="After a Red, leaving the opponent snookered behind the nominated colour is a foul.",
    )
    deferred_points: bool = param(
        True,
        rule="S3 R7(b)",
        meaning="Points for re-potting a colour spotted in error count only after the next stroke or"
        " infringement (the older edition has no such proviso, DIFF A17).",
    )
    declare_when_snookered: bool = param(
        False,
        rule="older S3 R12(d)(v)",
        meaning="Failing to declare the ball on when snookered is worth seven (DIFF A14; 2024"
        " S3 R11(d)(v): only when the referee asks).",
    )
    cushion_face_unsnookers: bool = param(
        False,
        rule="older S2 R17(e)",
        meaning="A curved cushion face nearer than the obstructing ball means not snookered (DIFF A16).",
    )
    touching_starts_sequence: bool = param(
        True,
        rule="S3 R14(d)",
        meaning="A miss with the cue-ball touching a ball that could be on starts the FOUL AND A MISS"
        " sequence (not in the older edition, DIFF A5).",
    )
    non_striker_penalty: bool = param(
        True,
        rule="S3 R11(e)-(g)",
        meaning="A non-striker's infringement is a PENALTY; the older edition penalises it as if"
        " they were the striker (older S3 R2(b)(ii), R14(h), DIFF A15).",
    )
    warning_survives_event_foul: bool = param(
        False,
        rule="older S3 R14(d)(vi)",
        meaning="A foul before the stroke during a FOUL AND A MISS sequence keeps the Warning and the"
        " sequence whatever the non-offender chooses (DIFF A7); 2024 keeps it only when all balls"
        " are replaced (S3 R14(e)).",
    )
    replace_cue_ball_only: bool = param(
        False,
        rule="older S3 R14(f)",
        meaning="Replacing after a FOUL AND A MISS puts back the cue-ball (and the ball on) but leaves"
        " the object balls to the referee's discretion (DIFF A8).",
    )
    fb_snooker_after_scoring: bool = param(
        False,
        rule="older S3 R10(b)(ii)",
        meaning="The free-ball snooker foul applies after a scoring stroke too (DIFF A10).",
    )
    fb_snooker_black_and_any: bool = param(
        True,
        rule="S3 R12(b)(ii)",
        meaning="The free-ball snooker is no foul with Black and any one other colour left; the older"
        " edition excepts Pink and Black only (older S3 R10(b)(ii), DIFF A10).",
    )
    forfeit_points: bool = param(
        False,
        rule="older S4 R2(a)(ii)",
        meaning="A frame awarded for conduct forfeits the offender's points and gives the non-offender"
        " the balls left (2024 S4 R4(a)(ii) only in aggregate, DIFF A19).",
    )
    time_wasting_warning_first: bool = param(
        True,
        rule="S4 R3",
        meaning="A frame is awarded for time wasting only after a Warning (older S4 R1 lets the"
        " referee award it at once, DIFF A20).",
    )
    rerack_respotted_black_only: bool = param(
        True,
        rule="S3 R17(d)",
        meaning="A stalemate during a re-spotted Black re-spots the Black only (older S3 R16 re-racks"
        " the frame, DIFF A21).",
    )
    renumber: tuple[tuple[str, str], ...] = param(
        (), rule="-", meaning="Citation fix-ups where an edition numbers an item differently."
    )

    def cite(self, where: str, item: str = "") -> str:
        """The citation of ``item`` in the rule ``where`` of this edition."""
        for a, b in self.renumber:
            if item == a:
                item = b
        return f"{where}{item}"
