"""Finding kinds in the words an official reads (docs/format.md section 7).

The stable ``kind`` codes stay in the JSON document and the store; human output (the
replay table, the demo's audit, the plots) shows these words beside them. One place, so
the same kind reads the same everywhere; a kind with no words here is shown as its code.
"""

from __future__ import annotations

from typing import Final

KIND_WORDS: Final[dict[str, str]] = {
    "condoned_foul": "foul not called",
    "unsupported_foul": "foul called that the facts contradict",
    "penalty_value": "foul called for the wrong points",
    "score_mismatch": "scoreboard wrong",
    "respot_missing": "ball not spotted that had to be",
    "respot_wrong_spot": "ball spotted on the wrong spot",
    "respot_in_error": "ball spotted that had to stay off",
    "wrong_striker": "stroke played by the wrong side",
    "free_ball_error": "free ball called, taken or scored wrongly",
    "miss_error": "foul and a miss called or warned wrongly",
    "frame_end_error": "frame ended or awarded wrongly",
    "time_foul_uncalled": "time foul not called",
    "time_foul_error": "time foul called wrongly",
    "limit_exceeded": "hazard, cannon or baulk-line limit passed",
    "invalid_record": "record that cannot be replayed",
}


def kind_words(kind: str) -> str:
    """The words for a finding kind (its code, with spaces, when it has none yet)."""
    return KIND_WORDS.get(kind, kind.replace("_", " "))
