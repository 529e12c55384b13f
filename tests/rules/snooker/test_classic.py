"""The older edition (seed 000): the differences the facts can show (RULES-DIGEST DIFFERENCES A)."""

from __future__ import annotations

from cuelog.replay.model import FRAME_END_ERROR, MISS_ERROR

from ._build import choice, event, foul, kinds, replay, stroke

OLD = "snooker/classic"
TO_BLACK = [
    stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue", "pink"])
]


def test_classic_penalties_are_numbered_rule_12() -> None:
    """O S3 R12(a)(vii): the older book numbers the penalty values Rule 12."""
    _, (o,) = replay(stroke(1, "A", ["red"], ["white"], call=foul(4)), rules=OLD)
    result, _ = replay(stroke(1, "A", ["black"], call=foul(4)), rules=OLD)
    assert o.penalty == 4
    assert result.findings[0].rule == "S3 R12(b)(iv)"


def test_classic_no_award_to_the_non_striker() -> None:
    """DIFF A1, O S2 R1(b): only the striker may claim; play on with Black only 20 behind is legal."""
    result, _ = replay(*TO_BLACK, stroke(6, "A", ["black"]), stroke(7, "B", ["black"]), rules=OLD, reds=0)
    assert kinds(result) == [] and not result.end_reason


def test_classic_no_miss_with_black_only() -> None:
    """DIFF A3, O S3 R14: no FOUL AND A MISS when only the Black remains."""
    records = [stroke(1, "A", ["yellow"], ["yellow"], respots=[]), stroke(2, "A", ["green"])]
    records += [stroke(3 + i, "B", [c], [c], respots=[]) for i, c in enumerate(["green", "brown", "blue", "pink"])]
    records += [stroke(7, "B", ["black"]), stroke(8, "A", [], call=foul(7, miss=True))]
    result, _ = replay(*records, rules=OLD, reds=0)
    assert kinds(result) == [(8, MISS_ERROR)]


def test_classic_concession_only_by_the_striker() -> None:
    """DIFF A18, O S4 R5(a): a player may concede only during their own turn."""
    records = [*TO_BLACK[:4], stroke(5, "A", ["pink"]), event(5, "concede", "A")]
    result, _ = replay(*records, rules=OLD, reds=0)
    assert kinds(result) == [(5, FRAME_END_ERROR)] and result.findings[0].rule == "S4 R5(a)"


def test_classic_no_replacement_after_foul_before_striking() -> None:
    """DIFF A9: the replace-all option after a foul before the stroke (S3 R10(i)) is new in 2024."""
    records = [event(0, "foul", "A", code="touched_ball", ball="red", points=4), choice(0, "B", "replace_play")]
    result, _ = replay(*records, rules=OLD)
    assert kinds(result) == [(0, MISS_ERROR)]
    result, _ = replay(*records)
    assert kinds(result) == []


def test_classic_playing_out_of_turn_is_a_foul() -> None:
    """DIFF A12, O S3 R12(a)(iv): playing out of turn is a foul worth the ball on (here four)."""
    _, (_, o) = replay(stroke(1, "A", ["red"]), stroke(2, "A", ["red"], call=foul(4)), rules=OLD)
    assert o.foul and o.reasons == ("out_of_turn",) and o.penalty == 4
    result, _ = replay(stroke(1, "A", ["red"]), stroke(2, "A", ["red"], call=foul(4)), rules=OLD)
    assert kinds(result) == []
    result, _ = replay(stroke(1, "A", ["red"]), stroke(2, "A", ["red"]), rules=OLD)
    assert kinds(result) == [(2, "wrong_striker")]
    _, (_, o) = replay(stroke(1, "A", ["red"]), stroke(2, "A", ["red"]))
    assert not o.foul
