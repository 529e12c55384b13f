"""A gap in the strokes (FORMAT 4: ``n`` counts from 1, none left out): docs/rulings.md 32."""

from __future__ import annotations

from pathlib import Path

from cuelog.ingest.reader import read_records
from cuelog.replay import replay_matches
from cuelog.replay.model import INVALID_RECORD
from cuelog.schemas.records import Record, Stroke
from tests.rules.billiards._build import kinds, replay, stroke

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "billiards-game.jsonl"


def test_format_4_gap_is_one_invalid_record_and_the_score_follows_the_scoreboard() -> None:
    """FORMAT 4: stroke 2 (a winning hazard, 3) is missing. One ``invalid_record``; stroke 3
    is not out of turn and its scoreboard, which holds the missing 3, is not a mismatch."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], score=[3, 0]),
        stroke(3, "A", ["red"], ["red"], respots=[("red", "spot")], score=[9, 0]),
        stroke(4, "A", ["red"], score=[9, 0]),
    )
    assert kinds(result) == [(3, INVALID_RECORD)]
    assert result.score == (9, 0)


def _without(records: list[Record], n: int) -> list[Record]:
    return [r for r in records if not (isinstance(r, Stroke) and r.n == n)]


def test_format_4_deleting_a_stroke_adds_the_gap_only() -> None:
    """Issue class "a missing stroke": deleting any one stroke but the first and the last
    (whose loss no later ``n`` shows) from the bundled game adds exactly one finding, the gap."""
    records = [r for _, r in read_records(EXAMPLE)]
    assert replay_matches(records)[0].frames[0].findings == []
    strokes = [r.n for r in records if isinstance(r, Stroke)]
    for n in strokes[1:-1]:
        frame = replay_matches(_without(records, n))[0].frames[0]
        found = frame.findings
        assert [o.n for o in frame.outcomes] == [m for m in strokes if m != n], n  # every stroke's due call
        assert [f.kind for f in found] == [INVALID_RECORD], (n, [(f.n, f.kind, f.message) for f in found])
