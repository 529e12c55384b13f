"""Small pieces every rules engine needs: record times, choices, and the frame's end.

Kept here so that each discipline states only what its own rule book says.
"""

from __future__ import annotations

from datetime import datetime

from cuelog.replay.model import FRAME_END_ERROR, INVALID_RECORD, Finding, FrameResult
from cuelog.schemas.records import Choice, Frame, FrameEnd, other


def parse_time(t: str | None) -> float | None:
    """Seconds since the epoch of an ISO 8601 time with offset; ``None`` when unknown or unreadable."""
    if t is None:
        return None
    try:
        return datetime.fromisoformat(t).timestamp()
    except ValueError:
        return None


def alternating_breaker(frame: Frame, previous: FrameResult | None) -> str | None:
    """The side to break: the one the frame record names, else the other side from the
    previous frame's breaker (billiards S3 R2(d)(ii), WPA 2.1: the break alternates)."""
    if frame.breaker is None and previous is not None and previous.breaker is not None:
        return other(previous.breaker)
    return frame.breaker


def leader(score: tuple[int, int]) -> str | None:
    """The side ahead on points, ``None`` on a tie."""
    if score[0] == score[1]:
        return None
    return "A" if score[0] > score[1] else "B"


def check_choice(choice: Choice, entitled: str | None, options: frozenset[str], rule: str) -> Finding | None:
    """A ``choice`` record is valid when made by the side entitled to one, with an option it has.

    ``entitled`` is the incoming player after a foul (``None``: no choice is open).
    """
    if entitled is None:
        return Finding(
            n=choice.after,
            kind=INVALID_RECORD,
            rule=rule,
            side=choice.side,
            points=0,
            message=f"choice {choice.option!r} with no foul to answer",
        )
    if choice.side != entitled:
        return Finding(
            n=choice.after,
            kind=INVALID_RECORD,
            rule=rule,
            side=choice.side,
            points=0,
            message=f"choice made by {choice.side}, but {entitled} had it",
        )
    if choice.option not in options:
        return Finding(
            n=choice.after,
            kind=INVALID_RECORD,
            rule=rule,
            side=choice.side,
            points=0,
            message=f"option {choice.option!r} is not open here; expected one of {sorted(options)}",
        )
    return None


def check_frame_end(
    n: int, recorded: FrameEnd, winner: str | None, reason: str | None, rule: str, *, decided: bool = True
) -> Finding | None:
    """Compare a recorded ``frame_end`` with the end the rules give.

    ``decided`` is false when the rules cannot name a winner from the facts (e.g. a tie
    at the time limit decided by a tie-break the log does not hold): the recorded winner
    is then trusted.
    """
    if not decided or recorded.winner is None:
        return None
    if recorded.winner != winner:
        due = winner if winner is not None else "no one"
        return Finding(
            n=n,
            kind=FRAME_END_ERROR,
            rule=rule,
            side=recorded.winner,
            points=0,
            message=f"recorded winner {recorded.winner} ({recorded.reason or 'no reason'}), the rules give {due}"
            + (f" ({reason})" if reason else ""),
        )
    return None


def stroke_gap(last_n: int, n: int) -> Finding | None:
    """FORMAT 4: ``n`` counts the strokes of a frame from 1, none left out. A stroke whose
    ``n`` skips some is one ``invalid_record`` for the gap (docs/rulings.md, "A gap in the
    strokes"); ``None`` when nothing is missing."""
    if n <= last_n + 1:
        return None
    missing = f"stroke {last_n + 1} is" if n == last_n + 2 else f"strokes {last_n + 1}-{n - 1} are"
    return Finding(
        n=n,
        kind=INVALID_RECORD,
        rule="FORMAT 4",
        side=None,
        points=0,
        message=f"{missing} missing from the log: play is followed from the recorded state, and the "
        "officials are not charged with what follows from the gap until it agrees with the rules again",
    )
