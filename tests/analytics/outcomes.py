"""Replay results built by hand, stroke by stroke, for testing the store and the reports
without a rules engine: each stroke says who played, what it scored under the rules, the
penalty and whether a miss was due. The shared ``Ledger`` keeps score, visits and breaks,
exactly as the engines do.
"""

from __future__ import annotations

from dataclasses import dataclass

from cuelog.replay.ledger import Ledger
from cuelog.replay.model import Finding, FrameResult, MatchResult, Outcome


@dataclass(frozen=True)
class S:
    """One stroke as the rules see it."""

    striker: str
    scored: int = 0
    penalty: int = 0
    miss: bool = False
    ball_on: str | None = None


def frame(number: int, strokes: list[S], findings: list[Finding] | None = None) -> FrameResult:
    ledger = Ledger()
    outcomes: list[Outcome] = []
    for n, s in enumerate(strokes, start=1):
        ledger.stroke(n, s.striker, s.scored, s.penalty, None)
        foul = s.penalty > 0
        if foul or s.scored == 0:
            ledger.end_visit()
        outcomes.append(
            Outcome(
                n=n,
                striker=s.striker,
                scored=s.scored,
                penalty=s.penalty,
                foul=foul,
                miss=s.miss,
                ball_on=s.ball_on,
                score=ledger.score(),
                visit_id=ledger.visit_id,
                break_id=len(ledger.breaks) + 1 if ledger.current_break() else None,
                credited=ledger.credited,
            )
        )
    ledger.close()
    score = ledger.score()
    winner = None if score[0] == score[1] else ("A" if score[0] > score[1] else "B")
    return FrameResult(
        frame=number,
        score=score,
        recorded=score,
        winner=winner,
        breaks=list(ledger.breaks),
        findings=list(findings or []),
        outcomes=outcomes,
        visits=(ledger.visits[0], ledger.visits[1]),
    )


def match(match_id: str, rules: str, a: str, b: str, *frames: FrameResult) -> MatchResult:
    return MatchResult(match_id, rules, {"A": a, "B": b}, list(frames))


def maximum_frame() -> FrameResult:
    """B breaks off, A makes 147: 15 reds and 15 blacks, then the six colours."""
    strokes = [S("B")]
    for _ in range(15):
        strokes += [S("A", 1, ball_on="red"), S("A", 7, ball_on="colour")]
    strokes += [
        S("A", v, ball_on=c)
        for c, v in zip(("yellow", "green", "brown", "blue", "pink", "black"), range(2, 8), strict=True)
    ]
    return frame(1, strokes)


def two_fifties_frame() -> FrameResult:
    """B makes 56 and 67 in one frame, A 21 between them."""
    strokes = [S("A")]
    strokes += [S("B", v) for _ in range(7) for v in (1, 7)] + [S("B")]
    strokes += [S("A", v) for _ in range(3) for v in (1, 6)] + [S("A")]
    strokes += [S("B", v) for _ in range(5) for v in (1, 7)] + [S("B", v) for v in range(2, 8)]
    return frame(1, strokes)


def miss_frame() -> FrameResult:
    """B: three fouls and a miss running (5 each), then a legal stroke; A goes in-off (4)."""
    strokes = [S("B"), S("A")] + [S("B", 0, 5, miss=True)] * 3 + [S("B"), S("A", 0, 4), S("B", 1), S("B", 7), S("B")]
    return frame(1, strokes)


def billiards_frame() -> FrameResult:
    """A scores 3, 3, 3 then fouls (2 to B) mid-visit; B 3 + 2; A 3; B nothing."""
    strokes = [S("A", 3), S("A", 3), S("A", 3), S("A", 0, 2), S("B", 3), S("B", 2), S("B"), S("A", 3), S("A"), S("B")]
    return frame(1, strokes)
