"""Whether a finding can still be put right at the table, and until when.

The rule books give each kind of error its own window. A foul or penalty that is not
awarded before the next stroke is made is condoned (snooker S3 R10(c), billiards
S3 R16(d)), so a wrong call can be put right only until then. A colour missing from the
table or spotted in error is put right when discovered while the frame is in play
(S3 R7(b), R7(c)(i)); a colour on a wrong spot is considered correctly spotted once a
stroke is played with it (S3 R7(c)). A wrong score is corrected at the earliest
opportunity (S4 R6). A record that cannot be replayed is a fault of the log, not of play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cuelog.replay.model import (
    CONDONED_FOUL,
    FRAME_END_ERROR,
    FREE_BALL_ERROR,
    INVALID_RECORD,
    LIMIT_EXCEEDED,
    MISS_ERROR,
    PENALTY_VALUE,
    RESPOT_IN_ERROR,
    RESPOT_MISSING,
    RESPOT_WRONG_SPOT,
    SCORE_MISMATCH,
    TIME_FOUL_ERROR,
    TIME_FOUL_UNCALLED,
    UNSUPPORTED_FOUL,
    WRONG_STRIKER,
)

NEXT_STROKE: Final = "next_stroke"
"""Open until a stroke after the finding's stroke is made."""
FRAME_END: Final = "frame_end"
"""Open while the frame is in play."""
NEXT_FRAME: Final = "next_frame"
"""Open until the next frame starts."""
NEVER: Final = "never"
"""Not an officiating error: nothing to put right at the table."""


@dataclass(frozen=True, slots=True)
class Remedy:
    """The window in which the officials can still put a kind of finding right."""

    until: str
    rule: str
    how: str


_CALL_SNOOKER: Final = Remedy(NEXT_STROKE, "S3 R10(c)", "call it before the next stroke is made")
_CALL_BILLIARDS: Final = Remedy(NEXT_STROKE, "S3 R16(d)", "call it before the next stroke is made")
_SCORE: Final = Remedy(FRAME_END, "S4 R6", "correct the scoreboard")
_RESULT: Final = Remedy(NEXT_FRAME, "S4 R6", "correct the recorded result before the next frame")
_LOG: Final = Remedy(NEVER, "FORMAT 4", "correct the log")

_CALLS: Final = (
    CONDONED_FOUL,
    UNSUPPORTED_FOUL,
    PENALTY_VALUE,
    WRONG_STRIKER,
    FREE_BALL_ERROR,
    MISS_ERROR,
    TIME_FOUL_UNCALLED,
    TIME_FOUL_ERROR,
    LIMIT_EXCEEDED,
)

SNOOKER: Final[dict[str, Remedy]] = {
    **dict.fromkeys(_CALLS, _CALL_SNOOKER),
    # S3 R7(c)(i): a colour incorrectly missing is spotted when discovered, frame in play.
    RESPOT_MISSING: Remedy(FRAME_END, "S3 R7(c)(i)", "spot the colour now"),
    # S3 R7(b): a colour spotted in error is removed when the error is discovered.
    RESPOT_IN_ERROR: Remedy(FRAME_END, "S3 R7(b)", "take the colour off the table"),
    # S3 R7(c): balls not correctly spotted count as correctly spotted once played with.
    RESPOT_WRONG_SPOT: Remedy(NEXT_STROKE, "S3 R7(c)", "re-spot it before the next stroke"),
    SCORE_MISMATCH: _SCORE,
    FRAME_END_ERROR: _RESULT,
    INVALID_RECORD: _LOG,
}

BILLIARDS: Final[dict[str, Remedy]] = {
    **dict.fromkeys(_CALLS, _CALL_BILLIARDS),
    # S3 R9(f),(h): the ball belongs on its spot; once played, the player is not answerable.
    RESPOT_MISSING: Remedy(NEXT_STROKE, "S3 R9(f)", "spot the ball before the next stroke"),
    RESPOT_IN_ERROR: Remedy(NEXT_STROKE, "S3 R9(f)", "take the ball off before the next stroke"),
    RESPOT_WRONG_SPOT: Remedy(NEXT_STROKE, "S3 R9(f)", "re-spot it before the next stroke"),
    SCORE_MISMATCH: _SCORE,
    FRAME_END_ERROR: _RESULT,
    INVALID_RECORD: _LOG,
}

# WPA General Rules 6 (seed 000): "If a foul is not called before the next shot begins,
# the foul is assumed not to have happened." Spotting, WPA 1.4, is put right before then too.
_CALL_POOL: Final = Remedy(NEXT_STROKE, "WPA 6", "call it before the next shot begins")
POOL: Final[dict[str, Remedy]] = {
    **dict.fromkeys(_CALLS, _CALL_POOL),
    RESPOT_MISSING: Remedy(NEXT_STROKE, "WPA 1.4", "spot the ball before the next shot"),
    RESPOT_IN_ERROR: Remedy(NEXT_STROKE, "WPA 1.4", "take the ball off before the next shot"),
    RESPOT_WRONG_SPOT: Remedy(NEXT_STROKE, "WPA 1.4", "re-spot it before the next shot"),
    # The WPA rules name no window for a scoring or result error: while the rack is in play.
    SCORE_MISMATCH: Remedy(FRAME_END, "-", "correct the score"),
    FRAME_END_ERROR: Remedy(NEXT_FRAME, "-", "correct the recorded result before the next rack"),
    INVALID_RECORD: _LOG,
}

BY_DISCIPLINE: Final = {"snooker": SNOOKER, "billiards": BILLIARDS}
"""Snooker and billiards by name; every other discipline is pool (WPA common rules)."""


def remedy(discipline: str, kind: str) -> Remedy:
    """The remedy of a finding kind; a kind with no window at the table is a log matter."""
    return BY_DISCIPLINE.get(discipline, POOL).get(kind, _LOG)


def still_open(r: Remedy, *, n: int, last_stroke: int, frame_over: bool, next_frame: bool) -> bool:
    """Whether the window is still open, given what the log has shown so far."""
    if r.until == NEXT_STROKE:
        return last_stroke <= n and not next_frame
    if r.until == FRAME_END:
        return not frame_over and not next_frame
    if r.until == NEXT_FRAME:
        return not next_frame
    return False
