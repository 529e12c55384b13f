"""14.1's re-rack after the fourteenth ball when the cue ball or the fifteenth ball is in
the way (WPA 4.8 Special Racking Situations).

"When the cue ball or fifteenth object ball interferes with racking fourteen balls for a
new rack, the following special rules apply. A ball is considered to interfere with the
rack if it is within or overlaps the outline of the rack." Interference is read from the
stroke's rest ``positions`` (the fourteenth ball's stroke); without them it is unknown and
nothing beyond 4.8(a) is judged (docs/rulings.md C7).

The referee's placements are the stroke's ``respots``: the fifteenth ball or the cue ball
on ``head`` or ``center``, and balls put back in the triangle ``rack`` (optional: the
re-rack of 4.4 is implied). The cue ball in hand behind the head string is the next
stroke's ``placement``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from cuelog.replay.model import RESPOT_IN_ERROR, RESPOT_MISSING, RESPOT_WRONG_SPOT, Finding
from cuelog.replay.pool.common import CUE
from cuelog.replay.pool.table import CENTER, HEAD, RACK, Pos, Table
from cuelog.schemas.records import Respot

STAYS: Final = "stays"
"""The ball stays where it lies (or, the cue ball, is taken in hand)."""


@dataclass(frozen=True, slots=True)
class Rerack:
    """What WPA 4.8 gives at one re-rack: where the fifteenth ball and the cue ball go."""

    rule: str
    places: Mapping[str, str] = field(default_factory=dict)
    """Ball -> ``head``, ``center``, ``rack`` or ``stays`` for the fifteenth ball and the cue
    ball; a ball left out is unknown (no positions)."""
    in_hand: bool = False
    """The cue ball is in hand behind the head string for the next shot (4.8(b),(d))."""

    @property
    def known(self) -> bool:
        """The rest positions told where the cue ball lies."""
        return CUE in self.places

    @property
    def placed(self) -> tuple[tuple[str, str], ...]:
        """The balls the referee puts on a spot, as the due call's ``respots``."""
        return tuple((b, s) for b, s in sorted(self.places.items()) if s in (HEAD, CENTER))


def due(table: Table, fifteenth: str | None, positions: Sequence[tuple[str, float, float]] | None) -> Rerack:
    """WPA 4.8(a)-(d) for the ball left on the table (``None``: it went down with the
    fourteenth) and the rest positions of the stroke."""
    where: dict[str, Pos] = {b: (x, y) for b, x, y in positions or []}
    cue = where.get(CUE)
    ball = where.get(fifteenth) if fifteenth is not None else None
    cue_in = table.interferes(cue) if cue is not None else None
    if fifteenth is None:
        # 4.8(a): all fifteen re-racked. A cue ball in the way is in hand behind the head
        # string, as in (b) where it is in the way of fifteen (ruling C7).
        if cue_in is None:
            return Rerack("WPA 4.8(a)")
        return Rerack("WPA 4.8(a)", {CUE: STAYS}, in_hand=cue_in)
    if ball is None or cue is None:
        return Rerack("WPA 4.8")
    ball_in = table.interferes(ball)
    if ball_in and cue_in:
        return Rerack("WPA 4.8(b)", {fifteenth: RACK, CUE: STAYS}, in_hand=True)
    if ball_in:
        spot = CENTER if table.blocked(HEAD, [cue]) else HEAD
        return Rerack("WPA 4.8(c)", {fifteenth: spot, CUE: STAYS})
    if cue_in:
        if not table.behind_head_string(ball):
            return Rerack("WPA 4.8(d)", {fifteenth: STAYS, CUE: STAYS}, in_hand=True)
        spot = CENTER if table.blocked(HEAD, [ball]) else HEAD
        return Rerack("WPA 4.8(d)", {fifteenth: STAYS, CUE: spot})
    return Rerack("WPA 4.8", {fifteenth: STAYS, CUE: STAYS})


def compare(n: int, rr: Rerack, recorded: Sequence[Respot] | None) -> tuple[list[Finding], list[Respot] | None]:
    """The referee's placements against 4.8's: the findings, and the recorded respots this
    rule does not account for (left to the spotting rules, WPA 4.6; ``None``: not recorded)."""
    if recorded is None:
        return [], None
    findings: list[Finding] = []
    rest: list[Respot] = []
    seen: set[str] = set()
    for r in recorded:
        want = rr.places.get(r.ball)
        if want is None:
            unknown = not rr.known and (r.ball == CUE or r.spot in (HEAD, CENTER))
            if r.spot != RACK and not unknown:
                rest.append(r)
            continue
        seen.add(r.ball)
        if r.spot is None:
            continue  # coordinates are trusted
        if want == STAYS:
            findings.append(
                Finding(
                    n=n,
                    kind=RESPOT_IN_ERROR,
                    rule=rr.rule,
                    side=None,
                    points=0,
                    message=f"{_name(r.ball)} {_left(r.ball, rr)}, placed on {r.spot!r}",
                )
            )
        elif r.spot != want:
            findings.append(
                Finding(
                    n=n,
                    kind=RESPOT_WRONG_SPOT,
                    rule=rr.rule,
                    side=None,
                    points=0,
                    message=f"{_name(r.ball)} placed on {r.spot!r}, the rules put it on {want!r}",
                )
            )
    for ball, want in sorted(rr.places.items()):
        if want in (HEAD, CENTER) and ball not in seen:
            findings.append(
                Finding(
                    n=n,
                    kind=RESPOT_MISSING,
                    rule=rr.rule,
                    side=None,
                    points=0,
                    message=f"{_name(ball)} had to be placed on the {want} spot but was not",
                )
            )
    return findings, rest


def _name(ball: str) -> str:
    return "the cue ball" if ball == CUE else f"the fifteenth ball ({ball})"


def _left(ball: str, rr: Rerack) -> str:
    if ball == CUE and rr.in_hand:
        return "is in hand behind the head string"
    return "stays where it lies"
