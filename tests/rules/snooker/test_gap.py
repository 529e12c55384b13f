"""A gap in the strokes (FORMAT 4: ``n`` counts from 1, none left out): docs/rulings.md S51."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuelog.ingest.reader import read_records
from cuelog.replay import replay_matches
from cuelog.replay.model import INVALID_RECORD
from cuelog.schemas.records import Record, Stroke

from ._build import choice, foul, kinds, replay, stroke

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_format_4_gap_is_one_invalid_record_and_the_break_goes_on() -> None:
    """FORMAT 4: stroke 3 (a Red potted) is missing. One ``invalid_record``; stroke 4 (the
    Black after that Red) is not a foul, and the official score follows the scoreboard."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"], score=[1, 0]),
        stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")], score=[8, 0]),
        stroke(4, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")], score=[16, 0]),
        stroke(5, "A", ["red"], ["red"], score=[17, 0]),
    )
    assert kinds(result) == [(4, INVALID_RECORD)]
    assert "stroke 3 is missing" in result.findings[0].message
    assert result.score == (17, 0)


def test_format_4_after_the_gap_the_officials_are_charged_again() -> None:
    """S3 R11(b)(iv) after a gap: once the recorded state agrees with the rules again, a foul
    nobody called is a ``condoned_foul`` as anywhere else."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"], score=[1, 0]),
        stroke(3, "A", ["red"], ["red"], score=[3, 0]),
        stroke(4, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")], score=[9, 0]),
        stroke(5, "A", ["pink"], score=[9, 0]),
    )
    assert kinds(result) == [(3, INVALID_RECORD), (5, "condoned_foul")]


def test_format_4_choice_after_a_missing_foul_is_followed() -> None:
    """S3 R10(h): the foul stroke 2 is missing and B's choice after it is recorded: the
    choice is followed (no "choice with no foul"), one ``invalid_record`` for the gap."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"], score=[1, 0]),
        choice(2, "B", "play"),
        stroke(3, "B", ["red"], ["red"], score=[1, 5]),
    )
    assert kinds(result) == [(3, INVALID_RECORD)]
    assert result.score == (1, 5)


def test_format_4_no_gap_no_finding() -> None:
    """FORMAT 4: consecutive strokes raise nothing of the kind."""
    result, _ = replay(stroke(1, "A", ["red"], ["red"], score=[1, 0]), stroke(2, "A", ["blue"], call=foul(5)))
    assert INVALID_RECORD not in [k for _, k in kinds(result)]


def _without(records: list[Record], n: int) -> list[Record]:
    return [r for r in records if not (isinstance(r, Stroke) and r.n == n)]


@pytest.mark.parametrize("name", ["snooker-maximum.jsonl", "snooker-officiating.jsonl"])
def test_format_4_deleting_any_one_stroke_adds_one_finding_at_most(name: str) -> None:
    """Issue class "a missing stroke": deleting any one stroke but the first and the last
    (whose loss no later record shows) from a bundled example leaves its findings, less
    those of the deleted stroke, plus the one ``invalid_record`` of the gap: never more."""
    records = [r for _, r in read_records(EXAMPLES / name)]
    base = replay_matches(records)[0].frames[0].findings
    strokes = [r.n for r in records if isinstance(r, Stroke)]
    for n in strokes[1:-1]:
        frame = replay_matches(_without(records, n))[0].frames[0]
        found = frame.findings
        assert [o.n for o in frame.outcomes] == [m for m in strokes if m != n], n  # every stroke's due call
        gaps = [f for f in found if f.kind == INVALID_RECORD]
        assert len(gaps) == 1, (n, found)
        assert len(found) <= len(base) + 1, (n, [(f.n, f.kind) for f in found])
