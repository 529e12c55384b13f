"""The scoreboard side of a replay, shared by every discipline.

An engine decides what a stroke is worth under the rules; the ledger keeps the score
the rules give, the visits and the breaks, and checks each recorded scoreboard against
it. Comparing *movements* of the scoreboard, not totals, means an error is reported on
the stroke that made it and not again on every stroke after it (docs/format.md section 7).
"""

from __future__ import annotations

from typing import Final

from cuelog.replay.model import SCORE_MISMATCH, Break, Finding

_INDEX: Final = {"A": 0, "B": 1}
"""Each side's place in the score and visit pairs (Final: a compiled build reads it once)."""


class Ledger:
    """Official score, recorded score, visits and breaks of one frame."""

    __slots__ = (
        "_alt",
        "_base",
        "_base0",
        "_base1",
        "_run",
        "_run_from",
        "_run_to",
        "_visitor",
        "breaks",
        "credited",
        "official",
        "recorded",
        "visit_id",
        "visits",
    )

    def __init__(self) -> None:
        self.official = [0, 0]
        self.recorded: list[int] | None = None
        self.visits = [0, 0]
        self.breaks: list[Break] = []
        self.visit_id = 0
        self.credited = 0
        """Points the last booked stroke gave its striker."""
        self._visitor: str | None = None
        self._run = 0
        self._run_from = 0
        self._run_to = 0
        # The official score when the last recorded scoreboard was read (``_base0``,
        # ``_base1``; ``_base`` false before any): a stroke with no recorded score must not
        # make the next recorded one look wrong. Two integers, not a list: it is set on
        # every stroke with a scoreboard.
        self._base = False
        self._base0 = 0
        self._base1 = 0
        # What the next recorded scoreboard may also show: the official movement less
        # points booked differently by an event already reported (each discrepancy once).
        self._alt: tuple[int, int] | None = None

    def copy(self) -> Ledger:
        """An independent copy (engines fold immutably: ``apply`` never mutates its input)."""
        c = Ledger.__new__(Ledger)
        c.official = list(self.official)
        c.recorded = None if self.recorded is None else list(self.recorded)
        c.visits = list(self.visits)
        c.breaks = list(self.breaks)
        c.visit_id = self.visit_id
        c.credited = self.credited
        c._visitor = self._visitor
        c._run = self._run
        c._run_from = self._run_from
        c._run_to = self._run_to
        c._base, c._base0, c._base1 = self._base, self._base0, self._base1
        c._alt = self._alt
        return c

    # -- visits and breaks -------------------------------------------------------------

    def _begin_visit(self, side: str) -> None:
        self._close_break()
        self._visitor = side
        self.visits[_INDEX[side]] += 1
        self.visit_id += 1

    def _close_break(self) -> None:
        if self._visitor is not None and self._run > 0:
            self.breaks.append(Break(self._visitor, self._run, self._run_from, self._run_to))
        self._run = 0

    def end_visit(self) -> None:
        """The turn ends (S2 R5): the next stroke, by either side, opens a new visit."""
        self._close_break()
        self._visitor = None

    def break_of(self, side: str) -> int:
        """Points of ``side``'s break in progress (0 when ``side`` is not at the table)."""
        return self._run if self._visitor == side else 0

    def current_break(self) -> int:
        """Points of the break in progress."""
        return self._run

    # -- scoring -----------------------------------------------------------------------

    def stroke(
        self,
        n: int,
        striker: str,
        scored: int,
        penalty: int,
        recorded: list[int] | None,
        *,
        explained: bool = False,
        break_points: int | None = None,
        rule: str = "S3 R1",
    ) -> Finding | None:
        """Book one stroke: ``scored`` to the striker, ``penalty`` to the opponent.

        ``recorded`` is the scoreboard after the stroke as recorded (``None``: unknown).
        ``explained`` says another finding of this stroke already accounts for any
        difference, so no ``score_mismatch`` is raised (each discrepancy once).
        ``break_points`` is what the stroke adds to the break when it differs from
        ``scored`` (billiards: the break keeps points the game target does not count).
        ``rule`` is the citation of a ``score_mismatch`` (the discipline's scoring rule).
        Returns the ``score_mismatch`` finding, if any.
        """
        if self._visitor != striker:
            self._begin_visit(striker)
        official = self.official
        before0, before1 = official
        if _INDEX[striker]:
            official[0], official[1] = before0 + penalty, before1 + scored
        else:
            official[0], official[1] = before0 + scored, before1 + penalty
        self.credited = scored
        add = scored if break_points is None else break_points
        if add > 0:
            if self._run == 0:
                self._run_from = n
            self._run += add
            self._run_to = n
        if penalty > 0:
            # A foul ends the break (S3 R10(e): points before the foul count).
            self._close_break()
        if recorded is None:
            return None
        return self._check(n, striker, before0, before1, recorded, explained, rule)

    def award(self, n: int, side: str, points: int, recorded: list[int] | None = None) -> None:
        """Points given to ``side`` outside a stroke (a penalty for a foul with no stroke)."""
        self.official[_INDEX[side]] += points
        if recorded is not None:
            self.recorded = list(recorded)
            self._base, self._base0, self._base1 = True, self.official[0], self.official[1]
            self._alt = None

    def excuse(self, side: str, booked: int, recorded: int) -> None:
        """An event (no scoreboard of its own) gave ``side`` ``booked`` points where the log
        recorded ``recorded``, a discrepancy the engine has reported: the next recorded
        scoreboard may show either, and is not charged with it again (docs/format.md section 7)."""
        if not self._base:
            return  # no scoreboard read yet: the next one is compared from its own stroke on
        i = _INDEX[side]
        alt = list(self._alt or (0, 0))
        alt[i] += booked - recorded
        self._alt = (alt[0], alt[1])

    def resync(self, recorded: list[int] | None) -> None:
        """Take the recorded scoreboard as the official score (after a gap in the strokes,
        where the rules cannot know what the missing strokes scored)."""
        if recorded is None or len(recorded) != 2:
            return
        self.official = [recorded[0], recorded[1]]
        self.recorded = list(recorded)
        self._base, self._base0, self._base1 = True, recorded[0], recorded[1]
        self._alt = None

    def retract(self, side: str, points: int) -> None:
        """Take back points ``side`` scored that the rules later say do not count (snooker
        S3 R3(h)(iv), R7(b)); they also come off ``side``'s break in progress."""
        self.official[_INDEX[side]] -= points
        if self._visitor == side and self._run > 0:
            self._run = max(0, self._run - points)

    def check(self, n: int, side: str | None, recorded: list[int] | None, *, rule: str = "S3 R1") -> Finding | None:
        """Check a recorded scoreboard that books nothing (e.g. the score of a ``frame_end``)."""
        if recorded is None:
            return None
        return self._check(n, side, self.official[0], self.official[1], recorded, False, rule)

    def _check(
        self,
        n: int,
        striker: str | None,
        before0: int,
        before1: int,
        recorded: list[int],
        explained: bool,
        rule: str,
    ) -> Finding | None:
        """Compare the scoreboard's movement since the last one read with the official
        movement over the same strokes (integers compared in place: this runs every stroke)."""
        official0, official1 = self.official[0], self.official[1]
        previous = self.recorded
        if previous is None or not self._base:
            # The first known scoreboard: compare against the official score before it.
            prev0, prev1 = base0, base1 = before0, before1
        else:
            prev0, prev1, base0, base1 = previous[0], previous[1], self._base0, self._base1
        alt = self._alt
        # The stroke's own list: records are immutable, and the ledger never changes it.
        self.recorded = recorded
        self._base, self._base0, self._base1 = True, official0, official1
        self._alt = None
        due0, due1 = official0 - base0, official1 - base1
        moved0, moved1 = recorded[0] - prev0, recorded[1] - prev1
        if (due0 == moved0 and due1 == moved1) or explained:
            return None
        if alt is not None and due0 - alt[0] == moved0 and due1 - alt[1] == moved1:
            return None
        return Finding(
            n=n,
            kind=SCORE_MISMATCH,
            rule=rule,
            side=striker,
            points=abs(moved0 - due0) + abs(moved1 - due1),
            message=f"scoreboard moved by {[moved0, moved1]} but the rules give {[due0, due1]}",
        )

    def score(self) -> tuple[int, int]:
        return (self.official[0], self.official[1])

    def close(self) -> None:
        """End of frame: the break in progress is complete."""
        self._close_break()
        self._visitor = None
