"""The stated bounds of every number and identifying string in a cuelog/1 record.

A value outside its bound is one no scoreboard, no store column and no report can hold,
so validation rejects it (``bad_number``, ``bad_score``, ``too_long``); a value inside a
bound that the rules do not allow (a foul called for 3 points in snooker) is a fact to
replay and report, never a reason to reject the log. The published JSON Schema states the
same bounds, and a test keeps the two in step (docs/format.md section 3).
"""

from __future__ import annotations

from typing import Final

MAX_COUNT: Final = 2**31 - 1
"""Frame and stroke numbers, ``after``, and other counts: what the store's INTEGER columns hold."""

MAX_POINTS: Final = 999_999
"""Scores, breaks and penalty points: six digits, more than any recorded billiards match."""

MAX_NAME: Final = 200
"""Characters in a match id and in the names of sides and players."""

Bound = tuple[int, int]

COUNT: Final[Bound] = (1, MAX_COUNT)
COUNT_0: Final[Bound] = (0, MAX_COUNT)
POINTS: Final[Bound] = (0, MAX_POINTS)

INT_BOUNDS: Final[dict[str, dict[str, Bound]]] = {
    "match": {"best_of": COUNT, "reds": COUNT, "target": COUNT},
    "frame": {"frame": COUNT, "reds": COUNT},
    "stroke": {
        "frame": COUNT,
        "n": COUNT,
        "break": POINTS,
        "call.points": POINTS,
        "call.visits": COUNT_0,
        "cushions.objects": COUNT_0,
    },
    "choice": {"frame": COUNT, "after": COUNT_0},
    "event": {"frame": COUNT, "after": COUNT_0, "points": POINTS},
    "frame_end": {"frame": COUNT},
    "clock": {"frame": COUNT, "n": COUNT},
}
"""Record type -> JSON field path -> (lowest, highest) integer allowed. Scores ([A, B]) take POINTS."""

NAME_FIELDS: Final = ("match", "sides", "players")
"""Match-record fields whose strings are at most MAX_NAME characters (ids and names)."""
