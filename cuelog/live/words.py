"""The referee's words for a due call: "FOUL: 6 to Player B, free ball due"."""

from __future__ import annotations

from cuelog.replay.model import (
    FRAME_END_ERROR,
    INVALID_RECORD,
    RESPOT_IN_ERROR,
    RESPOT_MISSING,
    RESPOT_WRONG_SPOT,
    SCORE_MISMATCH,
    Finding,
    Outcome,
)
from cuelog.schemas.records import other


def _name(sides: dict[str, str], side: str | None) -> str:
    return sides.get(side, side) if side is not None else "-"


def call_words(o: Outcome, sides: dict[str, str]) -> str:
    """The call the rules make for a stroke: foul and penalty, or the points scored."""
    if o.foul:
        head = "FOUL AND A MISS" if o.miss else "FOUL"
        words = f"{head}: {o.penalty} to {_name(sides, other(o.striker))}"
        return words + (", free ball due" if o.free_ball else "")
    if o.miss:
        return f"MISS: {o.penalty} to {_name(sides, other(o.striker))}"
    if o.scored:
        return f"{o.scored} to {_name(sides, o.striker)}"
    return "no score"


def respot_words(o: Outcome) -> str:
    if not o.respots:
        return "nothing to spot"
    return "spot " + ", ".join(ball if ball == spot else f"{ball} on {spot}" for ball, spot in o.respots)


def due_words(o: Outcome, sides: dict[str, str]) -> str:
    """Everything the referee must call for a stroke (``--due``)."""
    parts = [f"ball on {o.ball_on or '-'}", call_words(o, sides)]
    if o.respots:
        parts.append(respot_words(o))
    parts.append(f"score {o.score[0]}-{o.score[1]}")
    if o.frame_over:
        parts.append(f"frame to {_name(sides, o.winner)}" if o.winner else "frame over")
    elif o.next_striker is not None:
        parts.append(f"next {_name(sides, o.next_striker)}")
    return "; ".join(parts)


def finding_due(f: Finding, o: Outcome | None, sides: dict[str, str], winner: str | None) -> str:
    """What is due for the stroke a finding concerns, in the words that fit its kind."""
    if f.kind == INVALID_RECORD:
        return "correct the record"
    if f.kind == FRAME_END_ERROR:
        return f"frame to {_name(sides, winner)}" if winner else "the frame is still in play"
    if o is None or o.n != f.n:
        return f.message
    if f.kind in (RESPOT_MISSING, RESPOT_WRONG_SPOT, RESPOT_IN_ERROR):
        return respot_words(o)
    if f.kind == SCORE_MISMATCH:
        return f"score {o.score[0]}-{o.score[1]}"
    return call_words(o, sides)
