"""Set-up, who breaks, in-hand, the turn and the break: S3 R2, R3(b),(d), R5, R21(c); S2 R5, R8."""

from __future__ import annotations

from cuelog.replay.model import WRONG_STRIKER
from cuelog.replay.snooker import new_frame, points_remaining
from cuelog.schemas.records import Frame

from ._build import event, foul, kinds, match, reds_then_colours, replay, stroke


def test_s3_r21c_any_number_of_reds_from_match_or_frame() -> None:
    """S3 R21(c): the frame starts with the match's ``reds``, the frame's ``reds`` overriding it."""
    assert new_frame(match(reds=3), Frame(frame=1, breaker="A")).reds == 3
    assert new_frame(match(reds=3), Frame(frame=1, breaker="A", reds=10)).reds == 10
    assert new_frame(match(), Frame(frame=1, breaker="A")).reds == 15
    assert new_frame(match("snooker/six-reds-2024"), Frame(frame=1, breaker="A")).reds == 6


def test_s3_r2_full_setup_is_worth_147_and_cue_ball_in_hand() -> None:
    """S3 R2(a), S2 R9(a)(i): 15 Reds and six colours on, the cue-ball in hand at the start."""
    s = new_frame(match(), Frame(frame=1, breaker="A"))
    assert s.in_hand
    assert points_remaining(s) == 15 * 8 + 27 == 147


def test_s3_r3b_breaker_alternates_across_frames() -> None:
    """S3 R3(b): the player to break alternates from frame to frame."""
    first, _ = replay(stroke(1, "A", ["red"]), breaker="A")
    assert first.breaker == "A"
    second, _ = replay(stroke(1, "B", ["red"]), breaker="B", previous=first)
    assert second.breaker == "B"
    assert kinds(second) == []


def test_s3_r3d_wrong_starter_is_reported_and_order_resumes() -> None:
    """S3 R3(b),(d)(ii): A breaks frame 2 as well: wrong_striker; the correct order resumes in frame 3.

    Frame 3 is A's again, so A breaks three frames in a row, as the rule foresees.
    """
    first, _ = replay(stroke(1, "A", ["red"]), breaker="A")
    second, _ = replay(stroke(1, "A", ["red"]), breaker="A", previous=first)
    assert kinds(second) == [(1, WRONG_STRIKER)]
    assert second.findings[0].rule.startswith("S3 R3(b)")
    assert second.breaker == "B"  # B was due to break frame 2
    third, _ = replay(stroke(1, "A", ["red"]), breaker="A", previous=second)
    assert kinds(third) == []


def test_s3_r5_improper_in_hand_is_a_foul_worth_the_ball_on() -> None:
    """S3 R5, R11(a)(v): the opening stroke played from outside the D: four (Red on)."""
    result, (o,) = replay(stroke(1, "A", ["red"], placement="illegal", call=foul(4), score=[0, 4]))
    assert o.foul and o.penalty == 4 and o.reasons == ("in_hand",)
    assert result.score == (0, 4) and kinds(result) == []


def test_s3_r5_placement_only_matters_in_hand() -> None:
    """S3 R5: ``placement`` is a fact about play from hand; with the cue-ball in play it is no foul."""
    _, (_o1, o2) = replay(
        stroke(1, "A", ["red"], ["red"]), stroke(2, "A", ["black"], placement="illegal", nominated="black")
    )
    assert not o2.foul


def test_s2_r5_turn_ends_on_no_score_and_wrong_striker_reported() -> None:
    """S2 R5(a): no points scored ends the turn; the same side playing again is out of turn (S3 R3(a))."""
    result, outcomes = replay(stroke(1, "A", ["red"]), stroke(2, "A", ["red"], ["red"]))
    assert outcomes[0].turn_ends and outcomes[0].next_striker == "B"
    assert kinds(result) == [(2, WRONG_STRIKER)]


def test_s2_r8_break_runs_over_successive_pots_of_one_turn() -> None:
    """S2 R8: a break is the pots of one turn; a miss ends it, the next visit starts a new one."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")]),
        stroke(3, "A", ["red"]),
        stroke(4, "B", ["red"], ["red"]),
        stroke(5, "B", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")]),
        stroke(6, "B", ["red"], call=None),
    )
    assert [(b.side, b.points, b.from_, b.to) for b in result.breaks] == [("A", 8, 1, 2), ("B", 7, 4, 5)]
    assert result.score == (8, 7)
    assert result.visits == (1, 1)
    assert [o.break_id for o in outcomes[:2]] == [1, 1]


def test_s2_r8_maximum_clearance_is_one_break_of_147() -> None:
    """S3 R1(b), S2 R8: fifteen Red-Black pairs and the colours: one break of 147, frame to A."""
    result, outcomes = replay(*reds_then_colours(15))
    assert result.score == (147, 0) and result.winner == "A" and result.end_reason == "pot"
    assert [(b.points, b.from_, b.to) for b in result.breaks] == [(147, 1, 36)]
    assert outcomes[-1].frame_over and kinds(result) == []


def test_s3_r17_stalemate_rerack_nullifies_scores_same_opener() -> None:
    """S3 R17(b),(c): a re-rack nullifies the scores, resets the balls, and the same player opens."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal"),
        stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")]),
        stroke(3, "A", ["red"]),
        event(3, "rerack"),
        stroke(4, "A", ["red"], ["red", "red"], placement="legal", score=[2, 0]),
        reds=2,
    )
    assert result.score == (2, 0) and kinds(result) == []
    assert outcomes[-1].ball_on == "red"
    assert [b.points for b in result.breaks] == [8, 2]
    result, _ = replay(stroke(1, "A", ["red"]), event(1, "rerack"), stroke(2, "B", ["red"]))
    assert kinds(result) == [(2, WRONG_STRIKER)]


def test_s3_r3b_breaker_unknown_taken_from_the_opening_stroke() -> None:
    """S3 R3(b): with no breaker recorded the side that made the opening stroke broke; the next frame is the other's."""
    from cuelog.replay.snooker import apply, finish

    s = new_frame(match(), Frame(frame=1))
    s, _, _ = apply(s, stroke(1, "B", ["red"]))
    first = finish(s)
    assert first.breaker == "B"
    second, _ = replay(stroke(1, "B", ["red"]), breaker="B", previous=first)
    assert kinds(second) == [(1, WRONG_STRIKER)]
